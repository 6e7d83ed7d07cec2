"""The columns of a game record that its moves determine, found by replaying them.

A recorded game's captures, capture counts, pieces left and den animal follow from its
rules, start and moves; :func:`replay_columns` plays the moves with :class:`engine.Position`
and derives them, as the referee records them. People's games (:mod:`sim.play.human`) and
imported game records (:mod:`sim.play.gameimport`) are recorded through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import Position, Ruleset, encode_move
from engine.errors import MoveError
from sim.storage.schema import ANIMALS

_LETTERS = "RCDWPTLE"


class PlyError(MoveError):
    """A move the rules refuse; ``ply`` is its index in the game (0-based)."""

    def __init__(self, ply: int, message: str) -> None:
        super().__init__(message)
        self.ply = ply


def piece_code(letter: str) -> int:
    """The piece code of a FEN letter: 1..8 Red rat..elephant, 9..16 Blue."""
    return _LETTERS.index(letter.upper()) + 1 + (8 if letter.islower() else 0)


@dataclass(frozen=True)
class Replayed:
    """A replayed game: the final position, the FEN it began from (None: the initial
    position) and the derived columns of its record."""

    position: Position
    start_fen: str | None
    columns: dict[str, Any]


def replay_columns(
    ruleset: Ruleset, moves: Sequence[str], start_fen: str | None, branching: bool = True
) -> Replayed:
    """Play ``moves`` (``a3a4``) from ``start_fen`` under ``ruleset``; the derived columns
    ``plies``, ``moves`` (codes), ``captures``, ``red_captures``, ``blue_captures``,
    ``red_pieces_left``, ``blue_pieces_left``, ``den_animal`` and, with ``branching``,
    ``branching`` (the mean number of legal moves before each move). FenError for a bad
    FEN, :class:`PlyError` for a move the rules refuse."""
    pos = Position(ruleset, fen=start_fen)
    fen: str | None = pos.fen()
    if fen == Position(ruleset).fen():
        fen = None
    captures: list[dict[str, int]] = []
    branch = 0
    mover = ""
    for ply, move in enumerate(moves):
        if branching:
            branch += len(pos.legal_codes())
        target = pos.piece_at(move[2:4])
        mover = pos.piece_at(move[:2]) or ""
        try:
            pos.play(move)
        except MoveError as exc:
            raise PlyError(ply, f"ply {ply + 1}: {exc}") from None
        if target:
            captures.append(
                {
                    "ply": ply,
                    "capturer": piece_code(mover),
                    "captured": piece_code(target),
                    "square": encode_move(move) & 63,
                }
            )
    result = pos.result
    board = pos.board()
    red_caps = sum(1 for c in captures if c["capturer"] <= 8)
    plies = len(moves)
    columns: dict[str, Any] = {
        "plies": plies,
        "red_captures": red_caps,
        "blue_captures": len(captures) - red_caps,
        "red_pieces_left": sum(1 for p in board if p and p.isupper()),
        "blue_pieces_left": sum(1 for p in board if p and p.islower()),
        "den_animal": ANIMALS[_LETTERS.index(mover.upper())]
        if result is not None and result.reason == "den"
        else None,
        "moves": [encode_move(m) for m in moves],
        "captures": captures,
    }
    if branching:
        columns["branching"] = branch / plies if plies else 0.0
    return Replayed(pos, fen, columns)
