"""The values the ``mcts`` tree reads from the evaluation: a leaf's value and the children's
priors (the progressive bias).

A leaf is scored for the side to move by the static evaluation (``leaf=eval``) or by a
tactical settle (``leaf=qsearch``): the alpha-beta kernel's quiescence search over
captures and den entries (:func:`sim.bots.search.qsearch`), so a leaf in the middle of an
exchange or beside a den is scored after it. Either score ``e`` (evaluation units, a mate
``±30000``) becomes the value ``1 / (1 + exp(-e / 400))``.

A child's prior is the value of the position after its move for the side that made it,
by the static evaluation (1 for a move that wins, 0.5 for a draw): UCT adds
``bias * prior / (visits + 1)`` and takes the prior as the value of a child not visited
yet, so the search looks at the moves the evaluation likes first.
"""

from __future__ import annotations

import math

import numpy as np

from engine import core
from engine.codes import RED_WON
from engine.jit import kernel
from sim.bots.evaluate import evaluate
from sim.bots.search import INF, MAX_PLY, WS_SIZE, qsearch

EVAL_SCALE = 400.0
F_PRIOR = 2  # tree_f column of a child's prior (see sim.bots.mcts_kernel)


def leaf_lists() -> np.ndarray:
    """The move lists :func:`leaf_score` needs (the quiescence search's, one row a ply)."""
    return np.zeros((MAX_PLY + 2, 2 * core.MAX_MOVES), dtype=np.int32)


WORKSPACE_SIZE = WS_SIZE
"""The size of the ``params`` array the kernel takes (the quiescence search's workspace,
which holds the evaluation's weights where :func:`evaluate` reads them)."""


@kernel
def to_value(score):
    """An evaluation score (for the side to move) as a value in [0, 1]."""
    return 1.0 / (1.0 + math.exp(-score / EVAL_SCALE))


@kernel
def leaf_score(st, rules, params, ml, leaf):
    """The score of ``st`` (game not over) for the side to move: the evaluation
    (``leaf`` 0) or the quiescence search (``leaf`` 1); ``params`` is a workspace of
    :data:`WORKSPACE_SIZE` with no budget set."""
    if leaf == 1:
        return qsearch(st, rules, ml, params, 0, 0, -INF, INF)
    return evaluate(st, rules, params)


@kernel
def set_priors(st, rules, params, tree_i, tree_f, first, n):
    """Give the children ``first .. first + n - 1`` (their moves in ``tree_i``) their
    priors: the value of the position after the move for the side that made it."""
    side = st[core.S_SIDE]
    for k in range(n):
        ch = first + k
        core.make_move(st, rules, tree_i[ch, 1])
        status = st[core.S_STATUS]
        if status == core.ONGOING:
            p = 1.0 - to_value(evaluate(st, rules, params))
        elif status == core.DRAWN:
            p = 0.5
        else:
            p = 1.0 if status == RED_WON + side else 0.0
        core.unmake_move(st)
        tree_f[ch, F_PRIOR] = p
