"""The presets study reruns from the repository: ``benchmarks/study_presets.py`` records
the batches docs/study-presets.md describes (here its first round, 2 games per preset) and
prints the comparison; run again, it keeps what is recorded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sim.bots.spec import parse_bot
from tests.support import ROOT
from tests.support.procs import env

SCRIPT = ROOT / "benchmarks" / "study_presets.py"


def _run(data: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), "--data", str(data), "--rounds", "1", "--games", "2",
           "--workers", "1"]  # fmt: skip
    return subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)


def test_the_study_script_records_the_documented_batches(tmp_path: Path) -> None:
    res = _run(tmp_path)
    assert res.returncode == 0, res.stderr
    assert "round 101:" in res.stderr and "6 games in" in res.stderr
    assert res.stdout.startswith("rule sets compared: standard, yeshou, datou (6 games")
    bot = parse_bot("alphabeta:depth=4,eval=classic").canonical
    assert bot.endswith("values=450/200/300/350/500/800/900/1000")  # the study's bot
    specs = [
        json.loads((tmp_path / "batches" / f"study-101-g2-{k}.json").read_text())["spec"]
        for k in (1, 2, 3)
    ]
    assert [s["rules"] for s in specs] == ["standard", "yeshou", "datou"]
    for s in specs:
        assert (s["red"], s["blue"], s["seed"], s["opening_plies"], s["swap"]) == (
            bot,
            bot,
            101,
            8,
            False,
        )
    doc = (ROOT / "docs" / "study-presets.md").read_text(encoding="utf-8")
    assert "python benchmarks/study_presets.py" in doc
    again = _run(tmp_path)  # recorded rounds are kept, not played again
    assert again.returncode == 0 and again.stdout == res.stdout
