"""Strength ladder: colour-swapped matches from random openings, a cross table and Elo.

Each match plays ``--games`` games (pairs: the same random opening of ``--opening-plies``
plies, each bot once with each colour) through :func:`sim.play.referee.play_game` on a
process pool. Seeds come from :mod:`sim.core.seeds` (batch seed, game index), so a rerun with
the same arguments plays the same games.

Run: ``python benchmarks/ladder.py [--games 200] [--workers 2] [--rules standard]``.
Expected shape: greedy >= 90% vs random; alphabeta depth 2 >= 75% vs greedy;
depth 4 >= 65% vs depth 2; mcts 2000 playouts >= 90% vs random.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.core.seeds import plan_game  # noqa: E402
from sim.play.referee import play_game  # noqa: E402
from sim.report import fmt  # noqa: E402
from sim.stats.elo import match_score  # noqa: E402

MATCHES: list[tuple[str, str, float]] = [
    ("greedy", "random", 0.90),
    ("alphabeta:depth=2", "greedy", 0.75),
    ("alphabeta:depth=4", "alphabeta:depth=2", 0.65),
    ("mcts:playouts=2000", "random", 0.90),
]
# Informative matches (no target), played with --extra.
EXTRA: list[tuple[str, str, float]] = [
    ("mcts:playouts=2000", "alphabeta:depth=2", 0.0),
    ("mcts:playouts=2000", "greedy", 0.0),
]
ANCHOR = "random"


def _play(task: tuple[int, str, str, str, int, int, int]) -> tuple[int, str, str, str, float]:
    match, rules, bot_a, bot_b, batch_seed, index, opening = task
    plan = plan_game(batch_seed, index, bot_a, bot_b, swap=True)
    g = play_game(rules, plan.red, plan.blue, plan.seed, opening, 1000, plan.opening_seed)
    a_is_red = plan.red == bot_a
    if g["winner"] == "draw":
        outcome = "draw"
    else:
        outcome = "a" if (g["winner"] == "red") == a_is_red else "b"
    return match, outcome, g["reason"], g["winner"], g["duration_ms"]


def run_ladder(
    games: int,
    workers: int,
    rules: str,
    opening_plies: int,
    seed: int,
    matches: list[tuple[str, str, float]] | None = None,
) -> list[dict[str, Any]]:
    """Play every match (default :data:`MATCHES`); one result dict per match."""
    matches = MATCHES if matches is None else matches
    tasks = [
        (m, rules, a, b, seed + m, i, opening_plies)
        for m, (a, b, _) in enumerate(matches)
        for i in range(games)
    ]
    tally: dict[int, dict[str, Any]] = defaultdict(
        lambda: {
            "a": 0,
            "b": 0,
            "draw": 0,
            "reasons": defaultdict(int),
            "red": 0,
            "blue": 0,
            "ms": 0.0,
        }
    )
    started = {m: time.perf_counter() for m in range(len(matches))}
    with mp.get_context("spawn").Pool(workers) as pool:
        for m, outcome, reason, winner, ms in pool.imap_unordered(_play, tasks, chunksize=2):
            t = tally[m]
            t[outcome] += 1
            t["reasons"][reason] += 1
            if winner in ("red", "blue"):
                t[winner] += 1
            t["ms"] += ms
    results = []
    for m, (a, b, target) in enumerate(matches):
        t = tally[m]
        ms = match_score(t["a"], t["draw"], t["b"])
        results.append(
            {
                "a": a,
                "b": b,
                "target": target,
                "games": games,
                "wins": t["a"],
                "draws": t["draw"],
                "losses": t["b"],
                "score": ms.score,
                "elo": ms.elo,
                "elo_error": ms.elo_error,
                "elo_low": ms.elo_low,
                "elo_high": ms.elo_high,
                "red_wins": t["red"],
                "blue_wins": t["blue"],
                "reasons": dict(t["reasons"]),
                "mean_game_s": t["ms"] / games / 1000.0,
                "wall_s": time.perf_counter() - started[m],
            }
        )
    return results


def _finite_elo(r: dict[str, Any]) -> float:
    """The match's Elo; for a shutout, the Elo of the score with half a game moved over."""
    n = r["games"]
    s = r["score"]
    if s <= 0.0 or s >= 1.0:
        s = (s * n + (0.5 if s <= 0.0 else -0.5)) / n
    return -400.0 * math.log10(1.0 / s - 1.0)


