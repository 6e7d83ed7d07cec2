"""``dsq simulate --sprt`` stops a match once the sequential test decides, and records it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sim.stats.sprt import parse_sprt, sprt_llr
from sim.storage.reading import open_dataset


def dsq(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True)


def test_sprt_stops_a_lopsided_match_early(tmp_path: Path) -> None:
    done = dsq(
        "simulate",
        "--rules",
        "standard",
        "--red",
        "greedy",
        "--blue",
        "random",
        "--games",
        "4000",
        "--seed",
        "5",
        "--sprt",
        "elo0=0,elo1=50",
        "--chunk-games",
        "50",
        "--data",
        str(tmp_path),
        "--quiet",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    batch = json.loads(done.stdout)["batches"][0]
    assert batch["stopped_early"] is True
    assert batch["status"] == "done"
    assert batch["sprt"] == "elo0=0,elo1=50,alpha=0.05,beta=0.05"
    check = batch["stop_check"]
    assert check["decision"] == "H1"
    assert check["llr"] >= check["upper"]
    assert batch["games_done"] < 4000
    # The LLR stored is the one of the games recorded (from the --red bot's side).
    with open_dataset(tmp_path) as ds:
        w, d, n = ds.con.execute(
            "select count(*) filter (where winner = 'red'), count(*) filter (where winner = "
            "'draw'), count(*) from games"
        ).fetchone()
    assert n == batch["games_done"]
    assert check["results"] == [w, d, n - w - d]
    assert abs(sprt_llr((w, d, n - w - d), 0, 50) - check["llr"]) < 1e-9
    assert parse_sprt(batch["sprt"]).elo1 == 50


def test_bad_sprt_spec_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for spec in ("elo0=5,elo1=1", "elo0=0,elo1=x", "speed=3", "alpha=2"):
        done = dsq(
            "simulate", "--rules", "standard", "--games", "10", "--sprt", spec, "--data", str(data)
        )
        assert done.returncode == 2
        assert len(done.stderr.strip().splitlines()) == 1
        assert "sprt" in done.stderr
        assert not data.exists()
