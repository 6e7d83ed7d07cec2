"""A real round trip: ``dsq engine`` registered as an external engine and played by the
referee, on the local pool and on Dask, and checked by the rules check."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.batch import RunOptions, make_spec, run_batch
from sim.external import pool
from sim.external.check import check_engine, report_text
from sim.external.registry import EngineRegistry
from sim.play.referee import play_game
from sim.storage.reading import open_dataset
from tests.support.cluster import local_cluster
from tests.support.engines import dsq_engine, processes_with, write_registry
from tests.support.procs import WAIT

POOL, DASK = "424242", "424243"  # the seeds of the batches' engines: find their processes
TRAP_FEN = "l5t/2dL3/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6 r 0 1"  # red lion in blue's trap d8


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineRegistry]:
    path = write_registry(
        tmp_path_factory.mktemp("engines") / "engines.toml",
        dsq_engine("dsq-ab", "alphabeta:depth=2"),
        dsq_engine("dsq-pool", "alphabeta:depth=1", marker=POOL),
        dsq_engine("dsq-dask", "alphabeta:depth=1", marker=DASK),
        dsq_engine("dsq-tcc", "greedy", rules="standard+trapped_can_capture"),
    )
    yield EngineRegistry.load(path)
    pool.close_all()


def _game(record: dict) -> tuple:
    return record["winner"], record["reason"], record["plies"], record["moves"]


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_games_equal_in_process_games(registry: EngineRegistry, seed: int) -> None:
    engine, inproc = "engine:dsq-ab,depth=2", "alphabeta:depth=2"
    for side in ("red", "blue"):
        pair = (engine, "greedy") if side == "red" else ("greedy", engine)
        ours = play_game("standard", *[inproc if b == engine else b for b in pair], seed,
                         opening_plies=2)  # fmt: skip
        theirs = play_game("standard", *pair, seed, opening_plies=2, engines=registry)
        assert _game(theirs) == _game(ours)
        assert theirs[f"{side}_engine"]["version"] == "dsq alphabeta:depth=2"
        assert len(theirs["move_ms"]) == theirs["plies"]
        assert theirs["forfeit_note"] is None and theirs["time_control"] is None


def _batch_rows(data: Path, batch: str) -> list[tuple]:
    with open_dataset(data) as ds:
        return ds.con.sql(
            f"SELECT red, blue, winner, reason, moves FROM games WHERE batch_id = '{batch}' "
            "ORDER BY game_index"
        ).fetchall()


def _wait_gone(marker: str) -> None:
    deadline = time.monotonic() + WAIT
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker) == []


def test_pool_batch_with_an_engine_bot(registry: EngineRegistry, tmp_path: Path) -> None:
    spec = make_spec("standard", "engine:dsq-pool,depth=1", "greedy", 4, seed=3, swap=True)
    ref = make_spec("standard", "alphabeta:depth=1", "greedy", 4, seed=3, swap=True)
    engines = registry.entries_json(["dsq-pool"])
    run_batch(spec, tmp_path, workers=2, batch_id="pool",
              options=RunOptions(chunk_games=1, engines=engines))  # fmt: skip
    run_batch(ref, tmp_path, batch_id="ref")
    got, want = _batch_rows(tmp_path, "pool"), _batch_rows(tmp_path, "ref")
    assert [g[2:] for g in got] == [w[2:] for w in want]
    _wait_gone(POOL)  # the workers closed their engines when they ended


@pytest.mark.slow
def test_dask_batch_with_an_engine_bot(registry: EngineRegistry, tmp_path: Path) -> None:
    spec = make_spec("standard", "engine:dsq-dask,depth=1", "greedy", 4, seed=3, swap=True)
    ref = make_spec("standard", "alphabeta:depth=1", "greedy", 4, seed=3, swap=True)
    run_batch(ref, tmp_path, batch_id="ref")
    with local_cluster() as cluster:
        options = RunOptions(chunk_games=1, engines=registry.entries_json(["dsq-dask"]))
        run_batch(spec, tmp_path, scheduler=cluster.scheduler_address, batch_id="dask",
                  options=options)  # fmt: skip
        assert processes_with(DASK)  # kept up by the workers between chunks
    got, want = _batch_rows(tmp_path, "dask"), _batch_rows(tmp_path, "ref")
    assert [g[2:] for g in got] == [w[2:] for w in want]
    _wait_gone(DASK)


def test_rules_check_passes_against_ourselves(registry: EngineRegistry) -> None:
    report = check_engine(registry.find("dsq-ab"), "standard", games=2, plies=60, perft_depth=3)
    assert report.passed, report_text(report)
    assert report.method == "moves" and report.positions == 120
    assert [p["engine"] for p in report.perft[:3]] == [24, 576, 12240]


def test_rules_check_finds_the_clause(registry: EngineRegistry) -> None:
    entry = registry.find("dsq-tcc")  # plays standard+trapped_can_capture
    report = check_engine(entry, "standard", games=1, plies=10, perft_depth=1, fen=TRAP_FEN)
    assert not report.passed
    assert list(report.differences) == ["Captures 2: attacker in a trap"]
    diff = report.differences["Captures 2: attacker in a trap"]
    assert diff.example["fen"] == TRAP_FEN and diff.example["move"] == "d8c8"
    assert diff.example["allowed_by"] == "engine"
    assert "Captures 2: attacker in a trap" in report_text(report)
    same = check_engine(entry, "standard+trapped_can_capture", games=1, plies=10, fen=TRAP_FEN)
    assert same.passed