def elo_fit(results: list[dict[str, Any]]) -> dict[str, float]:
    """Elo of each bot, ``random`` = 0: the least-squares fit of ``elo(a) - elo(b)`` to
    every match's Elo (a shutout counts as if half a game had gone the other way, so its
    Elo stays finite: a lower bound). With a chain of matches this is the chain's sum."""
    bots: list[str] = [ANCHOR]
    for r in results:
        for b in (r["a"], r["b"]):
            if b not in bots:
                bots.append(b)
    rows = []
    rhs = []
    for r in results:
        row = [0.0] * len(bots)
        row[bots.index(r["a"])] += 1.0
        row[bots.index(r["b"])] -= 1.0
        rows.append(row[1:])  # the anchor is fixed at 0
        rhs.append(_finite_elo(r))
    solution = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
    return {ANCHOR: 0.0, **{b: float(x) for b, x in zip(bots[1:], solution, strict=True)}}


def _fmt_elo(x: float) -> str:
    return "inf" if math.isinf(x) and x > 0 else "-inf" if math.isinf(x) else f"{x:+.0f}"


def report(results: list[dict[str, Any]]) -> str:
    """The cross table, match lines and Elo estimates as text."""
    bots = []
    for r in results:
        for b in (r["a"], r["b"]):
            if b not in bots:
                bots.append(b)
    cell: dict[tuple[str, str], str] = {}
    for r in results:
        cell[(r["a"], r["b"])] = f"{100 * r['score']:.1f}%"
        cell[(r["b"], r["a"])] = f"{100 * (1 - r['score']):.1f}%"
    width = max(len(b) for b in bots) + 2
    lines = ["cross table (score of the row bot against the column bot):"]
    lines.append(" " * width + "".join(f"{b[:18]:>20}" for b in bots))
    for row in bots:
        lines.append(f"{row:<{width}}" + "".join(f"{cell.get((row, c), '-'):>20}" for c in bots))
    lines.append("")
    for r in results:
        ok = "PASS" if r["score"] >= r["target"] else "FAIL"
        goal = f"target {100 * r['target']:.0f}%: {ok}" if r["target"] else "no target"
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(r["reasons"].items()))
        lines.append(
            f"{r['a']} vs {r['b']}: +{r['wins']} ={r['draws']} -{r['losses']} of {r['games']}"
            f" -> {100 * r['score']:.1f}% ({goal}), logistic Elo "
            f"{fmt.elo(r['elo'], r['elo_error'], r['elo_low'], r['elo_high'], 0)}; "
            f"red {r['red_wins']} blue "
            f"{r['blue_wins']}; {reasons}; {r['mean_game_s']:.2f} s/game"
        )
    lines.append("")
    lines.append("Elo estimates (random = 0, least-squares fit over the matches):")
    for bot, elo in sorted(elo_fit(results).items(), key=lambda kv: kv[1]):
        lines.append(f"  {bot:<24} {_fmt_elo(elo)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="games per match (even)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--rules", default="standard")
    p.add_argument("--opening-plies", type=int, default=6)
    p.add_argument("--seed", type=int, default=20240)
    p.add_argument("--json", default=None, help="also write the results to this file")
    p.add_argument("--extra", action="store_true", help="play the informative EXTRA matches")
    p.add_argument(
        "--merge", default=None, help="a --json file of earlier results to report together"
    )
    p.add_argument("--report", default=None, help="only print the report of a --json file")
    args = p.parse_args(argv)
    if args.report:
        print(report(json.loads(Path(args.report).read_text())))
        return 0
    t0 = time.perf_counter()
    results = run_ladder(
        args.games,
        args.workers,
        args.rules,
        args.opening_plies,
        args.seed,
        EXTRA if args.extra else None,
    )
    print(
        f"rules {args.rules}, {args.games} games per match, opening {args.opening_plies} "
        f"random plies, {args.workers} workers, {time.perf_counter() - t0:.0f} s"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    if args.merge:
        results = json.loads(Path(args.merge).read_text()) + results
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
