"""Resuming a batch removes the temp files a killed writer left, and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.procs import dsq_here


def dsq(*args: str) -> subprocess.CompletedProcess[str]:
    """``dsq ARGS`` in this process (no interpreter start-up per call): what is checked here
    is the command's behaviour, not the process boundary."""
    return dsq_here(*args)


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_resume_removes_stale_temp_files_only(tmp_path: Path) -> None:
    done = dsq(
        "simulate",
        "--rules",
        "standard",
        "--games",
        "30",
        "--seed",
        "1",
        "--batch-id",
        "b1",
        "--data",
        str(tmp_path),
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    pid = dead_pid()
    stale_json = tmp_path / "batches" / f".b1.json.tmp-{pid}-0a1b2c3d"
    stale_games = tmp_path / "games" / "b1" / f".part-000000000-5-x.parquet.tmp-{pid}-0a1b2c3d"
    foreign = tmp_path / "batches" / "notes.txt"
    for path in (stale_json, stale_games, foreign):
        path.write_text("left behind")
    # Pretend the driver died: the record says running, so --resume takes it up again.
    record_path = tmp_path / "batches" / "b1.json"
    record = json.loads(record_path.read_text())
    record.update(status="running", pid=pid)
    record_path.write_text(json.dumps(record))

    res = dsq("simulate", "--resume", "b1", "--data", str(tmp_path), "--quiet")
    assert res.returncode == 0, res.stderr
    assert not stale_json.exists()
    assert not stale_games.exists()
    assert foreign.read_text() == "left behind"
    assert json.loads(record_path.read_text())["status"] == "done"
