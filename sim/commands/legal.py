"""``dsq legal`` (alias ``dsq moves``): the legal moves and result of a position, as JSON."""

from __future__ import annotations

import argparse

from sim.commands import ALIASES
from sim.commands._common import add_position_args, position_from_args, print_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``legal`` command (alias ``moves``)."""
    p = sub.add_parser(
        "legal",
        aliases=ALIASES["legal"],
        help="legal moves and result of a position (JSON)",
        description='Prints {"fen": FEN after the moves (null when the game was won in a '
        'den: no FEN describes that position), "board": the board in FEN notation, '
        '"legal": [sorted moves], "result": null or {"winner": ..., "reason": ...}}.',
    )
    add_position_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq legal``."""
    # lazy: start-up time (the engine's numba kernels: not for the other commands)
    from sim.records.replay import position_json, result_json

    pos = position_from_args(args.rules, args.fen, args.moves)
    print_json({**position_json(pos), "legal": pos.legal_moves(), "result": result_json(pos)})
    return 0
