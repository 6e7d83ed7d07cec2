"""Alpha-beta nodes/s with the classic and with a tuned evaluation, side by side.

The same 12 middlegame positions (from greedy-vs-greedy games) and the initial position
are searched to a fixed depth by ``alphabeta:eval=classic`` and by ``alphabeta:eval=NAME``
in turn, several interleaved rounds; the rate of each is its nodes over the CPU seconds
of this (single-threaded) process, so other work on a shared machine does not inflate
them. The best and the median round are reported, and the tuned rate as a share of the
classic one.

Run: ``python benchmarks/bench_eval.py [--eval NAME] [--rules R] [--data DIR] [--depth 7]
[--rounds 5] [--json]`` (default: the shipped evaluation of ``--rules``, ``eval=auto``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rules import parse_rules  # noqa: E402
from sim.bench.search import alphabeta_rate, sample_positions  # noqa: E402
from sim.bots.context import BotContext  # noqa: E402
from sim.tablebase.store import tables_root  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Measure and print the two rates."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--eval", default="auto", help="the tuned evaluation (auto: the shipped)")
    p.add_argument("--rules", default="standard")
    p.add_argument("--data", default=None, help="the data folder holding evals/ (default)")
    p.add_argument("--depth", type=int, default=7)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rules = parse_rules(args.rules)
    context = BotContext(tables_root(args.data))
    positions = sample_positions(12, rules=rules.spec)
    names = {"classic": ",eval=classic", args.eval: f",eval={args.eval}"}
    for extra in names.values():  # compile and load everything first
        alphabeta_rate(positions[:1], 2, time.process_time, extra, context)
    rates: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(args.rounds):
        for name, extra in names.items():
            r = alphabeta_rate(positions, args.depth, time.process_time, extra, context)
            rates[name].append(r["nodes_per_s"])
    out = {
        name: {"best": max(v), "median": statistics.median(v), "rounds": v}
        for name, v in rates.items()
    }
    share = out[args.eval]["median"] / out["classic"]["median"]
    if args.json:
        print(json.dumps({"rules": rules.spec, "depth": args.depth, **out, "share": share}))
    else:
        for name, r in out.items():
            print(f"{name:>12}: {r['median'] / 1e6:.2f} M nodes/s median, "
                  f"{r['best'] / 1e6:.2f} M best of {args.rounds}")  # fmt: skip
        print(f"tuned / classic (medians): {share:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
