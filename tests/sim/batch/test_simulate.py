"""dsq simulate end to end: real referee, real parquet, real process pool, real Dask cluster.

No timed assertions: waits poll the file system with generous deadlines.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

import engine
from sim.batch import (
    BatchFailed,
    RunOptions,
    make_spec,
    resume_batch,
    run_batch,
    run_batches,
    spawn_detached,
)
from sim.storage.paths import project_root
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record, request_cancel
from tests.support.cluster import local_cluster
from tests.support.procs import dsq_here, in_process

ROOT = project_root()
TIMING = ("batch_id", "duration_ms")
WAIT = 600.0  # generous deadline for an event (only reached on failure; never a speed check)


def dsq(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``python -m sim.cli ARGS`` in the project and capture its output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"dsq {args} -> {proc.returncode}\n{proc.stderr}")
    return proc


def popen_dsq(*args: str) -> subprocess.Popen[str]:
    """Start ``python -m sim.cli ARGS`` in the background."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def games(data: Path, batch_id: str | None = None) -> pa.Table:
    """A batch's (or the whole dataset's) rows sorted by game index, timing columns dropped."""
    with open_dataset(data) as ds:
        where = "" if batch_id is None else f"WHERE batch_id = '{batch_id}'"
        t = ds.con.sql(f"SELECT * FROM games {where} ORDER BY game_index").to_arrow_table()
    return t.drop_columns(list(TIMING))


def wait_for(pred, what: str, proc: subprocess.Popen | None = None) -> None:
    """Poll ``pred`` until true; fail after WAIT seconds or if ``proc`` ends first."""
    deadline = time.monotonic() + WAIT
    while not pred():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"process ended before {what}: {proc.stderr.read()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def parquet_files(data: Path, batch_id: str) -> list[Path]:
    return sorted((data / "games" / batch_id).glob("*.parquet"))


def assert_complete(t: pa.Table, n: int) -> None:
    idx = t.column("game_index").to_pylist()
    assert idx == list(range(n)), "every index exactly once"


SPEC = {"rules": "standard", "red": "random", "blue": "greedy", "games": 240, "seed": 11}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    """SPEC with colour swapping and random openings, played on one worker in-process."""
    data = tmp_path_factory.mktemp("ref")
    spec = make_spec(**SPEC, swap=True, opening_plies=4)
    rec = run_batch(spec, data, workers=1, batch_id="ref")
    assert rec["status"] == "done" and rec["games_done"] == 240
    t = games(data, "ref")
    assert_complete(t, 240)
    return t


def test_reference_rows_are_sane(reference: pa.Table) -> None:
    rows = reference.to_pylist()
    assert {r["rules"] for r in rows} == {"standard"}
    for a, b in zip(rows[::2], rows[1::2], strict=True):
        assert a["pair_id"] == b["pair_id"] == a["game_index"] // 2
        assert (a["red"], a["blue"]) == ("random", "greedy") == (b["blue"], b["red"])
        assert a["moves"][:4] == b["moves"][:4]  # the pair shares its opening
        assert a["seed"] != b["seed"]
    assert all(r["winner"] in ("red", "blue", "draw") for r in rows)
    assert all(r["plies"] == len(r["moves"]) for r in rows)
    assert len({tuple(r["moves"]) for r in rows}) > 200
    assert {r["engine_version"] for r in rows} == {engine.__version__}  # see docs/changelog.md


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[object]:
    cluster = local_cluster()
    try:
        yield cluster
    finally:
        cluster.close()


def test_same_records_on_pool_and_dask(
    reference: pa.Table, dask_cluster: object, tmp_path: Path
) -> None:
    spec = make_spec(**SPEC, swap=True, opening_plies=4)
    small = RunOptions(chunk_games=16)
    run_batch(spec, tmp_path, workers=2, batch_id="pool", options=small)
    run_batch(spec, tmp_path, scheduler=dask_cluster.scheduler_address, batch_id="dask")
    for bid in ("pool", "dask"):
        assert games(tmp_path, bid).equals(reference), bid
        assert read_batch_record(tmp_path, bid)["status"] == "done"


