"""Compiled perft (docs/rules.md 'Perft: counting moves'): leaf counts of the legal-move tree,
and divide.

The last ply is counted, not played: :func:`engine.game.count_legal` counts the moves of
each position one ply above the leaves with bitboards.
"""

from __future__ import annotations

import numpy as np

from engine.game import count_legal, legal_moves, make_move, unmake_move
from engine.jit import kernel, njit
from engine.state import MAX_MOVES

N_AT, I_AT = MAX_MOVES, MAX_MOVES + 1  # the columns of ``bufs`` holding a ply's count and next move


@kernel
def _perft(st, rules, depth, bufs):
    """Leaf count below ``st``, walked without recursion: row ``d`` of ``bufs`` holds the
    moves ``depth - d`` plies down, their count (``N_AT``) and the next to play (``I_AT``)."""
    if depth == 0:
        return 1
    if depth == 1:
        return count_legal(st, rules, bufs[1])
    total = 0
    d = depth
    bufs[d, N_AT] = legal_moves(st, rules, bufs[d])
    bufs[d, I_AT] = 0
    while True:
        i = bufs[d, I_AT]
        if i < bufs[d, N_AT]:
            bufs[d, I_AT] = i + 1
            make_move(st, rules, bufs[d, i])
            if d == 2:  # the last ply is counted, not played
                total += count_legal(st, rules, bufs[1])
                unmake_move(st)
            else:
                d -= 1
                bufs[d, N_AT] = legal_moves(st, rules, bufs[d])
                bufs[d, I_AT] = 0
        elif d == depth:
            return total
        else:
            d += 1
            unmake_move(st)


@njit(cache=True)
def perft(st, rules, depth):
    """Number of leaf nodes of the legal-move tree of ``depth`` plies (bulk-counted)."""
    bufs = np.empty((depth + 1, MAX_MOVES + 2), dtype=np.int32)
    return _perft(st, rules, depth, bufs)


@njit(cache=True)
def divide(st, rules, depth, out_moves, out_counts):
    """perft(depth - 1) below each legal move; returns the number of moves."""
    n = legal_moves(st, rules, out_moves)
    bufs = np.empty((depth + 1, MAX_MOVES + 2), dtype=np.int32)
    for i in range(n):
        make_move(st, rules, out_moves[i])
        out_counts[i] = _perft(st, rules, depth - 1, bufs)
        unmake_move(st)
    return n
