"""Batches from an opening suite: pair k plays opening k (cycling) with colours exchanged,
the suite travels in the spec (a resume needs no file), the same games for any number of
workers, and every stored game replays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from sim.batch import RunOptions, make_spec, run_batches
from sim.batch.spec import SpecError
from sim.core.batchspec import MAX_SUITE_TEXT
from sim.openings.suite import load_suite
from sim.records.replay import replay_recorded
from sim.storage.reading import open_dataset
from sim.storage.recordcheck import RecordError, check_spec
from tests.support.cluster import local_cluster

BLUE_TO_MOVE = "7/7/7/7/7/7/7/3l3/L6 b 0 1"
SUITE = f"""# three openings
startpos a3a4 a7a6\tedge
startpos g3g4\tone move: Blue plays first
{BLUE_TO_MOVE}\tlion endgame
"""
SMALL = RunOptions(chunk_games=4, flush_games=6)


def games(data: Path, batch_id: str) -> pa.Table:
    """A batch's rows (the project's reader) by game index, timing and batch id dropped."""
    with open_dataset(data) as ds:
        sql = f"SELECT * FROM games WHERE batch_id = '{batch_id}' ORDER BY game_index"
        t = ds.con.sql(sql).to_arrow_table()
    return t.drop_columns(["duration_ms", "batch_id"])


@pytest.fixture
def suite_file(tmp_path: Path) -> Path:
    path = tmp_path / "suite.txt"
    path.write_text(SUITE, encoding="utf-8")
    return path


def suite_spec(path: Path, red: str = "greedy", blue: str = "random", **options):
    text = load_suite(path, "standard").text
    return make_spec(
        "standard", red, blue, 12, seed=4, swap=True, openings=text, ply_cap=300, **options
    )


def test_pair_k_plays_opening_k_with_colours_exchanged(tmp_path: Path, suite_file: Path) -> None:
    [rec] = run_batches([suite_spec(suite_file, opening_plies=1)], tmp_path, batch_id="s")
    assert rec["status"] == "done" and rec["spec"]["openings"].count("\n") == 3
    entries = load_suite(suite_file, "standard").entries
    rows = games(tmp_path, "s").to_pylist()
    assert [r["game_index"] for r in rows] == list(range(12))
    for r in rows:
        k = r["pair_id"]
        entry = entries[k % 3]
        assert k == r["game_index"] // 2
        assert r["start_fen"] == entry.start_fen
        assert r["moves"][: len(entry.moves)] == list(entry.codes)
        assert r["opening_plies"] == len(entry.moves) + 1
        assert (r["red"], r["blue"]) == (
            ("greedy", "random") if r["game_index"] % 2 == 0 else ("random", "greedy")
        )
    for even, odd in zip(rows[::2], rows[1::2], strict=True):  # a pair shares its opening
        n = len(entries[even["pair_id"] % 3].moves) + 1
        assert even["moves"][:n] == odd["moves"][:n]
    for i in range(12):
        assert replay_recorded(tmp_path, f"s:{i}")["agrees"]


def test_resume_needs_no_suite_file(tmp_path: Path, suite_file: Path) -> None:
    spec = suite_spec(suite_file, openings_order="random")
    [rec] = run_batches([spec], tmp_path / "a", batch_id="r", options=SMALL)
    reference = games(tmp_path / "a", "r")
    # The same batch stopped after a few games, then resumed with the file gone.
    data = tmp_path / "b"
    [rec] = run_batches([spec], data, batch_id="r", options=SMALL, stop_check=lambda c: True)
    assert 0 < rec["games_done"] < 12
    suite_file.unlink()
    path = data / "batches" / "r.json"
    record = json.loads(path.read_text())
    record["status"] = "cancelled"
    path.write_text(json.dumps(record))
    [rec] = run_batches(data_dir=data, resume="r", options=SMALL)
    assert rec["status"] == "done" and rec["games_done"] == 12
    assert games(data, "r").equals(reference)


@pytest.mark.parametrize("bots", [("greedy", "random"), ("alphabeta:depth=1", "random")])
def test_one_and_two_workers_play_the_same_games(
    tmp_path: Path, suite_file: Path, bots: tuple[str, str]
) -> None:
    spec = suite_spec(suite_file, *bots, openings_order="random", opening_plies=2)
    run_batches([spec], tmp_path / "one", batch_id="w", options=SMALL)
    run_batches([spec], tmp_path / "two", batch_id="w", options=SMALL, workers=2)
    one = games(tmp_path / "one", "w")
    assert one.equals(games(tmp_path / "two", "w"))
    assert one.column("start_fen").to_pylist().count(BLUE_TO_MOVE) == 4
    for i in range(12):
        assert replay_recorded(tmp_path / "one", f"w:{i}")["agrees"]


def test_a_suite_longer_than_the_ply_cap_allows_is_refused(suite_file: Path) -> None:
    with pytest.raises(SpecError, match="--ply-cap"):
        make_spec("standard", "random", "random", 2, openings="startpos a3a4 a7a6\n", ply_cap=2)
    with pytest.raises(SpecError, match="--openings:1: move 1"):
        make_spec("standard", "random", "random", 2, openings="startpos a3a5\n")


def test_dsq_simulate_openings_flags(tmp_path: Path, suite_file: Path) -> None:
    root = Path(__file__).resolve().parents[3]
    args = ["--games", "6", "--swap", "--openings", str(suite_file), "--seed", "2"]
    proc = subprocess.run(
        [sys.executable, "-m", "sim.cli", "simulate", "--data", str(tmp_path / "d"), *args]
        + ["--openings-order", "random", "--batch-id", "c", "--quiet", "--json"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    spec = json.loads(proc.stdout)["batches"][0]["spec"]
    assert spec["openings"] == load_suite(suite_file, "standard").text
    assert spec["openings_order"] == "random"


def test_the_record_check_knows_the_suite_fields(suite_file: Path) -> None:
    spec = suite_spec(suite_file).to_dict()
    assert check_spec(dict(spec)) == spec
    old = {k: v for k, v in spec.items() if k not in ("openings", "openings_order")}
    check_spec(old)  # a record written before the fields existed
    for key, bad in [("openings", 5), ("openings", "x" * (MAX_SUITE_TEXT + 1)),
                     ("openings_order", "shuffled")]:  # fmt: skip
        with pytest.raises(RecordError, match=f"spec.{key}: expected"):
            check_spec({**spec, key: bad})


def test_dask_plays_the_same_suite_games(tmp_path: Path, suite_file: Path) -> None:
    spec = suite_spec(suite_file, openings_order="random", opening_plies=1)
    run_batches([spec], tmp_path, batch_id="inline", options=SMALL)
    suite_file.unlink()  # the workers get the suite with the spec
    with local_cluster() as cluster:
        run_batches([spec], tmp_path, batch_id="dask", scheduler=cluster.scheduler_address)
    assert games(tmp_path, "dask").equals(games(tmp_path, "inline"))
