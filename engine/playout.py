"""Uniform-random playouts, compiled: the engine's speed benchmark and MCTS's default rollout."""

from __future__ import annotations

import numpy as np

from engine.codes import BLUE_WON, DRAWN, HIST_SIZE, RED_WON
from engine.game import make_move, settle
from engine.jit import kernel, njit
from engine.rng import rng_below
from engine.state import HEADER, MAX_MOVES, S_NPLY, S_STATUS


@kernel
def random_playout(st, rules, rng, max_plies, buf):
    """Play uniformly random legal moves until the game ends or ``max_plies`` are played.

    Returns the plies played. The state must have history room for ``max_plies`` more.
    A game that ends sets the status (``settle`` records a ``no_moves`` loss, End 4).
    """
    plies = 0
    while plies < max_plies:
        n = settle(st, rules, buf)
        if n == 0:
            break
        make_move(st, rules, buf[rng_below(rng, n)])
        plies += 1
    if plies == max_plies:
        settle(st, rules, buf)
    return plies


@njit(cache=True)
def random_games(start, rules, rng, games, ply_cap, out):
    """Play ``games`` random games from ``start``; ``out`` gets [red wins, blue wins, draws,
    capped, total plies]."""
    buf = np.empty(MAX_MOVES, dtype=np.int32)
    st = start.copy()
    used = HEADER + HIST_SIZE * start[S_NPLY]  # the position and its history
    for _ in range(games):
        st[:used] = start[:used]
        plies = random_playout(st, rules, rng, ply_cap, buf)
        status = st[S_STATUS]
        if status == RED_WON:
            out[0] += 1
        elif status == BLUE_WON:
            out[1] += 1
        elif status == DRAWN:
            out[2] += 1
        else:
            out[3] += 1
        out[4] += plies
