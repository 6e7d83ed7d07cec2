"""The CPU cost of a strong game under two levels, side by side, interleaved.

For each round, each preset and each level in turn (the order alternating between
rounds), the self-play games of ``dsq bench``'s strong-game row (``sim.bench.strong``:
seeds 1..``--games``, 8 seeded random opening plies) are played in this process and timed
in CPU seconds. Printed per round and preset: each level's median CPU seconds per game
and plies, and the second level's over the first's: the medians, the means (the CPU of
all the games) and the CPU per ply (the games of two levels part ways after a few moves,
so their lengths differ).

Run: ``python benchmarks/bench_strong_levels.py [--first SPEC] [--second SPEC]
[--games 3] [--rounds 3] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from engine import PRESETS
from sim.bench.strong import STRONG_SPEC, strong_game_cost


def measure(first: str, second: str, games: int, rounds: int) -> list[dict[str, Any]]:
    """One row per round and preset: both levels' median CPU seconds per game and plies."""
    rows = []
    for r in range(rounds):
        for rules in PRESETS:
            specs = (first, second) if r % 2 == 0 else (second, first)
            got = {s: strong_game_cost(games, s, (rules,))[0] for s in specs}
            a, b = got[first], got[second]
            rows.append(
                {
                    "round": r + 1,
                    "rules": rules,
                    "first_s": a["median_s"],
                    "second_s": b["median_s"],
                    "ratio": b["median_s"] / a["median_s"],
                    "mean_ratio": sum(b["seconds"]) / sum(a["seconds"]),
                    "ply_ratio": (sum(b["seconds"]) / sum(b["plies"]))
                    / (sum(a["seconds"]) / sum(a["plies"])),
                    "first_plies": a["plies"],
                    "second_plies": b["plies"],
                }
            )
    return rows


def main() -> None:
    """Parse the arguments, measure, print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", default=STRONG_SPEC)
    ap.add_argument("--second", default=STRONG_SPEC + ",soft=25")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = measure(args.first, args.second, args.games, args.rounds)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"first: {args.first}   second: {args.second}   (median CPU s per game)")
    for row in rows:
        print(
            f"round {row['round']} {row['rules']:<8} {row['first_s']:6.2f} s "
            f"{row['first_plies']}  {row['second_s']:6.2f} s {row['second_plies']}  "
            f"ratio {row['ratio']:.2f}, mean {row['mean_ratio']:.2f}, "
            f"per ply {row['ply_ratio']:.2f}"
        )
    for rules in PRESETS:
        for key in ("ratio", "mean_ratio", "ply_ratio"):
            got = [row[key] for row in rows if row["rules"] == rules]
            print(
                f"{rules:<8} {key:<10} {min(got):.2f}-{max(got):.2f} "
                f"(median {statistics.median(got):.2f})"
            )


if __name__ == "__main__":
    main()
