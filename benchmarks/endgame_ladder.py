"""Endgame ladder: how often bots convert won endgames, with and without the tables.

    python benchmarks/endgame_ladder.py [--rules standard] [--pieces 3] [--positions 100]
                                        [--workers 2] [--data DIR] [--json F]

Draws ``--positions`` random positions of ``--pieces`` animals (materials with a table in
DIR/tablebases, built first for up to 3 animals when missing) that the side to move wins
in at least ``--min-plies`` plies, well inside the no-capture limit. From each, every bot
of :data:`BOTS` plays the winning side twice, with ``tablebase=on`` and ``off``, against
:data:`DEFENDER` (which keeps the longest loss from the tables). Reports, per bot and
setting: the share of positions converted (won), drawn (no-capture rule or ply cap) or
lost, and the mean length of the converted games against the table's distance.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.play.referee import play_game  # noqa: E402
from sim.tablebase import outcomes as V  # noqa: E402
from sim.tablebase.analysis import fen_of  # noqa: E402
from sim.tablebase.build import build_tables  # noqa: E402
from sim.tablebase.material import materials_up_to  # noqa: E402
from sim.tablebase.store import cache_for, rules_key, tables_root  # noqa: E402

BOTS = ["alphabeta:depth=4", "mcts:playouts=2000"]
DEFENDER = "alphabeta:depth=4"
PLY_CAP = 400


def sample(rules: str, root: Path, pieces: int, n: int, min_plies: int, seed: int) -> list:
    """``n`` positions ``(fen, winner side, plies)`` won for the side to move."""
    cache = cache_for(root)
    key = rules_key(rules)
    materials = [m for m in cache.materials(key) if m.pieces == pieces]
    if not materials:
        raise SystemExit(f"no {pieces}-animal tables for {key} in {root}")
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        m = rng.choice(materials)
        values = cache.get(key, m).values
        won = np.flatnonzero((values >= V.win_code(min_plies)) & (values < V.win_code(151)))
        if won.size == 0:
            continue
        idx = int(won[rng.randrange(won.size)])
        fen = fen_of(m, idx)
        out.append((fen, "red" if idx < m.half else "blue", 2 * int(values[idx]) - 1))
    return out


def _play(task: tuple) -> dict[str, Any]:
    rules, root, bot, setting, fen, side, plies, seed = task
    attacker = f"{bot},tablebase={setting}"
    red, blue = (attacker, DEFENDER) if side == "red" else (DEFENDER, attacker)
    g = play_game(rules, red, blue, seed, 0, PLY_CAP, fen=fen, tables=str(root))
    outcome = "won" if g["winner"] == side else "drawn" if g["winner"] == "draw" else "lost"
    return {
        "bot": bot,
        "setting": setting,
        "outcome": outcome,
        "plies": g["plies"],
        "table": plies,
        "reason": g["reason"],
        "ms": g["duration_ms"],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="standard")
    p.add_argument("--pieces", type=int, default=3)
    p.add_argument("--positions", type=int, default=100)
    p.add_argument("--min-plies", type=int, default=9)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=2014)
    p.add_argument("--data", default=None, help="data folder with the tables (default: a temp)")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    data = Path(args.data) if args.data else Path(tempfile.mkdtemp(prefix="dsq-ladder-"))
    root = tables_root(data)
    if args.pieces <= 3:
        build_tables(args.rules, materials_up_to(args.pieces), root)
    positions = sample(args.rules, root, args.pieces, args.positions, args.min_plies, args.seed)
    tasks = [
        (args.rules, str(root), bot, setting, fen, side, plies, args.seed + i)
        for bot in BOTS
        for setting in ("on", "off")
        for i, (fen, side, plies) in enumerate(positions)
    ]
    t0 = time.perf_counter()
    with mp.get_context("spawn").Pool(args.workers) as pool:
        rows = pool.map(_play, tasks, chunksize=4)
    seconds = time.perf_counter() - t0
    table: dict[tuple[str, str], dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    for r in rows:
        t = table[(r["bot"], r["setting"])]
        t[r["outcome"]] += 1
        t["n"] += 1
        t["ms"] += r["ms"]
        if r["outcome"] == "won":
            t["plies"] += r["plies"]
            t["table"] += r["table"]
    results = []
    print(
        f"{len(positions)} won {args.pieces}-animal positions ({args.rules}, table distance "
        f">= {args.min_plies} plies), defender {DEFENDER} with tables; {seconds:.0f} s"
    )
    print(f"{'bot':<22} tables  converted  drawn  lost  plies/table  ms/game")
    for (bot, setting), t in table.items():
        n = t["n"]
        ratio = t["plies"] / t["table"] if t["table"] else float("nan")
        row = {
            "bot": bot,
            "tables": setting,
            "positions": int(n),
            "won": int(t["won"]),
            "drawn": int(t["drawn"]),
            "lost": int(t["lost"]),
            "plies_over_table": round(ratio, 3),
            "ms_per_game": round(t["ms"] / n, 1),
        }
        results.append(row)
        print(
            f"{bot:<22} {setting:<6} {100 * t['won'] / n:8.1f}% {100 * t['drawn'] / n:5.1f}% "
            f"{100 * t['lost'] / n:5.1f}% {ratio:11.2f} {t['ms'] / n:8.0f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "seconds": seconds}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
