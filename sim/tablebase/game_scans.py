"""Compiled scans of recorded games for the endgame tables: the table position of every
position of many games, and the legal-move sums of game prefixes.

A material is known here by a mask: bit ``animal - 1`` for each Red animal, bit
``8 + animal - 1`` for each Blue one. The index is the one of
:mod:`sim.tablebase.material` (pieces strongest first, Red's then Blue's, row-major).
"""

from __future__ import annotations

import numpy as np

from engine import core
from engine.codes import RAT
from engine.jit import kernel, njit
from sim.tablebase.kernels import RADIXES
from sim.tablebase.material import PLACE


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
