"""Uniform-random playouts, compiled: the engine's speed benchmark and MCTS's default rollout."""

from __future__ import annotations

import numpy as np
from numba import njit

from engine import core
from engine.rng import rng_below


@njit(cache=True)
def random_playout(st, rules, rng, max_plies, buf):
    """Play uniformly random legal moves until the game ends or ``max_plies`` are played.

    Returns the plies played. The state must have history room for ``max_plies`` more.
    A game that ends sets the status (``core.settle`` records a ``no_moves`` loss).
    """
    plies = 0
    while plies < max_plies:
        n = core.settle(st, rules, buf)
        if n == 0:
            break
        core.make_move(st, rules, buf[rng_below(rng, n)])
        plies += 1
    if plies == max_plies:
        core.settle(st, rules, buf)
    return plies


@njit(cache=True)
def random_games(start, rules, rng, games, ply_cap, out):
    """Play ``games`` random games from ``start``; ``out`` gets [red wins, blue wins, draws,
    capped, total plies]."""
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    st = start.copy()
    for _ in range(games):
        st[:] = start
        plies = random_playout(st, rules, rng, ply_cap, buf)
        status = st[core.S_STATUS]
        if status == core.RED_WON:
            out[0] += 1
        elif status == core.BLUE_WON:
            out[1] += 1
        elif status == core.DRAWN:
            out[2] += 1
        else:
            out[3] += 1
        out[4] += plies
