"""The state array every kernel works on: its layout, a new one, and piece-code helpers.

A position lives in one int32 array ``st`` so the kernels stay simple and numba-friendly;
the rule set is the int32 array of ``Ruleset.as_array``. Layout of ``st``:

- ``st[0:63]``: the board, a piece code per square (0 empty, 1..8 Red rat..elephant,
  9..16 Blue; see :class:`engine.codes.Animal`);
- ``st[P_SQ + code]``: the square of each piece code, -1 once captured;
- side to move, no-capture clock, fullmove number, plies in the history, piece counts,
  game status (:class:`engine.codes.Status`) and reason (:class:`engine.codes.Reason`);
- from ``HEADER`` on, the history: ``HIST_SIZE`` ints per ply played since set-up, the
  record of ply ``h`` starting at ``HEADER + h * HIST_SIZE`` with the slots ``H_*`` of
  :class:`engine.codes.Hist` (from, to, piece, captured, clock before, status before).
"""

from __future__ import annotations

import numpy as np

from engine.codes import HIST_SIZE
from engine.jit import kernel

P_SQ = 63
S_SIDE = 80
S_CLOCK = 81
S_FULLMOVE = 82
S_NPLY = 83
S_COUNT = 84  # S_COUNT + side: pieces left
S_STATUS = 86  # a Status code
S_REASON = 87  # a Reason code
HEADER = 96
MAX_MOVES = 48  # upper bound on legal moves in a position (8 pieces x 4 directions)


def new_state(capacity: int = 1024) -> np.ndarray:
    """An empty state array with room for ``capacity`` plies of history."""
    st = np.zeros(HEADER + HIST_SIZE * capacity, dtype=np.int32)
    st[P_SQ : P_SQ + 17] = -1
    st[S_FULLMOVE] = 1
    return st


def history_capacity(st: np.ndarray) -> int:
    """How many plies of history the state array can hold."""
    return (st.shape[0] - HEADER) // HIST_SIZE


@kernel(inline="always")
def side_of(code):
    """The side (0 Red, 1 Blue) of a piece code 1..16."""
    return (code - 1) >> 3


@kernel(inline="always")
def animal_of(code):
    """The animal (1 rat .. 8 elephant) of a piece code 1..16."""
    return ((code - 1) & 7) + 1