def test_dask_worker_killed_mid_batch(dask_cluster: object, tmp_path: Path) -> None:
    from distributed import Client

    args = ["--rules", "standard", "--red", "random", "--blue", "random", "--games", "4000"]
    args += ["--seed", "5", "--ply-cap", "300", "--quiet", "--json"]
    proc = popen_dsq(
        "simulate", *args, "--data", str(tmp_path), "--batch-id", "dk",
        "--scheduler", dask_cluster.scheduler_address,
        "--chunk-games", "20", "--flush-games", "100", "--flush-seconds", "0.2",
    )  # fmt: skip
    wait_for(lambda: parquet_files(tmp_path, "dk"), "the first chunk", proc)
    with Client(dask_cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
        os.kill(next(iter(pids.values())), signal.SIGKILL)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    rec = json.loads(out)["batches"][0]
    assert rec["status"] == "done" and rec["games_done"] == 4000
    got = games(tmp_path, "dk")
    assert_complete(got, 4000)
    local = dsq_here("simulate", *args, "--data", str(tmp_path), "--batch-id", "local")
    assert local.returncode == 0, local.stderr  # the reference, in this process
    assert got.equals(games(tmp_path, "local"))


def test_sigkill_then_resume_gives_the_uninterrupted_rows(tmp_path: Path) -> None:
    args = ["--rules", "standard", "--red", "random", "--blue", "random", "--games", "20000"]
    args += ["--seed", "9", "--ply-cap", "200", "--quiet"]
    proc = popen_dsq(
        "simulate", *args, "--data", str(tmp_path / "a"), "--batch-id", "crash",
        "--chunk-games", "20", "--flush-games", "100", "--flush-seconds", "0.2",
    )  # fmt: skip
    wait_for(lambda: parquet_files(tmp_path / "a", "crash"), "the first chunk", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    rec = read_batch_record(tmp_path / "a", "crash")
    assert rec["status"] == "running" and rec["games_done"] < 20000
    listing = json.loads(dsq("batches", "--data", str(tmp_path / "a"), "--json").stdout)
    assert listing[0]["effective_status"] == "interrupted"
    partial = games(tmp_path / "a", "crash")
    assert 0 < partial.num_rows < 20000
    assert len(set(partial.column("game_index").to_pylist())) == partial.num_rows

    res = dsq("simulate", "--resume", "crash", "--data", str(tmp_path / "a"), "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["batches"][0]["status"] == "done"
    clean_run = dsq_here("simulate", *args, "--data", str(tmp_path / "b"), "--batch-id", "crash")
    assert clean_run.returncode == 0, clean_run.stderr  # the reference, in this process
    resumed, clean = games(tmp_path / "a", "crash"), games(tmp_path / "b", "crash")
    assert_complete(resumed, 20000)
    assert resumed.equals(clean)
    assert not [p for p in (tmp_path / "a").rglob("*") if ".tmp-" in p.name]


def test_cancel_request_then_resume(tmp_path: Path) -> None:
    args = ["--rules", "standard", "--games", "20000", "--seed", "3", "--ply-cap", "200"]
    proc = popen_dsq(
        "simulate", *args, "--data", str(tmp_path), "--batch-id", "c1", "--quiet",
        "--chunk-games", "20", "--flush-games", "100", "--flush-seconds", "0.2",
    )  # fmt: skip
    wait_for(lambda: parquet_files(tmp_path, "c1"), "the first chunk", proc)
    request_cancel(tmp_path, "c1")
    proc.communicate(timeout=600)
    assert proc.returncode == 3
    rec = read_batch_record(tmp_path, "c1")
    assert rec["status"] == "cancelled" and 0 < rec["games_done"] < 20000
    assert games(tmp_path, "c1").num_rows == rec["games_done"]
    rec = resume_batch("c1", tmp_path, workers=1)
    assert rec["status"] == "done"
    assert_complete(games(tmp_path, "c1"), 20000)


def test_stop_check_stops_between_chunks(tmp_path: Path) -> None:
    seen: list[dict] = []

    def stop(counts: dict) -> bool:
        seen.append(counts)
        return counts["games"] >= 30

    spec = make_spec("standard", "random", "greedy", 200, seed=2, swap=True)
    [rec] = run_batches([spec], tmp_path, stop_check=stop, options=RunOptions(chunk_games=10))
    assert rec["status"] == "done" and rec["stopped_early"] is True
    assert 30 <= rec["games_done"] < 200
    last = seen[-1]
    assert last["wins"] + last["draws"] + last["losses"] == last["games"]
    assert last["wins"] == last["a_wins"] and sum(last["pentanomial"]) == last["games"] // 2
    t = games(tmp_path)
    assert t.num_rows == rec["games_done"]


def boom(rules, red, blue, seed, **kw):
    """A game function that fails (to test a failing batch)."""
    raise RuntimeError("engine exploded")


def test_failing_game_marks_batch_failed(tmp_path: Path) -> None:
    spec = make_spec("standard", "random", "random", 10, seed=1)
    with pytest.raises(BatchFailed, match="engine exploded"):
        run_batches([spec], tmp_path, batch_id="f", options=RunOptions(play_fn=f"{__name__}:boom"))
    rec = read_batch_record(tmp_path, "f")
    assert rec["status"] == "failed" and "engine exploded" in rec["error"]


def test_several_rules_one_batch_each_with_the_same_seeds(tmp_path: Path) -> None:
    code, out, err = in_process(
        ["simulate", "--rules", "standard,yeshou", "--games", "12", "--seed", "4",
         "--data", str(tmp_path), "--label", "cmp", "--json", "--batch-id", "g"]
    )  # fmt: skip
    assert code == 0, err
    recs = json.loads(out)["batches"]
    assert [r["batch_id"] for r in recs] == ["g-1", "g-2"]
    assert [r["spec"]["rules"] for r in recs] == ["standard", "yeshou"]
    assert {r["group"] for r in recs} == {"g"} and {r["label"] for r in recs} == {"cmp"}
    a, b = games(tmp_path, "g-1"), games(tmp_path, "g-2")
    assert a.column("seed").equals(b.column("seed"))
    table = in_process(["batches", "--data", str(tmp_path)])[1]
    assert "g-1" in table and "yeshou" in table and "12/12" in table


def test_plain_progress_lines_when_not_a_terminal(tmp_path: Path) -> None:
    # In this process, its output captured: not a terminal, as in a pipe.
    code, out, err = in_process(["simulate", "--rules", "standard", "--games", "30", "--data",
                                 str(tmp_path)])  # fmt: skip
    assert code == 0
    assert "games/s" in err and "[done]" in err and "\r" not in err
    assert "done" in out and "30/30" in out


def test_detached_launch_writes_its_status(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    pid = spawn_detached(
        ["--rules", "standard", "--games", "50", "--data", str(tmp_path), "--batch-id", "det"],
        log_path=log,
    )
    assert pid > 0
    path = tmp_path / "batches" / "det.json"

    def finished() -> bool:
        return path.exists() and json.loads(path.read_text())["status"] == "done"

    wait_for(finished, "the detached batch")
    assert_complete(games(tmp_path, "det"), 50)


BAD = [
    (["--rules", "nonsense", "--games", "5"], "rules"),
    (["--rules", "standard", "--red", "wizard:depth=3", "--games", "5"], "wizard"),
    (["--rules", "standard", "--games", "0"], "--games"),
    (["--rules", "standard", "--games", "-4"], "--games"),
    (["--rules", "standard", "--games", "x"], "--games"),
    (["--rules", "standard", "--games", "5", "--swap"], "even"),
    (["--rules", "standard", "--games", "5", "--workers", "0"], "--workers"),
    (["--rules", "standard", "--games", "5", "--scheduler", "http://nope"], "scheduler"),
    (["--rules", "standard", "--games", "5", "--scheduler", "tcp://127.0.0.1:9"], "connect"),
    (["--resume", "nosuchbatch"], "no batch"),
    (["--resume", "x", "--rules", "standard"], "--resume"),
    (["--rules", "standard"], "--games is required"),
    (["--games", "2", "--resign", "movecount=3,score=2"], "--resign: score"),
    (["--games", "2", "--resign", "score=0.5"], "--resign needs movecount"),
    (["--games", "2", "--draw", "movenumber=5,movecount=x,score=0.1"], "--draw: movecount"),
]


@pytest.mark.parametrize(("args", "needle"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_arguments_one_line_exit_2_nothing_written(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    data = tmp_path / "data"
    argv = ["simulate", *args, "--data", str(data)]
    if "--scheduler" in args or args == BAD[0][0]:  # Dask's client; one plain case too
        res = dsq(*argv)
        code, out, err = res.returncode, res.stdout, res.stderr
    else:  # the parser's and the checks' refusal, in this process (an exception would raise)
        code, out, err = in_process(argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dsq simulate: error:"), err
    assert needle in lines[0]
    assert "Traceback" not in err and out == ""
    assert not data.exists()


def test_unwritable_data_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    res = dsq("simulate", "--rules", "standard", "--games", "5", "--data", str(blocker / "d"))
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "not writable" in res.stderr
    assert blocker.read_text() == "not a folder"


def test_resume_refuses_a_running_batch(tmp_path: Path) -> None:
    proc = popen_dsq(
        "simulate", "--rules", "standard", "--games", "200000", "--data", str(tmp_path),
        "--batch-id", "live", "--quiet", "--flush-seconds", "0.2",
    )  # fmt: skip
    try:
        wait_for(lambda: parquet_files(tmp_path, "live"), "the first chunk", proc)
        res = dsq("simulate", "--resume", "live", "--data", str(tmp_path))
        assert res.returncode == 2 and "still running" in res.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=600)
    assert read_batch_record(tmp_path, "live")["status"] == "interrupted"  # SIGTERM


def test_ctrl_c_says_interrupted_in_records_listing_and_exit_code(tmp_path: Path) -> None:
    # The words agree with the exit codes --help lists: 130 interrupted, 3 cancelled.
    assert "130 interrupted (Ctrl-C or SIGTERM)" in " ".join(
        in_process(["simulate", "--help"])[1].split()
    )
    proc = popen_dsq(
        "simulate", "--rules", "standard,datou", "--games", "200000", "--data", str(tmp_path),
        "--batch-id", "ci", "--quiet", "--flush-seconds", "0.2",
    )  # fmt: skip
    wait_for(lambda: parquet_files(tmp_path, "ci-1"), "the first chunk", proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 130 and "interrupted" in err
    first, second = read_batch_record(tmp_path, "ci-1"), read_batch_record(tmp_path, "ci-2")
    assert first["status"] == "interrupted" and first["games_done"] > 0
    assert second["status"] == "interrupted" and second["error"] == "not started"
    listing = in_process(["batches", "--data", str(tmp_path)])[1]
    assert listing.count("interrupted") == 2 and "cancelled" not in listing


def test_keyboard_interrupt_records_interrupted(tmp_path: Path) -> None:
    spec = make_spec("standard", "random", "random", 100000, seed=1)

    def interrupt_once_games_are_recorded() -> None:
        # Interrupt only once the batch is really running (its first file is on disk), so a
        # slow start (JIT compilation on a loaded machine) cannot make the test miss it.
        deadline = time.monotonic() + WAIT
        while not parquet_files(tmp_path, "kb") and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    interrupter = threading.Thread(target=interrupt_once_games_are_recorded, daemon=True)
    interrupter.start()
    with pytest.raises(KeyboardInterrupt):
        run_batches([spec], tmp_path, batch_id="kb", options=RunOptions(flush_seconds=0.1))
    interrupter.join()
    rec = read_batch_record(tmp_path, "kb")
    assert rec["status"] == "interrupted"
    assert games(tmp_path, "kb").num_rows == rec["games_done"]
