"""Bot speed, single core, after JIT warm-up.

- alpha-beta nodes/s: iterative deepening from the initial position and from midgame
  positions (positions sampled from greedy-vs-greedy games);
- MCTS playouts/s from the initial position (default spec, and greedy rollouts);
- average time per move of each bot's default spec over the sampled positions;
- the referee: random-vs-random games/s through ``play_game`` (one call per game) against
  the raw ``engine.playout.random_games`` kernel, plies/s compared on the same machine,
  interleaved, best of several rounds.

Times are CPU seconds of this (single-threaded) process, so other work on a shared
machine does not inflate them.

Run: ``python benchmarks/bench_bots.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position  # noqa: E402
from engine.fen import parse_fen  # noqa: E402
from engine.playout import random_games  # noqa: E402
from engine.rng import seed_state  # noqa: E402
from sim.bench.search import alphabeta_rate, sample_positions  # noqa: E402
from sim.bots import make_bot  # noqa: E402
from sim.play.referee import play_game  # noqa: E402

DEFAULT_SPECS = ["random", "greedy", "alphabeta", "mcts"]
# CPU time of this process: the code is single-threaded, so on an idle core this equals
# wall time, and on a shared machine it is not inflated by other processes' work.
_clock = time.process_time


def bench_alphabeta(positions: list[Position], depth: int) -> dict[str, Any]:
    """Nodes/s of ``alphabeta:depth=depth`` summed over the positions (CPU time)."""
    return alphabeta_rate(positions, depth, _clock)


def bench_mcts(spec: str, repeats: int) -> dict[str, Any]:
    """Playouts/s of ``spec`` from the initial position."""
    pos = Position()
    done = 0
    seconds = 0.0
    for r in range(repeats):
        bot = make_bot(spec, pos.rules, seed_state(r))
        t = _clock()
        bot.choose(pos.st)
        seconds += _clock() - t
        done += bot.info["playouts"]
    return {"spec": spec, "playouts": done, "seconds": seconds, "playouts_per_s": done / seconds}


def bench_move_times(positions: list[Position]) -> list[dict[str, Any]]:
    """Mean and max time per move of each default spec over the positions."""
    out = []
    for spec in DEFAULT_SPECS:
        times = []
        for i, pos in enumerate(positions):
            bot = make_bot(spec, pos.rules, seed_state(i))
            t = _clock()
            bot.choose(pos.st)
            times.append((_clock() - t) * 1000.0)
        out.append(
            {
                "spec": make_bot(spec, "standard", seed_state(0)).spec.canonical,
                "mean_ms": statistics.mean(times),
                "max_ms": max(times),
            }
        )
    return out


def bench_referee(rounds: int, games: int) -> list[dict[str, Any]]:
    """Random-vs-random plies/s: ``play_game`` per game vs the raw kernel, per preset."""
    out = []
    for rules in ("standard", "yeshou", "datou"):
        pos = Position(rules)
        ra = pos.rules_array
        start = parse_fen("start", ra, 1100)
        counts = np.zeros(5, dtype=np.int64)
        random_games(start, ra, seed_state(0), 5, 1000, counts)
        play_game(rules, "random", "random", 0)
        raw_rates, ref_rates = [], []
        for r in range(rounds):
            counts[:] = 0
            t = _clock()
            random_games(start, ra, seed_state(r), games, 1000, counts)
            raw_rates.append(counts[4] / (_clock() - t))
            t = _clock()
            plies = sum(
                play_game(rules, "random", "random", r * games + i)["plies"] for i in range(games)
            )
            ref_rates.append(plies / (_clock() - t))
        ratios = [a / b for a, b in zip(ref_rates, raw_rates, strict=True)]
        out.append(
            {
                "rules": rules,
                "raw_plies_per_s": max(raw_rates),
                "referee_plies_per_s": max(ref_rates),
                "ratio_of_best": max(ref_rates) / max(raw_rates),
                "ratio_median": statistics.median(ratios),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--depth", type=int, default=7, help="alpha-beta depth for nodes/s")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    positions = sample_positions(args.positions)
    for spec in DEFAULT_SPECS:  # warm up (compile or load numba's cache)
        make_bot(spec, "standard", seed_state(0)).choose(Position().st)
    report = {
        "alphabeta_start": bench_alphabeta([Position()], args.depth + 2),
        "alphabeta_midgame": bench_alphabeta(positions, args.depth),
        "mcts": [
            bench_mcts("mcts", 5),
            bench_mcts("mcts:rollout=greedy", 2),
            bench_mcts("mcts:rollout_plies=0", 5),
        ],
        "move_times": bench_move_times(positions),
        "referee": bench_referee(7, 300),
        "machine_note": "single core; CPU time of this process (time.process_time)",
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for key in ("alphabeta_start", "alphabeta_midgame"):
        a = report[key]
        print(
            f"{key}: depth {a['depth']}, {a['positions']} positions, {a['nodes']:,} nodes in "
            f"{a['seconds']:.2f} s = {a['nodes_per_s'] / 1e6:.2f} M nodes/s"
        )
    for m in report["mcts"]:
        print(f"{m['spec']}: {m['playouts_per_s']:,.0f} playouts/s from the initial position")
    for t in report["move_times"]:
        print(f"{t['spec']}: {t['mean_ms']:.1f} ms/move (max {t['max_ms']:.1f})")
    for r in report["referee"]:
        print(
            f"referee {r['rules']}: play_game {r['referee_plies_per_s'] / 1e6:.2f} M plies/s "
            f"vs raw kernel {r['raw_plies_per_s'] / 1e6:.2f} M plies/s: "
            f"{100 * r['ratio_of_best']:.0f}% (median of paired rounds "
            f"{100 * r['ratio_median']:.0f}%)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
