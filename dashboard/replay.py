"""Replay a recorded game through the engine: one frame per ply, captures found on the way.

Pure (no Streamlit). A recorded game holds its canonical rules spec, its moves
(``from * 64 + to`` codes) and the FEN it began from (``start_fen``, null for the initial
position); replaying the moves from there with :class:`engine.Position` gives every
position, the captures, and the result, which the Games page compares with the recorded
one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Position, decode_move, parse_rules
from engine.board import square_index
from engine.errors import DsqError


@dataclass(frozen=True)
class Frame:
    """The position after ``ply`` plies (ply 0 is the position the game began at)."""

    ply: int
    move: str | None
    mover: str | None
    board: tuple[str | None, ...]
    captured: str | None = None  # the FEN letter of the piece the move captured ("c": blue cat)

    @property
    def last_move(self) -> tuple[int, int] | None:
        """``(from, to)`` squares of the move that led here."""
        if self.move is None:
            return None
        return square_index(self.move[:2]), square_index(self.move[2:])

    @property
    def capture_square(self) -> int | None:
        """The square where the move that led here captured, if it did."""
        return square_index(self.move[2:]) if self.captured and self.move else None


@dataclass(frozen=True)
class Replay:
    """Every frame of a game, the result the engine reaches, and any replay error: the
    engine's message (``error``) and the ply and move it refused (None: the rules spec
    itself could not be set up)."""

    rules: str
    frames: tuple[Frame, ...]
    winner: str | None
    reason: str | None
    error: str | None = None
    dog_over_wolf: bool = False
    error_ply: int | None = None
    error_move: str | None = None
    start_fen: str | None = None  # the set-up position the game began at (None: initial)
    start_side: str = "red"  # who moved first

    def to_move(self, ply: int) -> str:
        """The side to move after ``ply`` plies."""
        other = "blue" if self.start_side == "red" else "red"
        return self.start_side if ply % 2 == 0 else other

    @property
    def plies(self) -> int:
        """Plies successfully replayed."""
        return len(self.frames) - 1


def replay_game(
    rules: str, moves: Sequence[int], ply_cap: int | None = None, start_fen: str | None = None
) -> Replay:
    """Replay ``moves`` (``from * 64 + to`` codes) under ``rules`` from ``start_fen`` (None:
    the initial position).

    The result is the engine's, or a ``ply_cap`` draw when the game reached ``ply_cap``
    plies unfinished (the simulator's cap, not a rule). A move the engine refuses (a
    damaged record) stops the replay; ``error_ply`` says which ply (None with a rules spec
    or FEN that cannot be set up).
    """
    try:
        ruleset = parse_rules(rules)
        pos = Position(ruleset, fen=start_fen)
    except DsqError as exc:
        return Replay(rules, (), None, None, error=str(exc))
    start_side = pos.side
    frames = [Frame(0, None, None, tuple(pos.board()))]
    error = error_move = None
    error_ply = None
    for i, code in enumerate(moves, start=1):
        move = decode_move(int(code))
        before = frames[-1].board
        mover = pos.side
        try:
            pos.play(move)
        except DsqError as exc:
            error, error_ply, error_move = str(exc), i, move
            break
        target = before[square_index(move[2:])]
        frames.append(Frame(i, move, mover, tuple(pos.board()), target or None))
    result = pos.result
    winner, reason = (result.winner, result.reason) if result else (None, None)
    if result is None and error is None and ply_cap is not None and len(moves) >= ply_cap:
        winner, reason = "draw", "ply_cap"
    return Replay(
        ruleset.spec,
        tuple(frames),
        winner,
        reason,
        error,
        ruleset.dog_over_wolf,
        error_ply,
        error_move,
        start_fen,
        start_side,
    )
