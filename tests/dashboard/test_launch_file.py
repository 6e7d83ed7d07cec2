"""A launch from the dashboard hands its specs to the detached simulator as data: the
batches it records play exactly the validated specs, and a forged launch file is refused
with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dashboard.job_list import jobs_dir
from dashboard.jobs import LaunchRequest, launch, validate
from dashboard.settings import Limits
from sim.storage.records import read_batch_record
from tests.support import ROOT
from tests.support.procs import env, wait_for


def done(data: Path, bid: str) -> bool:
    path = data / "batches" / f"{bid}.json"
    return path.exists() and read_batch_record(data, bid)["status"] == "done"


def test_the_detached_process_plays_exactly_the_validated_specs(tmp_path: Path) -> None:
    request = LaunchRequest(rules=("standard", "yeshou"), red="greedy", blue="random",
                            games=6, seed=11, swap=True, opening_plies=3, ply_cap=200,
                            label="-a label")  # fmt: skip
    limits = Limits()
    specs = validate(request, limits)
    ids = launch(tmp_path, request, limits)
    [handed] = [json.loads(p.read_text()) for p in jobs_dir(tmp_path).glob("*.launch")]
    assert handed["specs"] == [s.to_dict() for s in specs]
    assert handed["label"] == "-a label" and handed["workers"] == 1
    for bid, spec in zip(ids, specs, strict=True):
        wait_for(lambda bid=bid: done(tmp_path, bid), f"batch {bid}")
        rec = read_batch_record(tmp_path, bid)
        assert rec["spec"] == spec.to_dict() and rec["label"] == "-a label"
        assert rec["games_done"] == 6


def test_a_forged_launch_file_is_refused_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.launch"
    spec = {"rules": "standard", "red": "random", "blue": "random", "games": 3, "seed": 1,
            "swap": True}  # fmt: skip
    bad.write_text(json.dumps({"format": "dsq-launch/1", "specs": [spec], "batch_id": "f1"}))
    cmd = [sys.executable, "-m", "sim.cli", "simulate", "--spec-file", str(bad),
           "--data", str(tmp_path / "d")]  # fmt: skip
    out = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True, check=False)
    assert out.returncode == 2 and "spec.games" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    out = subprocess.run([*cmd, "--games", "4"], cwd=ROOT, env=env(), capture_output=True,
                         text=True, check=False)  # fmt: skip
    assert out.returncode == 2 and "drop --games" in out.stderr
    assert not (tmp_path / "d" / "batches" / "f1.json").exists()
