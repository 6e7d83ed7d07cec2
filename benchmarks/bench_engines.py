"""The protocol's cost: ``dsq serve`` as an external engine, seen from dsq's client.

- round trip: ``position startpos moves ...`` + ``go depth 1`` answered by ``bestmove``,
  over the positions of a 60-ply game (the move list grows as in a real game); median and
  mean wall time per round trip (target: at most 1 ms);
- an engine-vs-engine match at depth 1 (``engine:NAME,depth=1`` on both sides, through
  the referee), moves per second, beside the same match in-process
  (``alphabeta:depth=1``), which plays the same moves;
- optionally (``--engines FILE --engine NAME``) the round trip of another registered engine.

Wall times: the client and the engine are two processes talking through pipes.

Run: ``python benchmarks/bench_engines.py [--games 20] [--json]``.
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
from engine.rng import rng_below, seed_state  # noqa: E402
from sim.external import pool  # noqa: E402
from sim.external.client import EngineClient  # noqa: E402
from sim.external.positions import PositionText  # noqa: E402
from sim.external.registry import EngineEntry, EngineRegistry, load_registry  # noqa: E402
from sim.play.referee import play_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DSQ = EngineEntry(
    "dsq-ab1",
    ("{python}", "-m", "sim.cli", "serve", "--bot", "alphabeta:depth=1"),
    cwd=str(ROOT),
    rules="standard",
    start_timeout=60.0,
)


def positions(plies: int = 60, seed: int = 1) -> list[Position]:
    """The positions of one uniformly random game, ``plies`` long at most."""
    rng, pos, out = seed_state(seed), Position("standard"), []
    while pos.ply < plies and pos.result is None:
        out.append(pos.copy())
        legal = pos.legal_moves()
        pos.play(legal[rng_below(rng, len(legal))])
    return out


def round_trips(entry: EngineEntry, rounds: int = 10) -> dict[str, Any]:
    """Wall time of ``position`` + ``go depth 1`` over a game's positions, ``rounds`` times."""
    client = EngineClient(entry).start()
    try:
        texts = [PositionText(entry).command(p.st) for p in positions()]
        client.new_game()
        for text in texts[:10]:  # warm-up
            client.go(text, "depth 1", 10_000, 1000)
        times = []
        for _ in range(rounds):
            for text in texts:
                t0 = time.perf_counter()
                client.go(text, "depth 1", 10_000, 1000)
                times.append((time.perf_counter() - t0) * 1000.0)
    finally:
        client.close()
    return {
        "engine": entry.name,
        "round_trips": len(times),
        "median_ms": statistics.median(times),
        "mean_ms": statistics.fmean(times),
        "p90_ms": statistics.quantiles(times, n=10)[-1],
    }


def match(games: int) -> dict[str, Any]:
    """Moves/s of ``engine:dsq-ab1,depth=1`` against itself, and in-process for comparison."""
    engines = EngineRegistry({DSQ.name: DSQ})
    engine = "engine:dsq-ab1,depth=1"
    play_game("standard", engine, engine, 0, opening_plies=4, engines=engines)  # starts them
    out: dict[str, Any] = {"games": games}
    for label, spec in (("engine", engine), ("in_process", "alphabeta:depth=1")):
        plies, t0 = 0, time.perf_counter()
        for seed in range(1, games + 1):
            game = play_game("standard", spec, spec, seed, opening_plies=4, engines=engines)
            plies += game["plies"]
        seconds = time.perf_counter() - t0
        out[label] = {"plies": plies, "seconds": seconds, "moves_per_s": plies / seconds}
    pool.close_all()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games of the depth-1 match (20)")
    ap.add_argument("--engines", help="a registry with another engine to time")
    ap.add_argument("--engine", help="the name of that engine")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result: dict[str, Any] = {"round_trip": [round_trips(DSQ)], "match": match(args.games)}
    if args.engines and args.engine:
        result["round_trip"].append(round_trips(load_registry(args.engines)[args.engine]))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for r in result["round_trip"]:
        print(
            f"{r['engine']}: position + go depth 1 round trip median {r['median_ms']:.3f} ms, "
            f"mean {r['mean_ms']:.3f} ms, p90 {r['p90_ms']:.3f} ms ({r['round_trips']} trips)"
        )
    m = result["match"]
    for label in ("engine", "in_process"):
        x = m[label]
        print(
            f"depth-1 match {label}: {x['plies']} plies in {x['seconds']:.2f} s = "
            f"{x['moves_per_s']:,.0f} moves/s ({m['games']} games)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
