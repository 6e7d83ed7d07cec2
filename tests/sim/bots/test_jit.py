"""The bot kernels give the same games compiled and as plain Python (NUMBA_DISABLE_JIT=1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

SNIPPET = r"""
import json
from sim.play.referee import play_game
out = []
for rules, red, blue in [
    ("standard", "greedy", "random"),
    ("yeshou", "alphabeta:depth=2,noise=20", "mcts:playouts=15,rollout=greedy,rollout_plies=4"),
    ("datou", "mcts:playouts=12,rollout_plies=3", "alphabeta:depth=1,nodes=50"),
]:
    g = play_game(rules, red, blue, seed=7, opening_plies=2, ply_cap=12)
    g.pop("duration_ms")
    out.append(g)
print(json.dumps(out))
"""


def _run(env_extra: dict[str, str]) -> list:
    env = dict(os.environ, **env_extra)
    done = subprocess.run(
        [sys.executable, "-c", SNIPPET], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_bots_agree_compiled_and_pure_python() -> None:
    compiled = _run({})
    pure = _run({"NUMBA_DISABLE_JIT": "1"})
    assert compiled == pure
    assert all(g["plies"] > 0 for g in compiled)
