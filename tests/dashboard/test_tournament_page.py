"""The Bots page's tournament box: a recorded tournament's standing and cross table."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.tables import literal
from sim.report import fmt
from sim.tournament.plan import load, make_tournament, register
from sim.tournament.report import build_report
from sim.tournament.run import run_tournament
from tests.support.apptest import run_app


@pytest.fixture(scope="module")
def tournament_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("tpage") / "data"
    data.mkdir()
    t = make_tournament(
        "round-robin", ["random", "greedy", "alphabeta:depth=1"], games_per_pair=4,
        ply_cap=100, seed=3, tid="page",
    )  # fmt: skip
    run_tournament(register(data, t), data, quiet=True)
    return data


def test_bots_page_shows_a_chosen_tournament(monkeypatch, tournament_data):
    at = run_app(monkeypatch, tournament_data, "bots")
    assert not at.exception
    box = at.selectbox(key="bots_tournament")
    assert box.options == ["none: the selection's games", "page"]
    box.set_value("page").run()
    assert not at.exception
    rep = build_report(load(tournament_data, "page"), tournament_data)
    standing = next(d.value for d in at.table if "byes" in d.value.columns)
    assert list(standing["points"]) == [fmt.num(s["points"], 1) for s in rep["standing"]]
    cross = next(d.value for d in at.table if literal("1. random") in d.value.columns)
    c = rep["cross"][1][0]  # greedy against random
    want = f"{fmt.wdl(c['wins'], c['draws'], c['losses'], ' / ')} ({fmt.num(c['points'], 1)})"
    first, second = literal("1. random"), literal("2. greedy")  # as Markdown shows "1. random"
    assert cross.loc[second, first] == want
    assert cross.loc[first, first] == "—"
