"""Compiled kernels of the repetition rules (RULES.md 'Repetition rules (anti-chasing)').

Each filter takes the moves ``out[:n]`` of the side to move, removes those its rule
forbids (keeping the others in order) and returns the new count. Both read the mover's
own recent moves from the history kept in the state (see :mod:`engine.state`).
"""

from __future__ import annotations

import numpy as np

from engine.board import TRAP_OWNER
from engine.codes import H_FROM, H_PIECE, H_TO, HIST_SIZE
from engine.jit import njit
from engine.moves import is_chased
from engine.state import HEADER, S_NPLY, S_SIDE, side_of

WINDOW_7_3 = 7  # the mover's last 7 moves ...
VISITS_7_3 = 3  # ... of which 3 to the same square forbid a 4th
WINDOW_17_5 = 17  # the mover's last 17 moves, all by one piece ...
SQUARES_17_5 = 5  # ... over at most 5 squares forbid those squares


@njit(cache=True)
def filter_7_3(st, rules, out, n):
    """Remove the moves the 7-3 rule forbids from ``out[:n]``; returns the new count."""
    side = st[S_SIDE]
    nply = st[S_NPLY]
    # 7-3 rule: the mover's last 7 moves (all of them if it has made fewer).
    window = np.empty(WINDOW_7_3, dtype=np.int32)
    count = 0
    trap = False
    h = nply - 1
    while h >= 0 and count < WINDOW_7_3:
        base = HEADER + h * HIST_SIZE
        if side_of(st[base + H_PIECE]) == side:
            window[count] = h
            count += 1
            if TRAP_OWNER[st[base + H_TO]] >= 0:  # 7-3 rule: not when one of them entered a trap
                trap = True
        h -= 1
    if count >= VISITS_7_3 and not trap:
        k = 0
        for i in range(n):
            mv = out[i]
            frm = mv >> 6
            to = mv & 63
            code = st[frm]
            visits = 0
            for j in range(count):
                base = HEADER + window[j] * HIST_SIZE
                if st[base + H_PIECE] == code and st[base + H_TO] == to:
                    visits += 1
            # 7-3 rule: a 4th visit is forbidden, unless the piece is being chased
            if visits >= VISITS_7_3 and not is_chased(st, rules, code, frm):
                continue
            out[k] = mv
            k += 1
        n = k
    return n


@njit(cache=True)
def filter_17_5(st, rules, out, n):
    """Remove the moves the 17-5 rule forbids from ``out[:n]``; returns the new count."""
    side = st[S_SIDE]
    nply = st[S_NPLY]
    # 17-5 rule: the mover's last 17 moves, all by the same piece P ...
    count = 0
    piece = -1
    same = True
    trap = False
    squares = np.empty(WINDOW_17_5 + 1, dtype=np.int32)
    nsq = 0
    h = nply - 1
    while h >= 0 and count < WINDOW_17_5:
        base = HEADER + h * HIST_SIZE
        code = st[base + H_PIECE]
        if side_of(code) == side:
            if piece < 0:
                piece = code
            elif code != piece:
                same = False
                break
            if TRAP_OWNER[st[base + H_TO]] >= 0:  # 17-5 rule: none of them entered a trap
                trap = True
            squares[nsq] = st[base + H_TO]  # 17-5 rule: the destination of each move ...
            nsq += 1
            count += 1
            if count == WINDOW_17_5:
                squares[nsq] = st[base + H_FROM]  # 17-5 rule: ... and the first one's start
                nsq += 1
        h -= 1
    if same and count == WINDOW_17_5 and not trap:
        distinct = np.empty(WINDOW_17_5 + 1, dtype=np.int32)
        nd = 0
        for i in range(nsq):
            seen = False
            for j in range(nd):
                if distinct[j] == squares[i]:
                    seen = True
                    break
            if not seen:
                distinct[nd] = squares[i]
                nd += 1
        if nd <= SQUARES_17_5:  # 17-5 rule: at most 5 squares, so P may not move to any of them
            k = 0
            for i in range(n):
                mv = out[i]
                if st[mv >> 6] == piece:
                    to = mv & 63
                    banned = False
                    for j in range(nd):
                        if distinct[j] == to:
                            banned = True
                            break
                    if banned:
                        continue
                out[k] = mv
                k += 1
            n = k
    return n
