"""The dashboard's launcher: launches released together never exceed the running limit,
every launched batch has a work budget (refused when estimated beyond it, stopped when it
runs past it, and resumable), and labels are validated and passed through intact."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dashboard.job_list import jobs_dir
from dashboard.jobs import LaunchRequest, launch, validate
from dashboard.settings import Limits, load_settings
from engine.errors import DsqError
from sim.batch import make_spec, run_batches
from sim.batch.spec import RunOptions
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record
from tests.support import ROOT
from tests.support.procs import AWAIT_RELEASE, WAIT, alive, env, release_together, wait_for

LAUNCH = f"""
import sys
from pathlib import Path
from dashboard.jobs import LaunchRequest, launch, validate
from dashboard.settings import Limits
from engine.errors import DsqError
request = LaunchRequest(rules=("standard",), red="random", blue="random", games=2_000_000)
limits = Limits(max_games=2_000_000, max_running=4, max_workers=1)
validate(request, limits)  # every import done before the release
{AWAIT_RELEASE}
try:
    print(launch(Path(sys.argv[1]), request, limits)[0])
except DsqError as exc:
    print("refused", exc)
"""


def launched_pids(data: Path) -> list[int]:
    recs = [json.loads(p.read_text()) for p in jobs_dir(data).glob("*.json")]
    return [r["pid"] for r in recs if isinstance(r.get("pid"), int)]


def stop(pids: list[int]) -> None:
    """End the simulators these tests launched (by pid) and wait until they are gone."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    wait_for(lambda: not any(alive(p) for p in pids), "the launched simulators to stop")


def test_eight_launches_released_together_start_at_most_four(tmp_path: Path) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", LAUNCH, str(tmp_path)], cwd=ROOT, env=env(),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(8)
    ]  # fmt: skip
    try:
        release_together(procs)
        outs = [p.communicate(timeout=WAIT)[0].strip() for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        pids = launched_pids(tmp_path)
        stop(pids)
    started = [o for o in outs if not o.startswith("refused")]
    assert len(started) == 4 and len(pids) == 4, outs
    assert all("already running" in o for o in outs if o.startswith("refused"))


BIGGEST = LaunchRequest(
    rules=("standard", "yeshou", "datou", "standard+no_capture_plies=0"),
    red="mcts:playouts=20000,rollout_plies=1000",
    blue="mcts:playouts=20000,rollout_plies=1000",
    games=20_000,
    ply_cap=65535,
    workers=2,
)


def test_the_largest_request_within_the_per_move_limits_is_refused_by_its_budget() -> None:
    with pytest.raises(DsqError, match=r"(days|years) on 2 worker\(s\).*24 hours per batch"):
        validate(BIGGEST, Limits(max_workers=2))
    small = LaunchRequest(rules=("standard",), red="greedy", blue="random", games=20_000)
    assert validate(small, Limits(max_workers=2))  # a typical request still goes


def test_every_launch_carries_its_time_limit_and_a_batch_stopped_by_it_resumes(
    tmp_path: Path,
) -> None:
    limits = Limits(max_hours=3)
    request = LaunchRequest(rules=("standard",), red="random", blue="random", games=30)
    [bid] = launch(tmp_path, request, limits)
    handed = json.loads(next(jobs_dir(tmp_path).glob("*.launch")).read_text())
    assert handed["options"]["max_seconds"] == 3 * 3600
    wait_for(lambda: (tmp_path / "batches" / f"{bid}.json").exists(), "the record")
    wait_for(lambda: read_batch_record(tmp_path, bid)["status"] == "done", "the batch")

    spec = make_spec("standard", "random", "random", 25_000, seed=2)
    [rec] = run_batches([spec], tmp_path, batch_id="capped", options=RunOptions(max_seconds=0.2))
    assert rec["status"] == "cancelled" and "time limit" in rec["error"]
    [rec] = run_batches(data_dir=tmp_path, resume="capped")
    assert rec["status"] == "done" and rec["games_done"] == 25_000
    with open_dataset(tmp_path) as ds:
        n = ds.con.execute("SELECT count(DISTINCT game_index), count(*) FROM games "
                           "WHERE batch_id = 'capped'").fetchone()  # fmt: skip
    assert n == (25_000, 25_000)


def test_a_label_starting_with_a_dash_is_launched_and_recorded_as_given(tmp_path: Path) -> None:
    request = LaunchRequest(rules=("standard",), red="random", blue="random", games=20,
                            label="-x --games 5")  # fmt: skip
    [bid] = launch(tmp_path, request, Limits())
    wait_for(lambda: (tmp_path / "batches" / f"{bid}.json").exists(), "the record")
    wait_for(lambda: read_batch_record(tmp_path, bid)["status"] == "done", "the batch")
    rec = read_batch_record(tmp_path, bid)
    assert rec["label"] == "-x --games 5" and rec["games_done"] == 20
    for bad in ("two\nlines", "tab\there", "x" * 201):
        with pytest.raises(DsqError, match="label"):
            launch(tmp_path, LaunchRequest(("standard",), "random", "random", 2, label=bad),
                   Limits())  # fmt: skip


def test_the_budget_and_running_limits_are_settings_like_the_others(monkeypatch) -> None:
    from sim.cli import build_parser
    from sim.commands.dashboard import command

    args = build_parser("dashboard").parse_args(
        ["dashboard", "--max-running", "2", "--max-hours", "5", "--data", "/tmp/x"]
    )
    _, environment = command(args, Path("/tmp/x"))
    for var in ("DSQ_DASHBOARD_MAX_RUNNING", "DSQ_DASHBOARD_MAX_HOURS"):
        monkeypatch.setenv(var, environment[var])
    limits = load_settings().limits
    assert (limits.max_running, limits.max_hours, limits.max_seconds) == (2, 5, 18000)
    monkeypatch.setenv("DSQ_DASHBOARD_MAX_HOURS", "9" * 30)
    settings = load_settings()
    assert settings.limits.max_hours == 24 and settings.problems
