"""``dsq moves``: the legal moves and result of a position, as JSON."""

from __future__ import annotations

import argparse

from sim.commands._common import add_position_args, position_from_args, print_json, result_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``moves`` command."""
    p = sub.add_parser(
        "moves",
        help="legal moves and result of a position (JSON)",
        description='Prints {"fen": FEN after the moves, "legal": [sorted moves], '
        '"result": null or {"winner": ..., "reason": ...}}.',
    )
    add_position_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq moves``."""
    pos = position_from_args(args.rules, args.fen, args.moves)
    print_json({"fen": pos.fen(), "legal": pos.legal_moves(), "result": result_json(pos)})
    return 0
