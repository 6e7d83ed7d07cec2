"""The one-byte value of a table position, for the side to move.

- ``0``: a draw (neither side can force an end);
- ``1..127``: a win in ``2 * v - 1`` plies (wins take an odd number of plies: the
  winning move is ply 1);
- ``128..254``: a loss in ``2 * (v - 128)`` plies (``128``: no legal move, lost in 0);
- ``255``: not a position (two pieces on one square in the index).

The longest win a byte holds is 253 plies, the longest loss 252; the builder refuses a
table that would need more.
"""

from __future__ import annotations

DRAW = 0
LOSS_BASE = 128
INVALID = 255
MAX_WIN = 253
MAX_LOSS = 252


def win_code(plies: int) -> int:
    """The byte of a win in ``plies`` (odd) plies."""
    return (plies + 1) // 2


def loss_code(plies: int) -> int:
    """The byte of a loss in ``plies`` (even) plies."""
    return LOSS_BASE + plies // 2


def decode(code: int) -> tuple[str, int | None]:
    """``("win", plies)``, ``("loss", plies)`` or ``("draw", None)``; ValueError on 255."""
    code = int(code)
    if code == DRAW:
        return "draw", None
    if code < LOSS_BASE:
        return "win", 2 * code - 1
    if code < INVALID:
        return "loss", 2 * (code - LOSS_BASE)
    raise ValueError("not a position")


def score(code: int) -> int:
    """A number that orders values for the side to move: a faster win is higher, a longer
    loss is higher than a shorter one, a draw sits between."""
    value, plies = decode(code)
    if value == "win":
        return 1000 - int(plies or 0)
    if value == "loss":
        return -1000 + int(plies or 0)
    return 0


def after_move(child: int) -> int:
    """The value for the mover of a move whose resulting position (opponent to move) has
    value ``child``: a lost child is a win one ply longer, a won child a loss."""
    value, plies = decode(child)
    if value == "loss":
        return win_code(int(plies or 0) + 1)
    if value == "win":
        return loss_code(int(plies or 0) + 1)
    return DRAW
