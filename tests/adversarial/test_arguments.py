"""Every argument is range-checked before any work starts, and every parse error, resource
error (memory, disk) and malformed input is one line on stderr and exit 2, never a
traceback; nothing recorded is lost."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sim.batch import make_spec, run_batches
from sim.batch.spec import RunOptions
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record, request_cancel
from tests.support import ROOT
from tests.support.procs import WAIT, dsq, env, in_process, limit, one_line_error, wait_for

HUGE = "99999999999999999999"
REFUSED = [
    ["perft", "--depth", "1000000000"],
    ["perft", "--depth", HUGE],
    ["perft", "--suite", "/dev/zero"],
    ["simulate", "--rules", "standard", "--games", "4", "--workers", HUGE],
    ["simulate", "--rules", "standard", "--games", "4", "--sprt", "elo0=-1e308,elo1=1e308"],
    ["simulate", "--rules", "standard", "--games", "4", "--batch-id", "nl\n"],
    ["simulate", "--rules", "standard", "--games", "4", "--label", "two\nlines"],
    ["simulate", "--rules", "standard", "--games", "4", "--chunk-seconds", "inf"],
    ["simulate", "--rules", "standard", "--games", "4", "--flush-games", HUGE],
    ["simulate", "--rules", "standard", "--games", "4", "--data", ""],
    ["stats", "--confidence", "0.9999999999999999"],
    ["stats", "--min-plies", HUGE],
    ["stats", "--bins", HUGE],
    ["batches", "--data", " "],
    ["move", "--bot", "random", "--seed", HUGE * 2],
    ["play", "--red", "random", "--blue", "random", "--ply-cap", HUGE],
    ["bench", "--games", HUGE],
    ["bench", "--strong-bot", "alphabeta:nodez=3"],
    ["bench", "--strong-bot", "engine:x"],
    ["dashboard", "--max-hours", "0"],
]


@pytest.mark.parametrize("argv", REFUSED, ids=lambda a: " ".join(a)[:60])
def test_out_of_range_arguments_are_one_line_exit_2(argv: list[str], tmp_path: Path) -> None:
    if "--data" not in argv and argv[0] in ("simulate", "stats"):
        argv = [*argv, "--data", str(tmp_path / "d")]
    code, out, err = in_process(argv)
    assert code == 2 and out == "", (code, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"dsq {argv[0]}: error:")
    assert not (tmp_path / "d" / "batches").exists()  # nothing written
    assert not list((ROOT / "data" / "batches").glob("nl*"))


def test_a_suite_line_with_a_huge_depth_is_refused_before_any_count(tmp_path: Path) -> None:
    suite = tmp_path / "cases.tsv"
    suite.write_text(f"standard\tstart\t\t1\nstandard\tstart\t\t{HUGE}\n")
    code, out, err = in_process(["perft", "--suite", str(suite)])
    assert code == 2 and out == "" and ":2: depth" in err


def test_a_deeply_nested_line_does_not_stop_the_lines_after_it() -> None:
    lines = "[" * 3000 + "\n" + json.dumps({"rules": "standard", "moves": ["a3a4"]}) + "\n"
    lines += json.dumps({"rules": 5, "moves": [1, 2]}) + "\n" + "9" * 5000 + "\n"
    code, out, err = in_process(["replay", "--jsonl"], stdin=lines)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(results) == 4
    assert "nested too deeply" in results[0]["error"]
    assert results[1]["plies"] == 1 and results[1]["result"] is None
    assert "rules must be text" in results[2]["error"] and "line 4" in results[3]["error"]
    assert "Traceback" not in err and len(err.strip().splitlines()) == 3


def first_file(data: Path, batch_id: str) -> bool:
    """Whether the batch has a games file in place."""
    return any((data / "games" / batch_id).glob("*.parquet"))


def cancel_after_the_first_file(
    data: Path, batch_id: str, proc: subprocess.Popen[str] | None = None
) -> threading.Thread:
    """A thread asking the batch to stop once its first file is in place (an event, not a
    time limit: a loaded machine may take long to play the first chunk); it gives up if
    ``proc`` ends first."""

    def cancel() -> None:
        ended = lambda: proc is not None and proc.poll() is not None  # noqa: E731
        wait_for(lambda: first_file(data, batch_id) or ended(), "the first file")
        if not ended():
            request_cancel(data, batch_id)

    thread = threading.Thread(target=cancel, daemon=True)
    thread.start()
    return thread


def test_the_largest_game_count_starts_and_stops_cleanly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "simulate", "--rules", "standard",
         "--games", "2147483647", "--data", str(tmp_path), "--batch-id", "big", "--quiet",
         "--flush-seconds", "0.2"],
        cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=limit("as", 6 * 2**30),
    )  # fmt: skip
    cancel_after_the_first_file(tmp_path, "big", proc).join()
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 3, err  # cancelled: resumable
    rec = read_batch_record(tmp_path, "big")
    assert rec["status"] == "cancelled"
    assert 0 < rec["games_done"] < 2147483647


def test_an_empty_data_folder_name_never_means_the_project_data(tmp_path: Path) -> None:
    before = sorted(p.name for p in (ROOT / "data").rglob("*"))
    res = dsq("simulate", "--rules", "standard", "--games", "4", "--data", "")
    one_line_error(res, "simulate")
    assert sorted(p.name for p in (ROOT / "data").rglob("*")) == before


def test_a_full_disk_is_one_line_and_keeps_what_was_recorded(tmp_path: Path) -> None:
    spec = make_spec("standard", "random", "random", 50_000, seed=8)
    canceller = cancel_after_the_first_file(tmp_path, "full")
    [rec] = run_batches([spec], tmp_path, batch_id="full", options=RunOptions(flush_games=500))
    canceller.join()
    kept = rec["games_done"]
    assert rec["status"] == "cancelled" and 0 < kept < 50_000
    # Files may grow to 100 kB: the next file (20,000 games) cannot be written (EFBIG).
    res = dsq("simulate", "--resume", "full", "--data", str(tmp_path), "--quiet",
              preexec=limit("fsize", 100_000))  # fmt: skip
    line = one_line_error(res, "simulate")
    assert "file size limit" in line and "--resume full" in line
    rec = read_batch_record(tmp_path, "full")
    with open_dataset(tmp_path) as ds:
        [(recorded,)] = ds.con.execute("SELECT count(*) FROM games").fetchall()
    # A loaded machine may cut the resumed batch's first chunk small enough to fit: the
    # record then counts exactly the games in the files, those of before and that chunk.
    assert rec["status"] == "failed" and rec["games_done"] == recorded
    assert kept <= recorded < 50_000
    assert not [p for p in tmp_path.rglob("*") if ".tmp-" in p.name]


def test_an_accepted_table_size_that_cannot_be_allocated_is_one_line() -> None:
    res = dsq("move", "--bot", "alphabeta:tt_mb=4096", preexec=limit("as", 3 * 2**30))
    assert "out of memory" in one_line_error(res, "move")


def test_a_memory_limit_during_a_batch_keeps_its_record_right(tmp_path: Path) -> None:
    res = dsq(
        "simulate", "--rules", "standard", "--red", "alphabeta:tt_mb=4096", "--games", "2",
        "--data", str(tmp_path), "--batch-id", "oom", "--quiet",
        preexec=limit("as", 3 * 2**30),
    )  # fmt: skip
    assert "out of memory" in one_line_error(res, "simulate")
    rec = read_batch_record(tmp_path, "oom")
    assert rec["status"] == "failed" and rec["games_done"] == 0
