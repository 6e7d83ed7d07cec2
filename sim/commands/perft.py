"""``dsq perft``: count the leaf nodes of the legal-move tree (the rules' contract)."""

from __future__ import annotations

import argparse

from engine.errors import DsqError
from sim.commands._common import add_position_args, int_in, position_from_args, read_text
from sim.core.limits import MAX_PERFT_DEPTH as MAX_DEPTH


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``perft`` command."""
    p = sub.add_parser(
        "perft",
        help="count positions at a depth (move-generator check)",
        description="Perft: the number of leaf nodes of the legal-move tree D plies deep. "
        "The last line printed is the count. With --suite FILE, each non-empty line not "
        "starting with '#' is 'rules<TAB>fen<TAB>moves<TAB>depth' (fen may be 'start', "
        "moves may be empty) and one count is printed per line.",
    )
    add_position_args(p)
    p.add_argument(
        "--depth", type=int_in(0, MAX_DEPTH), default=None, help=f"depth in plies (0..{MAX_DEPTH})"
    )
    p.add_argument("--divide", action="store_true", help="print 'move nodes' per legal move")
    p.add_argument("--suite", default=None, help="a file of perft cases, one per line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq perft``."""
    if args.suite:
        return run_suite(args.suite)
    if args.depth is None:
        raise DsqError("--depth D is required (or --suite FILE)")
    pos = position_from_args(args.rules, args.fen, args.moves)
    if args.divide and args.depth >= 1:
        total = 0
        for move, nodes in pos.divide(args.depth).items():
            print(f"{move} {nodes}")
            total += nodes
        print(total)
    else:
        print(pos.perft(args.depth))
    return 0


def run_suite(path: str) -> int:
    """One count per case line of a suite file (``rules<TAB>fen<TAB>moves<TAB>depth``)."""
    cases = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 4:
            raise DsqError(
                f"{path}:{number}: expected 4 tab-separated fields"
                f" rules, fen, moves, depth; got {len(parts)}"
            )
        rules, fen, moves, depth_text = parts
        try:
            depth = int_in(0, MAX_DEPTH)(depth_text)
        except argparse.ArgumentTypeError as exc:
            raise DsqError(f"{path}:{number}: depth: {exc}") from None
        try:
            pos = position_from_args(rules or None, fen or "start", moves)
        except DsqError as exc:
            raise DsqError(f"{path}:{number}: {exc}") from None
        cases.append((pos, depth))
    for pos, depth in cases:
        print(pos.perft(depth), flush=True)
    return 0
