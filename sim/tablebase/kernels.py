"""Compiled kernels of the endgame tables' retrograde builder: its first pass (decode an
index onto a small state array, count and sum up every position's moves) and the helpers
the other passes share; :mod:`sim.tablebase.levels` holds the backward propagation,
:mod:`sim.tablebase.table_passes` the passes over a finished table and
:mod:`sim.tablebase.game_scans` the scans of recorded games.

A table's layout is given by the arrays of :class:`sim.tablebase.material.Material`
(``codes``, ``kinds``, ``strides``) and ``half``. Moves come from the engine's own
generator (:func:`engine.moves.captures_and_others`: the captures, and a count of the
other moves) on a small state array; the anti-chasing rules and the no-capture clock
are not part of a table (see ``docs/tablebases.md``).

Values are the bytes of :mod:`sim.tablebase.outcomes`. During the build, ``val`` is 0 for a
position not decided yet; ``cnt`` counts its undecided moves that stay in the material
(moves without a capture); ``cap`` sums up its other moves: 0 none, an odd number ``d``
the fastest win they give (a den entry or the last capture: 1; a capture into a position
lost in ``d - 1``), 255 a capture into a drawn position (it can no longer be lost), else
an even number ``d``: every such move leads to a won position, the longest in ``d - 1``.
"""

from __future__ import annotations

import numpy as np

from engine.board import DENS
from engine.jit import kernel, njit
from engine.moves import captures_and_others
from engine.state import HEADER, MAX_MOVES, P_SQ, S_SIDE
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


@kernel
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


@kernel
def place(st, codes, squares, side):
    """Put the pieces on the state array, ``side`` to move."""
    for k in range(codes.size):
        st[squares[k]] = codes[k]
        st[P_SQ + codes[k]] = squares[k]
    st[S_SIDE] = side


@kernel
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


@kernel
def sub_index(kinds, squares, j, moved, to, side, sub_half, sub_strides):
    """The index, in the table without piece ``j``, of the position where piece ``moved``
    went to ``to`` and captured piece ``j``; ``side`` is to move there."""
    idx = side * sub_half[j]
    for i in range(kinds.size):
        if i != j:
            sq = to if i == moved else squares[i]
            idx += PLACE[kinds[i], sq] * sub_strides[j, i]
    return idx


@kernel
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
    scratch = np.empty((2, codes.size), dtype=np.int32)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    return _first_pass(
        codes,
        kinds,
        strides,
        half,
        rules,
        sub,
        sub_off,
        sub_half,
        sub_strides,
        val,
        cnt,
        cap,
        new_board(),
        scratch[0],
        scratch[1],
        moves,
        piece_index(codes),
    )


@kernel(inline="always")
def first_squares(kinds, places, squares):
    """Set ``places`` and ``squares`` to the first index's (every piece at its first place),
    where a walk with :func:`next_squares` starts."""
    for k in range(kinds.size):
        places[k] = 0
        squares[k] = SQUARE_OF[kinds[k], 0]


@kernel(inline="always")
def squares_clash(squares):
    """Whether two pieces stand on one square (such an index is not a position)."""
    n = squares.size
    for k in range(n):
        for j in range(k + 1, n):
            if squares[k] == squares[j]:
                return True
    return False


@kernel
def next_squares(kinds, places, squares):
    """Step ``places`` (each piece's place, the last piece fastest) to the next index and
    update ``squares``; the side's first index follows its last."""
    k = kinds.size - 1
    while k >= 0:
        kind = kinds[k]
        places[k] += 1
        if places[k] < RADIXES[kind]:
            squares[k] = SQUARE_OF[kind, places[k]]
            return
        places[k] = 0
        squares[k] = SQUARE_OF[kind, 0]
        k -= 1


@kernel
def _first_pass(
    codes,
    kinds,
    strides,
    half,
    rules,
    sub,
    sub_off,
    sub_half,
    sub_strides,
    val,
    cnt,
    cap,
    st,
    squares,
    places,
    moves,
    kidx,
):
    """:func:`first_pass` with its scratch arrays given; the indices are walked in order,
    each piece's square stepping like an odometer's digit."""
    top = 0
    first_squares(kinds, places, squares)
    for idx in range(2 * half):
        side = idx // half
        if squares_clash(squares):  # two pieces on one square: not a position
            val[idx] = INVALID
            next_squares(kinds, places, squares)
            continue
        place(st, codes, squares, side)
        n, quiet = captures_and_others(st, rules, moves)
        win = 1000
        loss = 0
        drawn = False
        for i in range(n):
            c = child_code(
                st,
                kinds,
                strides,
                half,
                squares,
                idx,
                side,
                moves[i],
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
        next_squares(kinds, places, squares)
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
