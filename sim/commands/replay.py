"""``dsq replay``: check a whole game move by move and report how it ended."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine import Position
from engine.errors import DsqError, MoveError
from sim.commands._common import add_position_args, print_json, result_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay",
        help="check a game and report its result (JSON)",
        description='Prints {"plies": N, "legal_counts": [legal moves before each move], '
        '"result": ..., "fen": ...}. With --jsonl, reads one game per line from standard '
        'input ({"rules": ..., "fen": optional, "moves": [...]}) and writes one object per line.',
    )
    add_position_args(p, moves_help='the game\'s moves, e.g. "a3a4 a7a6"')
    p.add_argument("--jsonl", action="store_true", help="games as JSON lines on standard input")
    p.set_defaults(func=run)


def replay(rules: str | None, fen: str | None, moves: str | list[str]) -> dict[str, Any]:
    """The replay report of one game; DsqError names the ply of an illegal move."""
    pos = Position(rules, fen)
    items = moves.split() if isinstance(moves, str) else [str(m) for m in moves]
    counts = []
    for ply, move in enumerate(items, start=1):
        counts.append(len(pos.legal_codes()))
        try:
            pos.play(move)
        except MoveError as exc:
            raise MoveError(f"ply {ply}: {exc}") from None
    return {
        "plies": len(items),
        "legal_counts": counts,
        "result": result_json(pos),
        "fen": pos.fen(),
    }


def run(args: argparse.Namespace) -> int:
    """Run ``dsq replay``."""
    if not args.jsonl:
        print_json(replay(args.rules, args.fen, args.moves))
        return 0
    failed = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            if not isinstance(game, dict) or not isinstance(game.get("moves", []), list | str):
                raise DsqError('expected {"rules": ..., "fen": ..., "moves": [...]}')
            print_json(replay(game.get("rules"), game.get("fen"), game.get("moves", [])))
        except (DsqError, json.JSONDecodeError) as exc:
            failed += 1
            print(f"dsq replay: error: line {number}: {exc}", file=sys.stderr)
            print_json({"error": f"line {number}: {exc}"})
    return 2 if failed else 0
