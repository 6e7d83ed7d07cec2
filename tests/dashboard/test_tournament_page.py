"""The Bots page's tournament box: a recorded tournament's standing and cross table."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.i18n import text
from dashboard.tables import literal
from sim.report import fmt
from sim.tournament.plan import load, make_tournament, register
from sim.tournament.report import build_report, pair_cells
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


def test_a_chosen_tournament_shows_its_own_ratings_pairs_and_first_move(
    monkeypatch, tournament_data
):
    at = run_app(monkeypatch, tournament_data, "bots")
    at.selectbox(key="bots_tournament").set_value("page").run()
    assert not at.exception
    rep = build_report(load(tournament_data, "page"), tournament_data)
    bold = [m.value for m in at.markdown]
    for key in ("bots.tournament_ratings", "bots.tournament_pairs",
                "bots.tournament_first_move"):  # fmt: skip
        assert f"**{text('en', key)}**" in bold
    # The tournament's own ratings: its games only, as build_report fits them
    ratings = next(d.value for d in at.table if "opponents" in d.value.columns)
    own = [fmt.signed(r["rating"], 0) for r in rep["ratings"]["table"]]
    assert list(ratings["rating (logistic Elo)"]) == own
    assert list(ratings["games"]) == [fmt.count(r["games"]) for r in rep["ratings"]["table"]]
    pairs = next(d.value for d in at.table if "pair" in d.value.columns)
    cells = pair_cells(rep)
    assert len(cells) == 3 and list(pairs["pair"])[0] == "random vs greedy"
    assert list(pairs["games"]) == [fmt.count(c["games"]) for _, _, c in cells]
    fm = rep["first_move"]
    assert any(m.startswith("First-move advantage") or "cannot be separated" in m for m in bold)
    assert fm is not None and fm["games"] == rep["games"]
    # ... and the ratings below are said to be over all the selected games
    assert text("en", "bots.ratings_all") in [h.value for h in at.subheader]
    at.selectbox(key="bots_tournament").set_value("").run()
    assert text("en", "bots.ratings") in [h.value for h in at.subheader]


def test_the_tournament_report_follows_the_confidence_level(tournament_data):
    t = load(tournament_data, "page")
    wide, narrow = build_report(t, tournament_data, 0.99), build_report(t, tournament_data, 0.8)
    for w, n in zip(wide["ratings"]["table"], narrow["ratings"]["table"], strict=True):
        assert w["high"] - w["low"] > n["high"] - n["low"]
    assert wide["first_move"]["confidence"] == 0.99
