"""The tuned evaluation as a linear model: each quiet position's features, so that its
score for the side to move is ``features @ weights`` (the vector of
:meth:`sim.bots.evalformat.Weights.vector`), exactly what
:func:`sim.bots.evaluate.evaluate_tuned` computes; and the scores of a real kernel
evaluation over the same positions (the classic one, for comparison).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from engine import core
from engine.board import NSQ
from engine.jit import kernel
from engine.rules import Ruleset
from sim.bots.evalformat import ANIMALS, N_WEIGHTS, Weights
from sim.bots.evaluate import PLACE, evaluate
from sim.bots.params import DEFAULT_VALUES
from sim.bots.piece_values import values_array
from sim.tune.positions import Positions

SQUARES_AT = ANIMALS
FIRST_AT = ANIMALS + ANIMALS * NSQ
SECOND_AT = FIRST_AT + ANIMALS
TEMPO_AT = SECOND_AT + ANIMALS


@kernel
def _fill_rows(squares, side, first, second, indptr, indices, data):
    k = 0
    for i in range(squares.shape[0]):
        indptr[i] = k
        mover = side[i]
        for code in range(1, 17):
            sq = squares[i, code - 1]
            if sq < 0:
                continue
            owner = (code - 1) // 8
            animal = code - 8 * owner
            sign = 1.0 if owner == mover else -1.0
            own = sq if owner == 0 else NSQ - 1 - sq
            indices[k] = animal - 1
            data[k] = sign
            indices[k + 1] = SQUARES_AT + (animal - 1) * NSQ + own
            data[k + 1] = sign
            k += 2
        if first[i] > 0:
            indices[k] = FIRST_AT + first[i] - 1
            data[k] = -1.0
            k += 1
        if second[i] > 0:
            indices[k] = SECOND_AT + second[i] - 1
            data[k] = -1.0
            k += 1
        indices[k] = TEMPO_AT
        data[k] = 1.0
        k += 1
    indptr[squares.shape[0]] = k
    return k


def design(pos: Positions) -> sp.csr_matrix:
    """The features of every position (rows) for the weights (columns): +1 for each of the
    mover's animals (its value and its square, seen from its owner's side), -1 for each of
    the other's, -1 for the mover's first and second animals in danger, +1 for the move."""
    n = len(pos)
    cap = int(2 * (pos.squares >= 0).sum()) + 3 * n
    indptr = np.zeros(n + 1, dtype=np.int64)
    indices = np.zeros(cap, dtype=np.int32)
    data = np.zeros(cap, dtype=np.float64)
    k = int(_fill_rows(pos.squares, pos.side, pos.first, pos.second, indptr, indices, data))
    # within a row the square columns follow the value columns: sorted per animal block
    m = sp.csr_matrix((data[:k], indices[:k], indptr), shape=(n, N_WEIGHTS))
    m.sum_duplicates()
    return m


def danger_order(rules: Ruleset) -> tuple[int, ...]:
    """The animals 1..8 by the classic values under ``rules``, most valuable first (ties:
    the stronger animal first): the order the danger weights are read in."""
    values = values_array(DEFAULT_VALUES, rules)
    return tuple(int(a) + 1 for a in sorted(range(ANIMALS), key=lambda a: (-values[a], -a)))


def classic_start(rules: Ruleset) -> Weights:
    """Weights close to the classic evaluation: its values and its advance and defence
    tables, a danger penalty of half the second piece's value and a quarter of the first's."""
    values = values_array(DEFAULT_VALUES, rules)
    squares = tuple(
        tuple(int(PLACE[a, sq]) for sq in range(NSQ))  # Red's: codes 1..8
        for a in range(1, ANIMALS + 1)
    )
    return Weights(
        material=tuple(int(v) for v in values),
        squares=squares,
        first_danger=tuple(int(v) // 4 for v in values),
        second_danger=tuple(int(v) // 2 for v in values),
        tempo=0,
        order=danger_order(rules),
    )


@kernel
def _kernel_scores(squares, side, rules, params, st, out):
    for i in range(squares.shape[0]):
        st[:] = 0
        for code in range(1, 17):
            sq = squares[i, code - 1]
            st[core.P_SQ + code] = sq
            if sq >= 0:
                st[sq] = code
                st[core.S_COUNT + (code - 1) // 8] += 1
        st[core.S_SIDE] = side[i]
        st[core.S_STATUS] = core.ONGOING
        out[i] = evaluate(st, rules, params)


def kernel_scores(pos: Positions, rules: Ruleset, params: np.ndarray) -> np.ndarray:
    """The compiled evaluation's score of each position for the side to move (``params``:
    as :func:`sim.bots.evaluate.params_array` builds it)."""
    out = np.zeros(len(pos), dtype=np.float64)
    _kernel_scores(pos.squares, pos.side, rules.as_array(), params, core.new_state(2), out)
    return out
