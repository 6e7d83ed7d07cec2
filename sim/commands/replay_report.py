"""The replay report of one game (what ``dsq replay`` prints): the legal-move count before
each move, the result and the final position."""

from __future__ import annotations

from typing import Any

from engine import Position
from engine.errors import MoveError
from sim.commands._common import position_json, result_json


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
        **position_json(pos),
    }
