"""Compiled kernels of the retrograde builder: decode an index onto a small state array,
the first pass over every position, one level of the backward propagation, the
verification of a table against its successors, and the colour-swap transform.

A table's layout is given by the arrays of :class:`sim.tablebase.material.Material`
(``codes``, ``kinds``, ``strides``) and ``half``. Moves come from the engine's own
generator (:func:`engine.moves.pseudo_moves`) on a small state array; the anti-chasing
rules and the no-capture clock are not part of a table (see ``docs/tablebases.md``).

Values are the bytes of :mod:`sim.tablebase.values`. During the build, ``val`` is 0 for a
position not decided yet; ``cnt`` counts its undecided moves that stay in the material
(moves without a capture); ``cap`` sums up its other moves: 0 none, an odd number ``d``
the fastest win they give (a den entry or the last capture: 1; a capture into a position
lost in ``d - 1``), 255 a capture into a drawn position (it can no longer be lost), else
an even number ``d``: every such move leads to a won position, the longest in ``d - 1``.
"""

from __future__ import annotations

import numpy as np

from engine.board import DENS, JUMP_LAND, NEIGHBOURS, WATER
from engine.codes import RAT
from engine.jit import njit
from engine.moves import jump_allowed, jump_blocked, pseudo_moves
from engine.state import HEADER, MAX_MOVES, P_SQ, S_SIDE, animal_of
from sim.tablebase.material import PLACE, SQUARE_OF

RADIXES = np.array([PLACE[0].max() + 1, PLACE[1].max() + 1], dtype=np.int64)
DRAWN_CHILD = 255
INVALID = 255
LOSS_BASE = 128


@njit(cache=True)
def new_board():
    """A state array holding no piece (the part the move generator reads)."""
    st = np.zeros(HEADER, dtype=np.int32)
    st[P_SQ : P_SQ + 17] = -1
    return st


