"""The Python front door, ``sim`` and :mod:`sim.api`: its names load on first use, its
calls give what the commands give, and its records have the types they declare."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import sim
import sim.api
from engine.errors import DsqError
from sim.bots.spec import BotParamInfo
from sim.cli import main as dsq
from sim.storage.schema import GAME_SCHEMA, REASONS
from tests.support import ROOT
from tests.support.dataset import BATCH_IDS, TOTAL_GAMES


def test_import_sim_loads_nothing_more() -> None:
    code = (
        "import sys, sim; print(sorted(m for m in sys.modules if m.startswith(('sim.', 'pandas'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_every_name_of_the_api_is_a_name_of_sim() -> None:
    assert sim.API == set(sim.api.__all__)
    for name in sim.api.__all__:
        assert getattr(sim, name) is getattr(sim.api, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        sim.nothing  # noqa: B018
    assert sim.stats.__name__ == "sim.stats"  # the package, not a function of the API


def test_statistics_are_those_of_dsq_stats(
    fixture_data: Path, capsys: pytest.CaptureFixture
) -> None:
    rows = sim.statistics(fixture_data, by="batch")
    assert list(rows["batch"]) == sorted(BATCH_IDS) and rows["games"].sum() == TOTAL_GAMES
    assert list(rows.columns[1:]) == list(typing.get_type_hints(sim.GeneralRow))[:-1]
    [whole] = sim.statistics(fixture_data).to_dict("records")
    assert (
        whole["games"] == TOTAL_GAMES and whole["red_low"] < whole["red_rate"] < whole["red_high"]
    )
    assert {f"reason_{r}" for r in REASONS} <= set(whole)
    assert dsq(["stats", "--data", str(fixture_data), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["general"]
    assert cli["red"]["count"] == whole["red"] and cli["draw"]["high"] == pytest.approx(
        whole["draw_high"]
    )
    one = sim.statistics(fixture_data, rules="yeshou", bots="random")
    assert one["games"].item() == 30
    assert sim.end_reasons(fixture_data)["games"].sum() == TOTAL_GAMES
    assert sim.lengths(fixture_data, bins=4)["games"].sum() == TOTAL_GAMES
    assert set(sim.ratings(fixture_data)["bot"]) == {"random", "greedy"}
    pairing = sim.matchups(fixture_data, batches="fx-swap-1")
    assert list(pairing["bot"]) == ["greedy", "random"] and pairing["games"].tolist() == [40, 40]


def test_games_and_one_game_have_the_schemas_columns(fixture_data: Path) -> None:
    assert list(typing.get_type_hints(sim.GameRecord)) == GAME_SCHEMA.names
    frame = sim.games(fixture_data, batches="fx-rr", limit=5, offset=2)
    assert list(frame.columns) == GAME_SCHEMA.names and list(frame["game_index"]) == [2, 3, 4, 5, 6]
    record = sim.game("fx-rr", 3, data=fixture_data)
    assert record["plies"] == frame["plies"][1] and isinstance(record["captures"], list)
    end = sim.replay(record)
    assert end.result is not None and (end.result.winner, end.result.reason) == (
        record["winner"],
        record["reason"],
    )
    assert sim.replay(record, ply=0).ply == 0
    with pytest.raises(DsqError, match="no game 999"):
        sim.game("fx-rr", 999, data=fixture_data)
    assert sim.games(fixture_data, rules="datou", bots="mcts").empty


def test_simulate_records_a_batch_and_refuses_the_sample_unnamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DSQ_DATA", raising=False)
    with pytest.raises(DsqError, match="bundled sample"):
        sim.simulate("random", "random", games=2)
    with pytest.raises(DsqError, match="--games"):
        sim.simulate("random", "random", games=0, data=tmp_path)
    records = sim.simulate(
        "greedy", "random", games=6, seed=5, rules=["standard", "datou"], batch_id="t",
        data=tmp_path, record="outcomes",
    )  # fmt: skip
    assert [(r.batch_id, r.status, r.games_done) for r in records] == [
        ("t-1", "done", 6),
        ("t-2", "done", 6),
    ]
    assert [r.batch_id for r in sim.batches(tmp_path)] == ["t-1", "t-2"]
    with pytest.raises(DsqError, match="without its moves"):
        sim.replay(sim.game("t-1", 0, data=tmp_path))


def test_positions_and_bots() -> None:
    pos = sim.position(moves=["a3a4", "g7g6"])
    assert pos.ply == 2 and pos.side == "red" and "<svg" in pos._repr_svg_()
    assert sim.position(pos.fen(), rules="datou").rules.spec == "datou"
    bots = {b["name"]: b for b in sim.list_bots()}
    assert bots["alphabeta"]["canonical"].startswith("alphabeta:depth=")
    assert set(bots["mcts"]["params"][0]) == set(typing.get_type_hints(BotParamInfo))


def test_a_missing_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DsqError, match="does not exist"):
        sim.statistics(tmp_path / "nothing")
