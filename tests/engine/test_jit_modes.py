"""The compiled kernels give the same answers as plain Python (NUMBA_DISABLE_JIT=1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

SNIPPET = r"""
import json
import numpy as np
from engine import Position
from engine.fen import parse_fen
from engine.playout import random_playout
from engine.rng import seed_state
from engine import core

out = {}
for rules in ("standard", "yeshou+dog_over_wolf", "datou+rat_cross_capture+no_capture_plies=30"):
    pos = Position(rules)
    out[rules + " perft3"] = pos.perft(3)
    st = parse_fen("start", pos.rules_array, 700)
    random_playout(st, pos.rules_array, seed_state(11), 600, np.empty(core.MAX_MOVES, np.int32))
    out[rules + " game"] = [int(x) for x in st]
print(json.dumps(out))
"""


def run(env_extra: dict[str, str]) -> dict:
    env = dict(os.environ, **env_extra)
    done = subprocess.run(
        [sys.executable, "-c", SNIPPET], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_jit_and_pure_python_agree() -> None:
    compiled = run({})
    pure = run({"NUMBA_DISABLE_JIT": "1"})
    assert compiled == pure
    assert compiled["standard perft3"] == 12240


def test_bench_reports_its_figures() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sim.cli",
            "bench",
            "--depth",
            "3",
            "--games",
            "30",
            "--no-warmup",
            "--workers",
            "1",  # no process pool: tests/sim/bench/test_figures.py measures 2 workers
            "--strong-games",
            "0",  # tests/sim/bench/test_figures.py plays them, small
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)  # stdout holds the JSON alone
    # What it measures is announced on stderr as each step starts.
    steps = done.stderr.splitlines()
    assert steps[0] == "dsq bench: loading the compiled kernels ..."
    assert "dsq bench: perft 3 from the initial position ..." in steps
    assert [p["nodes"] for p in report["perft"]] == [12240]
    assert [g["rules"] for g in report["random_games"]] == ["standard", "yeshou", "datou"]
    assert [(r["workers"], r["record"]) for r in report["simulate"]] == [
        (1, "outcomes"),
        (1, "moves"),
    ]
    for g in report["random_games"]:
        assert g["red_wins"] + g["blue_wins"] + g["draws"] == 30
        assert g["games_per_s"] > 0 and g["mean_plies"] > 0
