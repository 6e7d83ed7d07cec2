"""Two checkouts of dsq measured side by side, interleaved: perft and alpha-beta nodes/s.

For a before/after of a kernel change on a shared machine: ``--baseline DIR`` names
another checkout of the project (e.g. ``git worktree add /tmp/base main``); each round
runs one measurement in a fresh interpreter of each checkout in turn (the order
alternating), and the ratio of each round is this checkout's rate over the baseline's.
Rates are nodes per CPU second of the measuring process, so other work on the machine
counts for neither (it still slows both through shared caches: hence the interleaving
and the range of at least three rounds). Measured in each interpreter after loading the
kernels:

- ``perft``: perft ``--perft-depth`` from the initial position (``standard``);
- ``alphabeta``: ``alphabeta:depth=9`` from the initial position and
  ``alphabeta:depth=7`` on the 12 middlegames of ``dsq bench`` (classic evaluation;
  ``--positions`` and ``--mid-depth`` for fewer, shallower, the start 2 plies deeper),
  summed, and the same with ``eval=auto`` (the shipped tuned evaluation) when
  ``--tuned``. The node counts of both checkouts are printed: an unchanged tree gives
  the same ones;
- ``strong``: ``dsq bench``'s strong-game row, the CPU seconds of self-play games of the
  atlas's top level (``alphabeta:nodes=200000``, each preset's shipped evaluation) from
  the openings of seeds 1..``--strong-games`` (8 seeded random plies) under each preset.
  Its rate is plies per CPU second, and its count the plies: the same games give the
  same count, and the ratio is then the inverse of the ratio of their CPU times. Its
  loop is ``sim.bench.strong.strong_game_cost``'s, written out with ``play_game`` alone
  because the baseline may predate that module.

Run: ``python benchmarks/bench_side_by_side.py --baseline DIR [--rounds 3] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import json, sys, time
from engine import Position
from sim.bench.search import alphabeta_rate, sample_positions
what, depth, count, mid_depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if what == "perft":
    Position().perft(3)
    t = time.process_time(); n = Position().perft(depth); s = time.process_time() - t
    print(json.dumps({"nodes": n, "seconds": s}))
elif what == "strong":
    from engine import PRESETS
    from sim.play.referee import play_game
    per = {}
    for rules in PRESETS:
        play_game(rules, "alphabeta:depth=2", "alphabeta:depth=2", 0, 8, ply_cap=10)
        per[rules] = []
        for seed in range(1, count + 1):
            t = time.process_time()
            game = play_game(rules, "alphabeta:nodes=200000", "alphabeta:nodes=200000", seed, 8)
            per[rules].append([time.process_time() - t, int(game["plies"])])
    plies = sum(p for v in per.values() for _, p in v)
    seconds = sum(s for v in per.values() for s, _ in v)
    print(json.dumps({"nodes": plies, "seconds": seconds, "games": per}))
else:
    extra = ",eval=classic" if what == "alphabeta" else ",eval=auto"
    alphabeta_rate([Position()], 3, time.process_time, extra)
    mid = sample_positions(count)
    a = alphabeta_rate([Position()], mid_depth + 2, time.process_time, extra)
    b = alphabeta_rate(mid, mid_depth, time.process_time, extra)
    print(json.dumps({"nodes": a["nodes"] + b["nodes"], "seconds": a["seconds"] + b["seconds"]}))
"""


def run(
    checkout: Path, what: str, depth: int, count: int = 12, mid_depth: int = 7
) -> dict[str, Any]:
    """One measurement in a fresh interpreter of ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, what, str(depth), str(count), str(mid_depth)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    r["nodes_per_s"] = r["nodes"] / r["seconds"]
    return r


def measure(
    baseline: Path,
    kinds: list[str],
    rounds: int,
    perft_depth: int,
    count: int,
    mid_depth: int,
    strong_games: int = 3,
) -> dict[str, Any]:
    """Interleaved rounds of each kind of measurement in both checkouts."""
    result: dict[str, Any] = {"load_before": os.getloadavg()}
    for what in kinds:
        depth = perft_depth if what == "perft" else 0
        n = strong_games if what == "strong" else count
        rows = []
        for r in range(rounds):
            order = (("this", ROOT), ("base", baseline))
            if r % 2:
                order = order[::-1]
            got = {name: run(path, what, depth, n, mid_depth) for name, path in order}
            got["ratio"] = got["this"]["nodes_per_s"] / got["base"]["nodes_per_s"]
            rows.append(got)
        ratios = [g["ratio"] for g in rows]
        result[what] = {"rounds": rows, "ratio_min": min(ratios), "ratio_max": max(ratios)}
    result["load_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    """Measure and print."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True, help="another checkout of the project")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--perft-depth", type=int, default=6)
    p.add_argument("--positions", type=int, default=12, help="middlegames (12)")
    p.add_argument("--mid-depth", type=int, default=7, help="their depth; the start's is 2 more")
    p.add_argument("--strong-games", type=int, default=3, help="openings per preset (3)")
    p.add_argument("--only", default="perft,alphabeta", help="perft,alphabeta,tuned,strong")
    p.add_argument("--tuned", action="store_true", help="also alpha-beta with eval=auto")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    kinds = args.only.split(",") + (["tuned"] if args.tuned else [])
    result = measure(
        Path(args.baseline).resolve(),
        kinds,
        args.rounds,
        args.perft_depth,
        args.positions,
        args.mid_depth,
        args.strong_games,
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for what in kinds:
        for i, g in enumerate(result[what]["rounds"], 1):
            scale, unit, count = (
                (1, "plies/s", "plies") if what == "strong" else (1e6, "M/s", "nodes")
            )
            print(
                f"{what} round {i}: this {g['this']['nodes_per_s'] / scale:.2f} {unit} "
                f"({g['this']['nodes']:,} {count}), base {g['base']['nodes_per_s'] / scale:.2f} "
                f"{unit} ({g['base']['nodes']:,} {count}), ratio {g['ratio']:.2f}"
            )
            for rules, games in g["this"].get("games", {}).items():
                base = [round(x[0], 2) for x in g["base"]["games"][rules]]
                this = [round(x[0], 2) for x in games]
                print(f"  {rules}: CPU s a game this {this}, base {base}")
        r = result[what]
        if what == "strong":
            print(
                f"strong: CPU s a game, this/base {1 / r['ratio_max']:.2f}-{1 / r['ratio_min']:.2f}"
            )
        print(f"{what}: this/base {r['ratio_min']:.2f}-{r['ratio_max']:.2f}")
    load = result["load_before"] + result["load_after"]
    print("load average before {:.1f} {:.1f} {:.1f}, after {:.1f} {:.1f} {:.1f}".format(*load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
