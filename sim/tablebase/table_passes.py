"""Compiled passes over a finished endgame table: every position checked against its
successors, the colour-swap transform that gives a material's twin, the counts of
``stats`` and the per-square shares of the dashboard's heatmap.

Layout and value bytes as in :mod:`sim.tablebase.kernels`, whose helpers (decode, place,
the value of a move's child) these passes share.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel, njit
from engine.moves import pseudo_moves
from engine.state import MAX_MOVES
from sim.tablebase.kernels import (
    INVALID,
    LOSS_BASE,
    child_code,
    decode,
    first_squares,
    lift,
    new_board,
    next_squares,
    piece_index,
    place,
    squares_clash,
)
from sim.tablebase.material import PLACE


@kernel
def best_code(
    st,
    kinds,
    strides,
    half,
    squares,
    idx,
    side,
    rules,
    kidx,
    sub,
    sub_off,
    sub_half,
    sub_strides,
    val,
    moves,
):
    """The value of a placed position as the best over its moves (by the table and the
    sub-tables): a table byte."""
    n = pseudo_moves(st, rules, moves)
    best = -1000  # no move: lost in 0
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
            s = 999  # won in 1
        elif c == 0:
            s = 0
        elif c < LOSS_BASE:
            s = -1000 + 2 * c  # lost in (2c - 1) + 1
        else:
            s = 1000 - (2 * (c - LOSS_BASE) + 1)  # won in 2(c - 128) + 1
        if s > best:
            best = s
    if best > 0:
        return (1000 - best + 1) // 2
    if best == 0:
        return 0
    return LOSS_BASE + (best + 1000) // 2


@njit(cache=True)
def verify_pass(codes, kinds, strides, half, rules, sub, sub_off, sub_half, sub_strides, val):
    """Check every position against its successors. Returns (positions checked, positions
    whose value is not the best over their moves, the first such index or -1)."""
    st = new_board()
    squares = np.empty(codes.size, dtype=np.int32)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    kidx = piece_index(codes)
    checked = 0
    wrong = 0
    first = -1
    for idx in range(2 * half):
        side = decode(idx, kinds, strides, half, squares)
        if side < 0:
            if val[idx] != INVALID:
                wrong += 1
                if first < 0:
                    first = idx
            continue
        checked += 1
        place(st, codes, squares, side)
        b = best_code(
            st,
            kinds,
            strides,
            half,
            squares,
            idx,
            side,
            rules,
            kidx,
            sub,
            sub_off,
            sub_half,
            sub_strides,
            val,
            moves,
        )
        lift(st, codes, squares)
        if b != val[idx]:
            wrong += 1
            if first < 0:
                first = idx
    return checked, wrong, first


@njit(cache=True)
def swap_colours(kinds, strides, half, src_strides, src_half, n_red, src, out):
    """Fill ``out`` (the colour-swapped material's table) from ``src``: the position turned
    by half a turn with the colours exchanged has the same value for the side to move.

    The swapped material lists the source's Blue pieces first (as Red), then its Red ones.
    """
    scratch = np.empty((2, kinds.size), dtype=np.int32)
    _swap_colours(kinds, half, src_strides, src_half, n_red, src, out, scratch[0], scratch[1])


@kernel
def _swap_colours(kinds, half, src_strides, src_half, n_red, src, out, squares, places):
    """:func:`swap_colours` with its scratch arrays given, walking the indices in order."""
    n = kinds.size
    n_blue_src = n - n_red  # the swapped material's Red pieces
    first_squares(kinds, places, squares)
    for idx in range(2 * half):
        side = idx // half
        if squares_clash(squares):
            out[idx] = INVALID
        else:
            j = (1 - side) * src_half
            for k in range(n):
                # piece k of this table is piece k + n_red (a Red piece) or k - n_blue_src of src
                sk = k + n_red if k < n_blue_src else k - n_blue_src
                j += PLACE[kinds[k], 62 - squares[k]] * src_strides[sk]
            out[idx] = src[j]
        next_squares(kinds, places, squares)


@njit(cache=True)
def side_counts(half, val):
    """Per side to move: [side wins, side loses, draws, positions, longest win] as rows."""
    out = np.zeros((2, 5), dtype=np.int64)
    for idx in range(2 * half):
        v = val[idx]
        if v == INVALID:
            continue
        s = idx // half
        out[s, 3] += 1
        if v == 0:
            out[s, 2] += 1
        elif v < LOSS_BASE:
            out[s, 0] += 1
            out[s, 4] = max(out[s, 4], 2 * v - 1)
        else:
            out[s, 1] += 1
    return out


@njit(cache=True)
def square_shares(kinds, strides, half, val, piece, side):
    """For each square: positions with ``piece`` there and ``side`` to move, and how many
    of them the side to move wins, loses or draws: an int64 array (63, 4)."""
    out = np.zeros((63, 4), dtype=np.int64)
    squares = np.empty(kinds.size, dtype=np.int32)
    for idx in range(side * half, (side + 1) * half):
        v = val[idx]
        if v == INVALID:
            continue
        decode(idx, kinds, strides, half, squares)
        sq = squares[piece]
        out[sq, 0] += 1
        if v == 0:
            out[sq, 3] += 1
        elif v < LOSS_BASE:
            out[sq, 1] += 1
        else:
            out[sq, 2] += 1
    return out
