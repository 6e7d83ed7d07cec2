"""Loading is never thinking time: bots' kernels are loaded before any clock starts.

One game runs in a fresh interpreter with an empty numba cache, so the search's kernels are
compiled from scratch there (tens of seconds): were that charged to the first move, the
referee's own limit check (time per move plus margin) would lose the game on ``time``.
For every kind of bot, a fresh interpreter (the kernels in this machine's cache) checks that
after ``warm_up`` the bot's first moves load no compiled kernel that was not already there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

SNIPPET = r"""
import json, sys
from sim.play.referee import play_game
g = play_game("standard", sys.argv[1], sys.argv[2], seed=3, ply_cap=4)
print(json.dumps({k: g[k] for k in ("reason", "plies", "move_ms", "forfeit_note")}))
"""


def _cold_game(tmp_path: Path, red: str, blue: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", SNIPPET, red, blue],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_cold_kernels_are_not_charged_to_the_first_move(tmp_path: Path) -> None:
    game = _cold_game(tmp_path, "alphabeta:time_ms=50", "random")
    assert game["forfeit_note"] is None and game["reason"] != "time"
    assert game["plies"] == 4 and len(game["move_ms"]) == 4  # every move within its limit
    assert list((tmp_path / "numba").iterdir())  # the kernels were compiled there


# The numba kernels this interpreter has compiled or loaded, each with its signatures; then
# the ones a bot's first four answers add after its kind's warm-up.
LOADED = r"""
import gc, json, sys
from numba.core.dispatcher import Dispatcher
from engine.position import decode_move, Position
from engine.rng import seed_state
from sim.bots.protocol import make_bot, warm_up

def loaded():
    return {f"{d.py_func.__module__}.{d.py_func.__qualname__}{sig}"
            for d in gc.get_objects() if isinstance(d, Dispatcher) for sig in d.overloads}

spec = sys.argv[1]
warm_up(spec, "standard")
bot, pos, new = make_bot(spec, "standard", seed_state(3)), Position("standard"), set()
for _ in range(4):
    before = loaded()
    move = bot.choose(pos.st)
    new |= loaded() - before
    pos.play(decode_move(move))
print(json.dumps({"before": len(before), "new": sorted(new)}))
"""


@pytest.mark.parametrize("spec", ["alphabeta:time_ms=20", "mcts:time_ms=20", "greedy"])
def test_warm_up_loads_every_kernel_the_first_moves_use(spec: str) -> None:
    """After ``warm_up`` of a kind, the bot's first four answers load no new kernel."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", LOADED, spec],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["before"] >= 2 and found["new"] == []


def test_warm_up_loads_once_per_kind() -> None:
    from sim.bots.protocol import warm_up

    warm_up("alphabeta:depth=1,tablebase=off", "standard")
    assert warm_up("alphabeta:depth=9,time_ms=5,tablebase=off", "yeshou") == 0.0
    assert warm_up("engine:nobody,movetime=10") == 0.0  # an engine loads in its process


def test_dsq_engine_loads_its_bot_before_readyok() -> None:
    import io

    from sim.bots.protocol import warm_up
    from sim.serve.server import EngineServer

    out = io.StringIO()
    server = EngineServer("mcts:playouts=10,tablebase=off", out=out)
    server.handle("isready")
    assert out.getvalue().splitlines() == ["readyok"]
    assert warm_up("mcts:tablebase=off") == 0.0  # nothing left to load
