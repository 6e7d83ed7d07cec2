"""The compiled kernels in one namespace: ``from engine import core; core.legal_moves(...)``.

The kernels live in modules named for what they hold; this module gathers their public
names so callers need one import:

- :mod:`engine.codes`: the vocabulary (status, reasons, animals, history slots, jump modes);
- :mod:`engine.state`: the layout of the state array ``st``, ``new_state``, ``side_of``;
- :mod:`engine.moves`: captures (docs/rules.md Captures 1-5), steps and river jumps (Movement
  1-9), ``pseudo_moves`` and ``is_chased``;
- :mod:`engine.repetition`: the 7-3 and 17-5 rules;
- :mod:`engine.game`: ``legal_moves``, ``make_move``, ``unmake_move``, ``settle`` and the
  end of the game (End 1-4);
- :mod:`engine.perft`: ``perft`` and ``divide``.

Every kernel also runs as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

from engine.codes import (
    BLUE_WON,
    CAPTURE_ALL,
    DEN,
    DRAWN,
    H_CAPTURED,
    H_CLOCK,
    H_FROM,
    H_PIECE,
    H_STATUS,
    H_TO,
    HIST_SIZE,
    NO_CAPTURE,
    NO_MOVES,
    NO_REASON,
    ONGOING,
    PLY_CAP,
    REASON_NAMES,
    RED_WON,
)
from engine.game import legal_moves, make_move, settle, unmake_move
from engine.moves import can_capture, is_chased, jump_allowed, jump_blocked, pseudo_moves
from engine.perft import divide, perft
from engine.repetition import filter_7_3, filter_17_5
from engine.state import (
    HEADER,
    MAX_MOVES,
    P_SQ,
    S_CLOCK,
    S_COUNT,
    S_FULLMOVE,
    S_NPLY,
    S_REASON,
    S_SIDE,
    S_STATUS,
    animal_of,
    history_capacity,
    new_state,
    side_of,
)

__all__ = [
    "BLUE_WON",
    "CAPTURE_ALL",
    "DEN",
    "DRAWN",
    "HEADER",
    "HIST_SIZE",
    "H_CAPTURED",
    "H_CLOCK",
    "H_FROM",
    "H_PIECE",
    "H_STATUS",
    "H_TO",
    "MAX_MOVES",
    "NO_CAPTURE",
    "NO_MOVES",
    "NO_REASON",
    "ONGOING",
    "PLY_CAP",
    "P_SQ",
    "REASON_NAMES",
    "RED_WON",
    "S_CLOCK",
    "S_COUNT",
    "S_FULLMOVE",
    "S_NPLY",
    "S_REASON",
    "S_SIDE",
    "S_STATUS",
    "animal_of",
    "can_capture",
    "divide",
    "filter_17_5",
    "filter_7_3",
    "history_capacity",
    "is_chased",
    "jump_allowed",
    "jump_blocked",
    "legal_moves",
    "make_move",
    "new_state",
    "perft",
    "pseudo_moves",
    "settle",
    "side_of",
    "unmake_move",
]
