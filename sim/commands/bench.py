"""``dsq bench``: single-core engine throughput after JIT warm-up."""

from __future__ import annotations

import argparse
import json
import sys

from sim.commands._common import int_in


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``bench`` command."""
    p = sub.add_parser(
        "bench",
        help="measure engine speed (perft, random games, alpha-beta, recorded simulations)",
        description="Throughput after JIT warm-up: perft nodes/s from the initial position, "
        "uniform-random games/s and plies/s under each preset, alpha-beta nodes/s with the "
        "classic and the tuned evaluation, MCTS playouts/s and the CPU seconds of a game of the "
        "atlas's top level under each preset (single core), recorded games/s of `dsq simulate` "
        "random vs random on 1 worker (outcomes only, and every move) and on 2 (where 2 cores "
        "are free), each beside bare random playouts measured just before, and the JIT warm-up "
        "time from a cold and from a warm numba cache (measured first: about 10-20 s). Each "
        "step is announced on stderr as it starts; the default run takes a few minutes "
        "(--strong-games 0: about a minute).",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--depth",
        type=int_in(1, 9),
        action="append",
        default=None,
        help="perft depth (repeatable; default 6 and 7)",
    )
    p.add_argument(
        "--games",
        type=int_in(1, 10_000_000),
        default=20000,
        help="random games per preset (default 20000)",
    )
    p.add_argument(
        "--sim-games",
        type=int_in(1, 100_000_000),
        default=None,
        help="games of the recorded simulation on 1 worker, twice as many on 2 (default: "
        "5 x --games)",
    )
    p.add_argument(
        "--workers",
        type=int_in(1, 2),
        default=2,
        help="most workers of the recorded simulation: 1 measures one worker only, without "
        "starting a process pool (default 2: 1 and 2 workers where 2 cores are free)",
    )
    p.add_argument(
        "--strong-games",
        type=int_in(0, 1000),
        default=3,
        help="self-play games of the atlas's top level (alphabeta:nodes=200000) per preset, "
        "timed in CPU seconds (default 3; 0 skips them)",
    )
    p.add_argument(
        "--strong-bot",
        default=None,
        metavar="SPEC",
        help="the bot of those self-play games (default alphabeta:nodes=200000), e.g. "
        "alphabeta:nodes=100000,lmr=1,aspiration=1 to price another level",
    )
    p.add_argument(
        "--no-warmup", action="store_true", help="skip the cold/warm cache warm-up measurement"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq bench``."""
    # lazy: start-up time (numba kernels, the batch runner: not for the other commands)
    from engine.errors import DsqError
    from sim.bench.kernels import run_bench
    from sim.bench.strong import STRONG_SPEC
    from sim.bots import parse_bot

    strong = STRONG_SPEC if args.strong_bot is None else args.strong_bot.strip()
    if parse_bot(strong).name == "engine":  # a bad spec: its error, before anything runs
        raise DsqError("--strong-bot prices dsq's own bots, not engines")
    report = run_bench(
        tuple(args.depth or (6, 7)),
        args.games,
        not args.no_warmup,
        say=_say,
        sim_games=args.sim_games,
        sim_workers=args.workers,
        strong_games=args.strong_games,
        strong_spec=strong,
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if "warmup_seconds" in report:
        w = report["warmup_seconds"]
        print(
            f"JIT warm-up: {w['cold']:.1f} s from a cold cache, {w['warm']:.2f} s from a warm one"
        )
    for p in report["perft"]:
        print(
            f"perft {p['depth']}: {p['nodes']:,} nodes in {p['seconds']:.2f} s = "
            f"{p['nodes_per_s'] / 1e6:,.1f} M nodes/s"
        )
    for g in report["random_games"]:
        print(
            f"random games, {g['rules']:<8}: {g['games_per_s']:,.0f} games/s, "
            f"{g['plies_per_s'] / 1e6:.2f} M plies/s, {g['mean_plies']:.0f} plies/game "
            f"(red {g['red_wins']}, blue {g['blue_wins']}, draws {g['draws']})"
        )
    for key, where in (("start", "initial position"), ("midgame", "12 middlegames")):
        a = report["alphabeta"][key]
        print(
            f"alpha-beta, {where}, depth {a['depth']}: {a['nodes']:,} nodes = "
            f"{a['nodes_per_s'] / 1e6:.2f} M nodes/s"
        )
    t = report["alphabeta"]["tuned"]
    print(
        f"alpha-beta, 12 middlegames, depth {t['depth']}, tuned evaluation: "
        f"{t['nodes_per_s'] / 1e6:.2f} M nodes/s = {report['alphabeta']['tuned_share']:.2f}x "
        "the classic one's"
    )
    ttd = report["alphabeta"]["to_depth"]
    print(
        f"alpha-beta, 12 middlegames, to depth {ttd['plain']['depth']}: "
        f"{ttd['plain']['seconds']:.2f} s ({ttd['plain']['nodes']:,} nodes); with lmr=1 "
        f"{ttd['lmr']['seconds']:.2f} s ({ttd['lmr']['nodes']:,} nodes) = {ttd['share']:.2f}x"
    )
    m = report["mcts"]
    print(f"MCTS, 12 middlegames: {m['playouts_per_s']:,.0f} playouts/s")
    for g in report.get("strong_game", []):
        print(
            f"strong game, {g['rules']:<8} ({g['bot']} self-play, {g['games']} openings): "
            f"{g['median_s']:.1f} CPU s median, {g['min_s']:.1f}-{g['max_s']:.1f}"
        )
    bare = report["simulate_bare"]
    print(f"bare random playouts beside them: {bare['games_per_s']:,.0f} games/s")
    for r in report["simulate"]:
        print(
            f"dsq simulate, {r['workers']} worker{'s' if r['workers'] > 1 else ''}, recorded "
            f"({r['record']}): {r['games_per_s']:,.0f} games/s = {r['vs_bare']:.2f}x the bare "
            f"rate{' per worker' if r['workers'] > 1 else ''} ({r['games']:,} games in "
            f"{r['seconds']:.1f} s, after {r['start_seconds']:.1f} s starting the workers)"
        )
    return 0


def _say(text: str) -> None:
    """What ``dsq bench`` measures next, on stderr (``--json`` keeps stdout clean)."""
    print(f"dsq bench: {text} ...", file=sys.stderr, flush=True)
