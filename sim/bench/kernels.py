"""The measurements behind ``dsq bench``: engine throughput on one core after the JIT
warm-up (perft, random games), alpha-beta nodes/s (:mod:`sim.bench.search`) and recorded
simulations on 1 and 2 workers (:mod:`sim.bench.simulate`)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import PRESETS, Position, parse_rules
from engine.fen import parse_fen
from engine.playout import random_games
from engine.rng import seed_state
from engine.warmup import warm_up
from sim.bench.search import sample_positions, search_rates
from sim.bench.simulate import recorded_rate, usable_cores
from sim.bench.strong import STRONG_SPEC, mcts_rate, strong_game_cost

_WARM_SNIPPET = (
    "import time; t = time.perf_counter(); "
    "from engine.warmup import warm_up; warm_up(); "
    "print(time.perf_counter() - t)"
)


SIM_PLY_CAP = 1000  # dsq simulate's default ply cap: the bare playouts the recorded games match


def warmup_seconds() -> dict[str, float]:
    """Seconds to import and compile every kernel from a cold numba cache, then from a warm one.

    Both run in fresh interpreters sharing a new, empty ``NUMBA_CACHE_DIR``.
    """
    with tempfile.TemporaryDirectory(prefix="dsq-numba-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times = {}
        for label in ("cold", "warm"):
            out = subprocess.run(
                [sys.executable, "-c", _WARM_SNIPPET],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            times[label] = float(out.stdout.strip().splitlines()[-1])
    return times


def perft_rate(depth: int, rules: str = "standard") -> dict[str, Any]:
    """Perft from the initial position: nodes, seconds and nodes per second."""
    pos = Position(rules)
    start = time.perf_counter()
    nodes = pos.perft(depth)
    seconds = time.perf_counter() - start
    return {
        "depth": depth,
        "rules": rules,
        "nodes": nodes,
        "seconds": seconds,
        "nodes_per_s": nodes / seconds,
    }


def random_games_rate(rules: str, games: int, seed: int = 1, ply_cap: int = 5000) -> dict[str, Any]:
    """Uniform-random games from the initial position: games/s, plies/s and the outcomes."""
    ra = parse_rules(rules).as_array()
    start_state = parse_fen("start", ra, ply_cap + 1)
    out = np.zeros(5, dtype=np.int64)
    t = time.perf_counter()
    random_games(start_state, ra, seed_state(seed), games, ply_cap, out)
    seconds = time.perf_counter() - t
    return {
        "rules": rules,
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "plies_per_s": int(out[4]) / seconds,
        "mean_plies": int(out[4]) / games,
        "red_wins": int(out[0]),
        "blue_wins": int(out[1]),
        "draws": int(out[2]),
    }


def run_bench(
    perft_depths: tuple[int, ...] = (6, 7),
    games: int = 20000,
    measure_warmup: bool = True,
    say: Callable[[str], None] | None = None,
    sim_games: int | None = None,
    sim_workers: int = 2,
    strong_games: int = 3,
    strong_spec: str = STRONG_SPEC,
) -> dict[str, Any]:
    """Every figure of ``dsq bench``; ``say`` (if given) is told what is measured next.

    The recorded simulations (outcomes only and every move on one worker, moves on two)
    are compared with bare random playouts (``simulate_bare``, the same games' ply cap)
    measured just before them. They play ``sim_games`` games (default ``5 * games``) on one
    worker, and twice as many on two workers where two cores are free to use (unless
    ``sim_workers`` is 1: one worker only, no process pool to start).

    The cost of a strong game: ``strong_games`` self-play games of ``strong_spec`` (the
    atlas's top level) under each preset, CPU seconds each (none when 0).
    """
    tell = say or (lambda text: None)
    report: dict[str, Any] = {}
    if measure_warmup:
        tell(
            "JIT warm-up: compiling every kernel from an empty numba cache, then loading "
            "them from the warm one, in fresh interpreters (about 10-20 s)"
        )
        report["warmup_seconds"] = warmup_seconds()

    tell("loading the compiled kernels")
    warm_up()
    report["perft"] = []
    for d in perft_depths:
        tell(f"perft {d} from the initial position")
        report["perft"].append(perft_rate(d))
    report["random_games"] = []
    for name in PRESETS:
        tell(f"{games:,} uniform-random games under {name}")
        report["random_games"].append(random_games_rate(name, games))
    tell("alpha-beta from the initial position (depth 9) and 12 middlegames (depth 7)")
    report["alphabeta"] = search_rates()
    tell("MCTS playouts/s on the same 12 middlegames (2,000 playouts a move)")
    report["mcts"] = mcts_rate(sample_positions(12))
    if strong_games > 0:
        tell(f"{strong_games} self-play games of {strong_spec} under each preset (CPU s a game)")
        report["strong_game"] = strong_game_cost(strong_games, strong_spec)
    sim = sim_games if sim_games is not None else 5 * games
    report["simulate"] = []
    tell(f"{sim:,} bare random playouts beside the recorded ones (one core)")
    bare = random_games_rate("standard", sim, ply_cap=SIM_PLY_CAP)["games_per_s"]
    report["simulate_bare"] = {"games": sim, "games_per_s": bare}
    for workers in (1, 2) if usable_cores() >= 2 and sim_workers >= 2 else (1,):
        n = sim * workers
        where = "1 worker" if workers == 1 else f"{workers} workers"
        for record in ("outcomes", "moves") if workers == 1 else ("moves",):
            tell(f"dsq simulate, {n:,} random-vs-random games recorded ({record}) on {where}")
            r = recorded_rate(n, workers, record=record)
            r["vs_bare"] = r["games_per_s"] / (bare * workers)  # per worker, against one core
            report["simulate"].append(r)
    return report
