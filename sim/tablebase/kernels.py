"""Compiled kernels of the endgame tables: the retrograde builder's first pass (decode an
index onto a small state array; :mod:`sim.tablebase.levels` holds the backward
propagation), the checks over a finished table (every position against its successors,
the colour-swap transform, the counts of ``stats``, the per-square shares of the
dashboard's heatmap), and the scans of recorded games (the table position of every
position of many games, the legal-move sums of game prefixes).

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

In the game scans a material is known by a mask: bit ``animal - 1`` for each Red animal,
bit ``8 + animal - 1`` for each Blue one. The index is the one of
:mod:`sim.tablebase.material` (pieces strongest first, Red's then Blue's, row-major).
"""

from __future__ import annotations

import numpy as np

from engine import core
from engine.board import DENS
from engine.codes import RAT
from engine.jit import kernel, njit
from engine.moves import captures_and_others, pseudo_moves
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


@kernel
def position_index(st, max_pieces):
    """``(mask, index)`` of the position of ``st`` in its table, or ``(-1, -1)`` when it
    has more than ``max_pieces`` animals or a side has none."""
    red = st[core.S_COUNT]
    blue = st[core.S_COUNT + 1]
    if red == 0 or blue == 0 or red + blue > max_pieces:
        return -1, -1
    idx = 0
    half = 1
    mask = 0
    for side in range(2):
        for animal in range(8, 0, -1):
            sq = st[core.P_SQ + side * 8 + animal]
            if sq >= 0:
                kind = 0 if animal == RAT else 1
                idx = idx * RADIXES[kind] + PLACE[kind, sq]
                half *= RADIXES[kind]
                mask |= 1 << (side * 8 + animal - 1)
    return mask, idx + st[core.S_SIDE] * half


@njit(cache=True)
def table_positions(starts, which, rules, moves, offsets, last_ongoing, max_pieces):
    """Replay each game ``g`` (moves ``moves[offsets[g]:offsets[g + 1]]`` from the state
    header ``starts[which[g]]``)
    and list its positions a table may cover: rows ``(game, ply, mask, index, clock)`` for
    each position after ``ply`` plies where the game goes on (every position but the last,
    and the last when ``last_ongoing[g]``) with at most ``max_pieces`` animals."""
    n = offsets.size - 1
    out = np.empty((offsets[n] + n, 5), dtype=np.int64)
    rows = 0
    for g in range(n):
        plies = offsets[g + 1] - offsets[g]
        st = np.zeros(core.HEADER + core.HIST_SIZE * (plies + 1), dtype=np.int32)
        st[: core.HEADER] = starts[which[g], : core.HEADER]
        for ply in range(plies + 1):
            if ply > 0:
                core.make_move(st, rules, moves[offsets[g] + ply - 1])
            if ply == plies and not last_ongoing[g]:
                break
            mask, idx = position_index(st, max_pieces)
            if mask >= 0:
                out[rows, 0] = g
                out[rows, 1] = ply
                out[rows, 2] = mask
                out[rows, 3] = idx
                out[rows, 4] = st[core.S_CLOCK]
                rows += 1
    return out[:rows]


@njit(cache=True)
def prefix_branching(starts, which, rules, moves, offsets, games, cut):
    """For each game ``games[i]`` (from ``starts[which[games[i]]]``): the sum of the
    legal-move counts of its positions before ply ``cut[i]`` (where a move was chosen)."""
    out = np.zeros(games.size, dtype=np.int64)
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    for i in range(games.size):
        g = games[i]
        st = np.zeros(core.HEADER + core.HIST_SIZE * (cut[i] + 1), dtype=np.int32)
        st[: core.HEADER] = starts[which[g], : core.HEADER]
        total = 0
        for ply in range(cut[i]):
            total += core.settle(st, rules, buf)
            core.make_move(st, rules, moves[offsets[g] + ply])
        out[i] = total
    return out
