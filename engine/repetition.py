"""Compiled kernels of the repetition rules (docs/rules.md 'Anti-chasing rules').

Each filter takes the moves ``out[:n]`` of the side to move, removes those its rule
forbids (keeping the others in order) and returns the new count. Both read the mover's
own recent moves from the history kept in the state (see :mod:`engine.state`): sides
alternate, so the mover's moves are the plies ``nply - 2``, ``nply - 4``, ... Each rule
first looks for what it could forbid (:func:`rule_7_3_keys`, :func:`rule_17_5_squares`),
which is usually nothing, so most positions never look at their moves.
"""

from __future__ import annotations

import numpy as np

from engine.bitboards import TRAP_BB
from engine.bitops import popcount
from engine.codes import H_FROM, H_PIECE, H_TO, HIST_SIZE
from engine.jit import kernel
from engine.moves import is_chased
from engine.state import HEADER, S_NPLY

WINDOW_7_3 = 7  # the mover's last 7 moves ...
VISITS_7_3 = 3  # ... of which 3 to the same square forbid a 4th
WINDOW_17_5 = 17  # the mover's last 17 moves, all by one piece ...
SQUARES_17_5 = 5  # ... over at most 5 squares forbid those squares
TRAPS = int(TRAP_BB[0] | TRAP_BB[1])  # a move "enters a trap": any of the six


@kernel
def rule_7_3_keys(st):
    """The (piece, square) visits the 7-3 rule may forbid, as two keys ``code * 64 + sq``
    (-1 for none): those made 3 times among the mover's last 7 moves, when none of those
    moves entered a trap. Whether the piece is chased is left to the caller."""
    nply = st[S_NPLY]
    # 7-3 rule: the mover's last 7 moves (all of them if it has made fewer).
    count = min(WINDOW_7_3, nply // 2)
    if count < VISITS_7_3:
        return -1, -1
    # The squares reached once, twice and three times (by any piece) as bitboards.
    once = np.int64(0)
    twice = np.int64(0)
    thrice = np.int64(0)
    last = HEADER + (nply - 2) * HIST_SIZE + H_TO
    for i in range(count):
        bit = np.int64(1) << st[last - 2 * HIST_SIZE * i]
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    if thrice == 0 or (once & TRAPS) != 0:  # 7-3 rule: not when one of them entered a trap
        return -1, -1
    first = -1
    second = -1
    for i in range(count - VISITS_7_3 + 1):
        base = HEADER + (nply - 2 - 2 * i) * HIST_SIZE
        to = st[base + H_TO]
        key = st[base + H_PIECE] * 64 + to
        if ((thrice >> to) & 1) == 0 or key == first:
            continue
        visits = 1
        for j in range(i + 1, count):
            other = HEADER + (nply - 2 - 2 * j) * HIST_SIZE
            if st[other + H_PIECE] * 64 + st[other + H_TO] == key:
                visits += 1
        if visits >= VISITS_7_3:  # 7-3 rule: P moved to S at least 3 times
            if first < 0:
                first = key
            else:
                second = key
    return first, second


@kernel
def filter_7_3(st, rules, out, n):
    """Remove the moves the 7-3 rule forbids from ``out[:n]``; returns the new count."""
    first, second = rule_7_3_keys(st)
    if first < 0:
        return n
    k = 0
    for i in range(n):
        mv = out[i]
        frm = mv >> 6
        code = st[frm]
        key = code * 64 + (mv & 63)
        # 7-3 rule: a 4th visit is forbidden, unless the piece is being chased
        if (key == first or key == second) and not is_chased(st, rules, code, frm):
            continue
        out[k] = mv
        k += 1
    return k


@kernel
def rule_17_5_squares(st):
    """``(piece, squares)``: the piece the 17-5 rule stops from returning and the squares
    it may not move to (a bitboard), or ``(-1, 0)`` when the rule forbids nothing."""
    nply = st[S_NPLY]
    if nply < 2 * WINDOW_17_5:
        return -1, np.int64(0)
    # 17-5 rule: the mover's last 17 moves, all by the same piece P ...
    last = HEADER + (nply - 2) * HIST_SIZE
    piece = st[last + H_PIECE]
    if st[last - 2 * HIST_SIZE + H_PIECE] != piece:
        return -1, np.int64(0)
    squares = np.int64(0)
    for i in range(WINDOW_17_5):
        base = last - 2 * HIST_SIZE * i
        if st[base + H_PIECE] != piece:
            return -1, np.int64(0)
        squares |= np.int64(1) << st[base + H_TO]  # 17-5 rule: the destination of each move
    if (squares & TRAPS) != 0:  # 17-5 rule: none of them entered a trap
        return -1, np.int64(0)
    # 17-5 rule: ... and the start of the first one
    squares |= np.int64(1) << st[last - 2 * HIST_SIZE * (WINDOW_17_5 - 1) + H_FROM]
    if popcount(squares) > SQUARES_17_5:  # 17-5 rule: at most 5 squares
        return -1, np.int64(0)
    return piece, squares


@kernel
def filter_17_5(st, rules, out, n):
    """Remove the moves the 17-5 rule forbids from ``out[:n]``; returns the new count."""
    piece, squares = rule_17_5_squares(st)
    if piece < 0:
        return n
    k = 0
    for i in range(n):
        mv = out[i]
        # 17-5 rule: P may not move to any of those squares
        if st[mv >> 6] == piece and ((squares >> (mv & 63)) & 1) != 0:
            continue
        out[k] = mv
        k += 1
    return k
