"""Time budgets: requested ``time_ms`` against the wall time a move took.

For each bot spec and position, and each budget, a fresh bot (built after the kernels are
loaded, as a game's bots are) chooses one move ``--runs`` times; the wall time around
``choose`` (what the referee measures and charges) is summarised as median and max, with
the overrun (spent - requested). Wall time is what a budget bounds; the CPU time of the
same calls is shown beside it, since on a shared machine the gap between the two is time
the process waited for a core.

Run: ``python benchmarks/bench_time_budget.py [--runs 20] [--budgets 10,50,300,1000]
[--json]``. The tablebase rows need tables on disk (``dsq tablebase build``); without
them the advisor finds none and those rows measure the search alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position  # noqa: E402
from engine.rng import seed_state  # noqa: E402
from sim.bots import make_bot  # noqa: E402

START = "start"
DEEP = "l5t/7/7/7/7/7/7/7/T5L r 0 1"  # lion and tiger each: iterative deepening goes deep
ENDGAME = "7/7/7/7/7/7/2r4/2L4/5e1 b 0 1"  # LR v e: covered by a 3-animal table
CASES = [
    ("alphabeta:tablebase=off", START),
    ("alphabeta", START),
    ("alphabeta:tablebase=off", DEEP),
    ("alphabeta", ENDGAME),
    ("mcts", START),
]


def measure(spec: str, fen: str, budget: int, runs: int) -> dict[str, Any]:
    """Median and max wall ms of ``runs`` moves of ``spec:time_ms=budget`` at ``fen``."""
    pos = Position(fen=None if fen == START else fen)
    full = f"{spec}{',' if ':' in spec else ':'}time_ms={budget}"
    warm = make_bot(full, pos.rules, seed_state(0))
    warm.choose(pos.st)  # load the kernels (and tables) before any timing
    spent, cpu, depths = [], [], []
    for r in range(runs):
        bot = make_bot(full, pos.rules, seed_state(r + 1))
        t0, c0 = time.perf_counter(), time.thread_time()
        bot.choose(pos.st)
        spent.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.thread_time() - c0) * 1000.0)
        depths.append(bot.info.get("depth", bot.info.get("playouts")))
    return {
        "spec": full,
        "fen": fen,
        "requested_ms": budget,
        "median_ms": round(statistics.median(spent), 1),
        "max_ms": round(max(spent), 1),
        "median_over_ms": round(statistics.median(spent) - budget, 1),
        "max_over_ms": round(max(spent) - budget, 1),
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "cpu_max_ms": round(max(cpu), 1),
        "depth_or_playouts_median": statistics.median(depths),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--budgets", default="10,50,300,1000")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = [measure(s, f, b, args.runs) for s, f in CASES for b in budgets]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        head = f"{'spec':44} {'position':8} {'asked':>6} {'median':>8} {'max':>8}"
        print(f"{head} {'cpu med':>8} {'cpu max':>8} {'depth':>8}")
        for r in rows:
            where = "start" if r["fen"] == START else ("deep" if r["fen"] == DEEP else "LR v e")
            print(
                f"{r['spec']:44} {where:8} {r['requested_ms']:6} {r['median_ms']:8.1f} "
                f"{r['max_ms']:8.1f} {r['cpu_median_ms']:8.1f} {r['cpu_max_ms']:8.1f} "
                f"{r['depth_or_playouts_median']!s:>8}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