@njit(cache=True)
def decode(idx, kinds, strides, half, squares):
    """Fill ``squares`` with the pieces' squares of index ``idx``; return the side to move,
    or -1 when two pieces share a square (not a position)."""
    side = idx // half
    rem = idx - side * half
    n = kinds.size
    for k in range(n):
        kind = kinds[k]
        squares[k] = SQUARE_OF[kind, (rem // strides[k]) % RADIXES[kind]]
    for k in range(n):
        for j in range(k + 1, n):
            if squares[k] == squares[j]:
                return -1
    return side


@njit(cache=True)
def place(st, codes, squares, side):
    """Put the pieces on the state array, ``side`` to move."""
    for k in range(codes.size):
        st[squares[k]] = codes[k]
        st[P_SQ + codes[k]] = squares[k]
    st[S_SIDE] = side


@njit(cache=True)
def lift(st, codes, squares):
    """Take the pieces off the state array again."""
    for k in range(codes.size):
        st[squares[k]] = 0
        st[P_SQ + codes[k]] = -1


@njit(cache=True)
def piece_index(codes):
    """``out[code]`` = the piece's position in index order, -1 for codes not in the table."""
    out = np.full(17, -1, dtype=np.int64)
    for k in range(codes.size):
        out[codes[k]] = k
    return out


@njit(cache=True)
def sub_index(kinds, squares, j, moved, to, side, sub_half, sub_strides):
    """The index, in the table without piece ``j``, of the position where piece ``moved``
    went to ``to`` and captured piece ``j``; ``side`` is to move there."""
    idx = side * sub_half[j]
    for i in range(kinds.size):
        if i != j:
            sq = to if i == moved else squares[i]
            idx += PLACE[kinds[i], sq] * sub_strides[j, i]
    return idx


@njit(cache=True)
def child_code(
    st, kinds, strides, half, squares, idx, side, mv, kidx, sub, sub_off, sub_half, sub_strides, val
):
    """The value (a table byte, for the opponent) of the position after move ``mv``, or
    -1 when the move wins at once (End 1 den, End 2 capture_all)."""
    f = mv >> 6
    t = mv & 63
    k = kidx[st[f]]
    if t == DENS[1 - side]:  # End 1: den
        return -1
    victim = st[t]
    if victim != 0:
        j = kidx[victim]
        if sub_off[j] < 0:  # End 2: capture_all (the last enemy piece)
            return -1
        return sub[sub_off[j] + sub_index(kinds, squares, j, k, t, 1 - side, sub_half, sub_strides)]
    kind = kinds[k]
    child = idx + (1 - 2 * side) * half + (PLACE[kind, t] - PLACE[kind, f]) * strides[k]
    return val[child]


@njit(cache=True)
def first_pass(
    codes, kinds, strides, half, rules, sub, sub_off, sub_half, sub_strides, val, cnt, cap
):
    """Mark invalid indices, count every position's moves without a capture (``cnt``) and
    sum up its other moves (``cap``), reading the captures' values in the sub-tables
    ``sub`` (concatenated; ``sub_off[j]`` is where the table without piece ``j`` starts,
    -1 when ``j`` is the last of its side). Returns the largest ``cap`` below 255."""
    st = new_board()
    squares = np.empty(codes.size, dtype=np.int32)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    kidx = piece_index(codes)
    top = 0
    for idx in range(2 * half):
        side = decode(idx, kinds, strides, half, squares)
        if side < 0:
            val[idx] = INVALID
            continue
        place(st, codes, squares, side)
        n = pseudo_moves(st, rules, moves)
        quiet = 0
        win = 1000
        loss = 0
        drawn = False
        for i in range(n):
            mv = moves[i]
            if st[mv & 63] == 0 and (mv & 63) != DENS[1 - side]:
                quiet += 1
                continue
            c = child_code(
                st,
                kinds,
                strides,
                half,
                squares,
                idx,
                side,
                mv,
                kidx,
                sub,
                sub_off,
                sub_half,
                sub_strides,
                val,
            )
            if c < 0:
                win = 1
            elif c == 0:
                drawn = True
            elif c < LOSS_BASE:  # the opponent wins in 2c - 1: we lose one ply later
                loss = max(loss, 2 * c)
            else:  # the opponent loses in 2(c - 128): we win one ply later
                win = min(win, 2 * (c - LOSS_BASE) + 1)
        lift(st, codes, squares)
        cnt[idx] = quiet
        if win < 1000:
            cap[idx] = win
        elif drawn:
            cap[idx] = DRAWN_CHILD
        else:
            cap[idx] = loss
        if win < 1000:
            top = max(top, win)
        elif not drawn:
            top = max(top, loss)
    return top


@njit(cache=True)
def level_pass(codes, kinds, strides, half, rules, val, cnt, cap, level):
    """Decide the positions of one level: at an odd level the wins in ``level`` plies, at
    an even level the losses in ``level`` plies. Returns how many were decided.

    The positions decided one level earlier are found by a scan; their predecessors are
    generated by taking back a move without capture of the side that just moved (steps
    and river jumps are symmetric, and a jumper never stands on its own path).
    """
    odd = level % 2 == 1
    if odd:
        target = LOSS_BASE + (level - 1) // 2  # lost in level - 1
        new = (level + 1) // 2  # won in level
    else:
        target = level // 2 if level > 0 else -1  # won in level - 1
        new = LOSS_BASE + level // 2  # lost in level
    st = new_board()
    squares = np.empty(codes.size, dtype=np.int32)
    n_pieces = codes.size
    decided = 0
    for idx in range(2 * half):
        v = val[idx]
        if v == 0:
            if cap[idx] == level and (odd or cnt[idx] == 0):
                val[idx] = new
                decided += 1
            continue
        if v != target:
            continue
        side = decode(idx, kinds, strides, half, squares)
        mover = 1 - side  # the side that moved into this position
        place(st, codes, squares, side)
        for k in range(n_pieces):
            code = codes[k]
            if (code - 1) >> 3 != mover:
                continue
            t = squares[k]
            kind = kinds[k]
            animal = animal_of(code)
            for d in range(4):
                f = NEIGHBOURS[t, d]  # Movement 1: a step back
                if f < 0:
                    continue
                if WATER[f] and animal != RAT:  # Movement 3: only a rat enters water
                    # Movement 6: a jump back across the river, if this animal jumps
                    if not jump_allowed(rules, animal, d):
                        continue
                    f = JUMP_LAND[t, d]
                    # Movement 7: a rat on the path blocks the jump (both ways)
                    if f < 0 or jump_blocked(st, rules, mover, t, d):
                        continue
                if f == DENS[0] or f == DENS[1] or st[f] != 0:  # Movement 2, 4
                    continue
                p = idx + (mover - side) * half + (PLACE[kind, f] - PLACE[kind, t]) * strides[k]
                if val[p] != 0:
                    continue
                if odd:
                    val[p] = new
                    decided += 1
                else:
                    left = cnt[p] - 1
                    cnt[p] = left
                    c = cap[p]
                    if left == 0 and (c == 0 or (c % 2 == 0 and c <= level)):
                        val[p] = new
                        decided += 1
        lift(st, codes, squares)
    return decided
