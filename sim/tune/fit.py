"""Fitting the tuned evaluation: the logistic loss of ``sigmoid(k * score)`` against the
positions' labels, minimised over the weights with scipy's L-BFGS-B.

``k`` is fixed at ``1 / 400``: the scale on which MCTS scores a position
(``1 / (1 + exp(-u / 400))``) and :mod:`sim.bots.scores` maps evaluations, so a tuned
evaluation's units keep their meaning (an evaluation of 400 expects 73%). The animal
values are free; the square tables, the danger penalties and the move bonus are held
towards 0 by a small ridge term (an animal's values and squares only add up, so the
ridge also decides how the two share a total). The loss is the mean binary cross
entropy with the labels as targets (a draw 0.5), in nats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.optimize as so
import scipy.sparse as sp
from scipy.special import expit

from sim.bots.evalbound import MAX_EVAL, tuned_reach
from sim.bots.evalformat import ANIMALS, N_WEIGHTS, Weights, from_vector

K = 1.0 / 400.0
DEFAULT_RIDGE = 1e-10
_EPS = 1e-12


def loss(scores: np.ndarray, labels: np.ndarray, k: float = K) -> float:
    """Mean cross entropy of ``sigmoid(k * scores)`` against ``labels`` (nats)."""
    if len(labels) == 0:
        return float("nan")
    p = np.clip(expit(k * scores), _EPS, 1 - _EPS)
    return float(-np.mean(labels * np.log(p) + (1 - labels) * np.log(1 - p)))


def best_k(scores: np.ndarray, labels: np.ndarray) -> float:
    """The ``k`` that fits ``scores`` best (how a fixed evaluation is compared fairly)."""
    res = so.minimize_scalar(
        lambda lk: loss(scores, labels, float(np.exp(lk))),
        bounds=(np.log(1e-5), np.log(1e-1)),
        method="bounded",
    )
    return float(np.exp(res.x))


@dataclass(frozen=True)
class Fitted:
    """A fit's weights (whole units), its losses (train, held-out) and iterations."""

    weights: Weights
    train_loss: float
    held_loss: float
    iterations: int
    converged: bool


def fit(
    x: sp.csr_matrix,
    y: np.ndarray,
    x_held: sp.csr_matrix,
    y_held: np.ndarray,
    start: Weights,
    ridge: float = DEFAULT_RIDGE,
    max_iter: int = 400,
    progress: Callable[[int, float, float], None] | None = None,
) -> Fitted:
    """Weights minimising the loss on ``x, y`` from ``start`` (see the module docstring;
    ``ridge`` per squared evaluation unit);
    ``progress(iteration, train loss, held-out loss)`` hears every 10 iterations."""
    # The optimiser works on u = k * w (scores in logits), where the gradients are O(1).
    n = x.shape[0]
    yy = np.asarray(y, dtype=np.float64)
    xt = x.T.tocsr()
    held_mask = np.ones(N_WEIGHTS)
    held_mask[:ANIMALS] = 0.0  # the values are not held towards 0
    r = ridge / (K * K)

    def f(u: np.ndarray) -> tuple[float, np.ndarray]:
        p = expit(x @ u)
        pc = np.clip(p, _EPS, 1 - _EPS)
        value = -np.mean(yy * np.log(pc) + (1 - yy) * np.log(1 - pc))
        grad = (xt @ (p - yy)) / n
        value += 0.5 * r * float(np.sum(held_mask * u * u))
        grad += r * held_mask * u
        return float(value), grad

    it = [0]

    def hear(u: np.ndarray) -> None:
        it[0] += 1
        if progress is not None and it[0] % 10 == 0:
            progress(it[0], f(u)[0], loss(x_held @ u, y_held, 1.0))

    res = so.minimize(
        f,
        K * start.vector(),
        jac=True,
        method="L-BFGS-B",
        callback=hear,
        options={"maxiter": max_iter, "maxcor": 20, "ftol": 1e-12, "gtol": 1e-9},
    )
    weights = within_reach(from_vector(res.x / K, start.order))
    w = weights.vector()
    return Fitted(
        weights=weights,
        train_loss=loss(x @ w, y),
        held_loss=loss(x_held @ w, y_held),
        iterations=int(res.nit),
        converged=bool(res.success),
    )


def within_reach(weights: Weights) -> Weights:
    """``weights``, scaled down as a whole (toward zero, whole units) when they could score
    beyond :data:`MAX_EVAL`: an evaluation never reaches the search's
    mate scores (the losses are those of the weights so scaled)."""
    w = weights
    reach = tuned_reach(w.material, w.squares, w.first_danger, w.second_danger, w.tempo)
    if reach <= MAX_EVAL:
        return weights
    vec = np.trunc(np.asarray(w.vector(), dtype=np.float64) * (MAX_EVAL / reach))
    return from_vector(vec, w.order)
