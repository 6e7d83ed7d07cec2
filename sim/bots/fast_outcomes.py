"""The fast path's games without their moves (``dsq simulate --record outcomes``): the
same compiled games as :func:`sim.bots.fast.fast_games_from`, keeping only each game's
summary and its capture counts."""

from __future__ import annotations

import numpy as np

from engine import core
from engine.codes import H_CAPTURED, H_PIECE
from engine.jit import kernel, njit
from engine.rng import rng_below
from sim.bots.fast import RANDOM, SLICE, SUMMARY_SIZE, now_us, play_fast, write_summary

OUTCOME_SIZE = SUMMARY_SIZE + 2  # the summary, then Red's and Blue's captures


@kernel
def random_game(st, rules, rng_open, rng_red, rng_blue, opening_plies, ply_cap, buf):
    """:func:`sim.bots.fast.play_fast` between two ``random`` bots without forced moves,
    keeping no move: the same draws from the same generators, so the same game."""
    plies = 0
    branch = 0
    while plies < ply_cap:
        n = core.settle(st, rules, buf)
        if n == 0:
            break
        branch += n
        if plies < opening_plies:
            mv = buf[rng_below(rng_open, n)]
        elif st[core.S_SIDE] == 0:
            mv = buf[rng_below(rng_red, n)]
        else:
            mv = buf[rng_below(rng_blue, n)]
        core.make_move(st, rules, mv)
        plies += 1
    if plies == ply_cap:
        core.settle(st, rules, buf)
    return plies, branch


@njit(cache=True, nogil=True)
def fast_outcomes_from(
    starts,
    which,
    forced,
    forced_offsets,
    rules,
    kinds,
    values,
    rngs,
    opening_plies,
    ply_cap,
    deadline_us=0,
):
    """:func:`sim.bots.fast.fast_games_from`'s games (same arguments, same deadline rule),
    returning only ``out[i]`` = game ``i``'s summary followed by the captures Red and Blue
    made, for the games played (a ``(played, OUTCOME_SIZE)`` int64 array)."""
    n = kinds.shape[0]
    size = core.HEADER + core.HIST_SIZE * (ply_cap + 1)
    st = np.zeros(max(size, starts.shape[1]), dtype=np.int32)
    game_moves = np.empty(ply_cap, dtype=np.int32)
    out = np.empty((n, OUTCOME_SIZE), dtype=np.int64)
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    scratch = np.empty(core.MAX_MOVES, dtype=np.int32)
    played = n
    for g in range(n):
        if deadline_us > 0 and g > 0 and g % SLICE == 0 and now_us() >= deadline_us:
            played = g
            break
        w = which[g]
        st[: core.HEADER] = starts[w, : core.HEADER]
        rng = rngs[g]
        if (
            kinds[g, 0] == RANDOM
            and kinds[g, 1] == RANDOM
            and forced_offsets[w + 1] == forced_offsets[w]
        ):
            plies, branch = random_game(
                st, rules, rng[0:1], rng[1:2], rng[2:3], opening_plies, ply_cap, buf
            )
        else:
            plies, branch = play_fast(
                st,
                rules,
                kinds[g],
                values,
                rng[0:1],
                rng[1:2],
                rng[2:3],
                forced[forced_offsets[w] : forced_offsets[w + 1]],
                opening_plies,
                ply_cap,
                game_moves,
                buf,
                scratch,
            )
        write_summary(st, plies, branch, out[g])
        red = 0
        blue = 0
        for i in range(plies):
            base = core.HEADER + i * core.HIST_SIZE
            if st[base + H_CAPTURED] != 0:
                if st[base + H_PIECE] <= 8:
                    red += 1
                else:
                    blue += 1
        out[g, SUMMARY_SIZE] = red
        out[g, SUMMARY_SIZE + 1] = blue
    return out[:played]
