"""The columns of a game record that its moves determine, found by replaying them.

A recorded game's captures, capture counts, pieces left and den animal follow from its
rules, start and moves; :func:`replay_columns` plays the moves with :class:`engine.Position`
and derives them, as the referee records them. People's games (:mod:`sim.records.human`) and
imported game records (:mod:`sim.records.gameimport`) are recorded through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine import Position, Ruleset, encode_move
from engine.errors import DsqError, MoveError
from sim.storage.schema import ANIMALS


class PlyError(MoveError):
    """A move the rules refuse; ``ply`` is its index in the game (0-based)."""

    def __init__(self, ply: int, message: str) -> None:
        super().__init__(message)
        self.ply = ply


@lru_cache(maxsize=4096)
def _code(move: str) -> int:
    """A move's code ``from * 64 + to`` (MoveError for a text that is not a move)."""
    return encode_move(move)


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
    codes: list[int] = []
    branch = 0
    mover = 0
    squares = pos.st  # the first 63 slots of the state: the piece code on each square
    for ply, move in enumerate(moves):
        if branching:
            branch += len(pos.legal_codes())
        try:
            code = _code(move)
            target, mover = int(squares[code & 63]), int(squares[code >> 6])
            pos.play(move)
        except DsqError as exc:
            raise PlyError(ply, f"ply {ply + 1}: {exc}") from None
        codes.append(code)
        if target:
            captures.append(
                {"ply": ply, "capturer": mover, "captured": target, "square": code & 63}
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
        "den_animal": ANIMALS[(mover - 1) % 8]
        if result is not None and result.reason == "den"
        else None,
        "moves": codes,
        "captures": captures,
    }
    if branching:
        columns["branching"] = branch / plies if plies else 0.0
    return Replayed(pos, fen, columns)
