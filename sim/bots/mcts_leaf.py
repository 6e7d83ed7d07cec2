"""How the tree search of the ``mcts`` bot (:mod:`sim.bots.mcts_kernel`) scores a leaf.

A leaf is scored for the side to move by the static evaluation (``leaf=eval``) or by a
tactical settle (``leaf=qsearch``, :func:`settle`): the quiescence search of the
alpha-beta kernel (:func:`sim.bots.search.qsearch`: stand pat, captures and den entries
by victim, none when an enemy stands beside one's den), so a leaf in the middle of an
exchange or beside a den is scored after it. :func:`settle` is that search written as a
loop over its own stack (rows of ``ml``): numba's cache cannot load a kernel that calls a
recursive one from another module. Either score ``e`` (evaluation units, a mate
``±30000``) becomes the value ``1 / (1 + exp(-e / 400))``.

:func:`leaf_score` gives the score, :func:`to_value` the value; the tree's priors
(:func:`sim.bots.mcts_kernel.set_priors`) are values of the evaluation too.
"""

from __future__ import annotations

import math

import numpy as np

from engine import core
from engine.game import count_legal, legal_captures
from engine.jit import kernel
from sim.bots.evaluate import evaluate
from sim.bots.fast import den_threatened
from sim.bots.search_layout import INF, MATE, MAX_PLY, WS_SIZE
from sim.bots.search_order import _order, _pick

MM = core.MAX_MOVES
Q_ALPHA, Q_BETA, Q_BEST, Q_NEXT, Q_COUNT = range(2 * MM, 2 * MM + 5)
"""Columns of a row of ``ml`` holding one ply's search state (moves and their ordering
scores come first, as in :mod:`sim.bots.search_order`)."""

EVAL_SCALE = 400.0


def leaf_lists() -> np.ndarray:
    """The move lists and stack :func:`settle` needs (one row a ply)."""
    return np.zeros((MAX_PLY + 2, 2 * MM + 8), dtype=np.int32)


WORKSPACE_SIZE = WS_SIZE
"""The size of the ``params`` array :func:`sim.bots.mcts_kernel.mcts` takes (the
quiescence search's workspace, which holds the evaluation's weights where
:func:`evaluate` reads them)."""


@kernel
def to_value(score):
    """An evaluation score (for the side to move) as a value in [0, 1]."""
    return 1.0 / (1.0 + math.exp(-score / EVAL_SCALE))


@kernel
def leaf_score(st, rules, params, ml, leaf):
    """The score of ``st`` (game not over) for the side to move: the evaluation
    (``leaf`` 0), or a search of ``leaf - 1`` full plies and the quiescence search
    (``leaf`` 1: the quiescence search alone); ``params`` is a workspace of
    :data:`WORKSPACE_SIZE` with no budget set."""
    if leaf >= 1:
        return settle(st, rules, ml, params, leaf - 1)
    return evaluate(st, rules, params)


@kernel
def _open(st, rules, ml, ws, ply, depth):
    """Enter the node at ``ply`` (its window in ``ml[ply]``): below ``depth``, list and
    order every legal move; from there on stand pat, list and order its captures and den
    entries; returns whether any is left to search (else its score is
    ``ml[ply, Q_BEST]``)."""
    status = st[core.S_STATUS]
    if status != core.ONGOING:
        ml[ply, Q_BEST] = 0 if status == core.DRAWN else -(MATE - ply)
        return False
    if ply < depth:
        k = core.legal_moves(st, rules, ml[ply])
        if k == 0:
            ml[ply, Q_BEST] = -(MATE - ply)
            return False
        ml[ply, Q_BEST] = -INF
        ml[ply, Q_NEXT] = 0
        ml[ply, Q_COUNT] = _order(st, ml, k, ply, -1, ws, False)
        return True
    alpha = ml[ply, Q_ALPHA]
    beta = ml[ply, Q_BETA]
    if den_threatened(st, st[core.S_SIDE]):  # it enters next ply unless captured
        best = -(MATE - ply - 1)
    else:
        best = evaluate(st, rules, ws)
        if best >= beta or ply >= MAX_PLY - 1:
            ml[ply, Q_BEST] = best
            return False
    k = legal_captures(st, rules, ml[ply])
    if k == 0 and count_legal(st, rules, ml[ply]) == 0:
        ml[ply, Q_BEST] = -(MATE - ply)
        return False
    if best > alpha:
        ml[ply, Q_ALPHA] = best
    k = _order(st, ml, k, ply, -1, ws, True)
    ml[ply, Q_BEST] = best
    ml[ply, Q_NEXT] = 0
    ml[ply, Q_COUNT] = k
    return k > 0


@kernel
def _descend(st, rules, ml, ply):
    """Play the next move of the node at ``ply`` and set the child's window."""
    i = ml[ply, Q_NEXT]
    mv = _pick(ml, ply, i, ml[ply, Q_COUNT])
    ml[ply, Q_NEXT] = i + 1
    core.make_move(st, rules, mv)
    ml[ply + 1, Q_ALPHA] = -ml[ply, Q_BETA]
    ml[ply + 1, Q_BETA] = -ml[ply, Q_ALPHA]


@kernel
def settle(st, rules, ml, ws, depth):
    """The score of ``st`` for the side to move (``st`` restored afterwards) by an
    alpha-beta search of ``depth`` full plies ending in the quiescence search (``depth``
    0: :func:`sim.bots.search.qsearch` from ply 0 with a full window, without its
    budget)."""
    ply = 0
    ml[0, Q_ALPHA] = -INF
    ml[0, Q_BETA] = INF
    entering = True
    while True:
        if entering and _open(st, rules, ml, ws, ply, depth):
            _descend(st, rules, ml, ply)
            ply += 1
            continue
        score = ml[ply, Q_BEST]  # the node at ply is done
        if ply == 0:
            return score
        core.unmake_move(st)
        ply -= 1
        score = -score
        if score > ml[ply, Q_BEST]:
            ml[ply, Q_BEST] = score
            if score > ml[ply, Q_ALPHA]:
                ml[ply, Q_ALPHA] = score
        if ml[ply, Q_ALPHA] >= ml[ply, Q_BETA] or ml[ply, Q_NEXT] >= ml[ply, Q_COUNT]:
            entering = False
            continue
        _descend(st, rules, ml, ply)
        ply += 1
        entering = True
