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


@kernel
def _perft(st, rules, depth, bufs):
    if depth == 0:
        return 1
    if depth == 1:
        return count_legal(st, rules, bufs[1])
    buf = bufs[depth]
    n = legal_moves(st, rules, buf)
    total = 0
    for i in range(n):
        make_move(st, rules, buf[i])
        total += _perft(st, rules, depth - 1, bufs)
        unmake_move(st)
    return total


@njit(cache=True)
def perft(st, rules, depth):
    """Number of leaf nodes of the legal-move tree of ``depth`` plies (bulk-counted)."""
    bufs = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    return _perft(st, rules, depth, bufs)


@njit(cache=True)
def divide(st, rules, depth, out_moves, out_counts):
    """perft(depth - 1) below each legal move; returns the number of moves."""
    n = legal_moves(st, rules, out_moves)
    bufs = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    for i in range(n):
        make_move(st, rules, out_moves[i])
        out_counts[i] = _perft(st, rules, depth - 1, bufs)
        unmake_move(st)
    return n
