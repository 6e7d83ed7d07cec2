"""The cheap bots as compiled kernels: ``random`` and ``greedy``, and a whole game between
two of them in one compiled loop (the referee's fast path).

Kinds: :data:`RANDOM` and :data:`GREEDY`. A kernel receives the legal moves already
generated (``buf[:n]``), draws randomness only from the generator ``rng`` it is given and
leaves the state as it found it.
"""

from __future__ import annotations

import time

import numpy as np
from numba import objmode

from engine import core
from engine.board import DENS, NEIGHBOURS
from engine.codes import ELEPHANT, H_CAPTURED, H_PIECE, H_TO, RAT, RED_WON
from engine.jit import kernel, njit
from engine.moves import chased_bits
from engine.rng import rng_below
from sim.bots.registry import FAST_GREEDY, FAST_RANDOM

# The kernel kinds, as registered with each bot kind in :mod:`sim.bots.registry`.
RANDOM = FAST_RANDOM
GREEDY = FAST_GREEDY
WIN_SCORE = 1 << 30
DEN_THREAT = 1 << 20


def _den_neighbours(side: int) -> tuple[int, int, int]:
    """The three squares beside ``side``'s den (Movement 1: one step away)."""
    found = [int(nb) for nb in NEIGHBOURS[DENS[side]] if nb >= 0]
    assert len(found) == 3
    return found[0], found[1], found[2]


DEN_NEIGHBOURS = (_den_neighbours(0), _den_neighbours(1))
"""The squares beside each side's den, as constants of the compiled code (no table read)."""


@kernel
def den_threatened(st, side):
    """Whether an enemy of ``side`` stands beside ``side``'s den (it can enter next ply)."""
    squares = DEN_NEIGHBOURS[0] if side == 0 else DEN_NEIGHBOURS[1]
    for nb in squares:
        occ = st[nb]
        if occ != 0 and core.side_of(occ) != side:
            return True
    return False


@kernel
def hanging_value(st, rules, side, values):
    """The largest value among ``side``'s pieces that an enemy piece could capture now."""
    worst = 0
    chased = chased_bits(st, rules, side)  # the pieces core.is_chased finds chased
    for animal in range(RAT, ELEPHANT + 1):
        code = side * 8 + animal
        sq = st[core.P_SQ + code]
        if sq >= 0 and ((chased >> sq) & 1) != 0:
            v = values[animal - 1]
            if v > worst:
                worst = v
    return worst


@kernel
def greedy_score(st, rules, mv, values, scratch):
    """The greedy bot's score of move ``mv`` for the side to move (state left unchanged)."""
    side = st[core.S_SIDE]
    captured = st[mv & 63]
    core.make_move(st, rules, mv)
    status = st[core.S_STATUS]
    if status == RED_WON + side:
        score = WIN_SCORE
    else:
        score = 0
        if captured != 0:
            score += values[core.animal_of(captured) - 1]
        if status == core.ONGOING:
            enemy = 1 - side
            if st[core.S_COUNT + enemy] <= 2 and core.legal_moves(st, rules, scratch) == 0:
                score = WIN_SCORE
            elif den_threatened(st, side):
                score -= DEN_THREAT
            else:
                score -= hanging_value(st, rules, side, values)
    core.unmake_move(st)
    return score


@kernel
def greedy_choose(st, rules, rng, buf, n, values, scratch):
    """The greedy bot's move among ``buf[:n]``: best score, uniform among equals."""
    best = -(1 << 62)
    ties = 0
    choice = buf[0]
    for i in range(n):
        s = greedy_score(st, rules, buf[i], values, scratch)
        if s > best:
            best = s
            ties = 1
            choice = buf[i]
        elif s == best:
            ties += 1
            if rng_below(rng, ties) == 0:
                choice = buf[i]
    return choice


@kernel
def fast_choose(kind, st, rules, rng, buf, n, values, scratch):
    """Dispatch to the ``random`` or ``greedy`` kernel."""
    if kind == GREEDY:
        return greedy_choose(st, rules, rng, buf, n, values, scratch)
    return buf[rng_below(rng, n)]


@kernel
def play_fast(
    st, rules, kinds, values, rng_open, rng_red, rng_blue, forced, opening_plies, ply_cap,
    out_moves, buf, scratch,
):  # fmt: skip
    """Play a whole game from ``st`` between two fast bots (``kinds[side]``).

    The first plies are the moves ``forced`` (an opening suite's line, legal: checked when
    the suite was read), the next ``opening_plies`` uniform draws from ``rng_open``. ``out_moves``
    gets the moves; ``buf`` and ``scratch`` are move lists of ``core.MAX_MOVES`` entries.
    Returns ``(plies, sum of legal-move counts where a move was chosen)``. A game stopped
    by ``ply_cap`` leaves the status ongoing (unless the last position is finished, which
    ``settle`` records).
    """
    plies = 0
    branch = 0
    while plies < ply_cap:
        n = core.settle(st, rules, buf)
        if n == 0:
            break
        branch += n
        if plies < forced.shape[0]:
            mv = forced[plies]
        elif plies < forced.shape[0] + opening_plies:
            mv = buf[rng_below(rng_open, n)]
        else:
            side = st[core.S_SIDE]
            rng = rng_red if side == 0 else rng_blue
            if kinds[side] == GREEDY:
                mv = greedy_choose(st, rules, rng, buf, n, values, scratch)
            else:
                mv = buf[rng_below(rng, n)]
        out_moves[plies] = mv
        core.make_move(st, rules, mv)
        plies += 1
    if plies == ply_cap:
        core.settle(st, rules, buf)
    return plies, branch


@kernel
def write_captures(st, plies, out, k):
    """Write the captures of the first ``plies`` plies of the history into ``out`` as rows
    ``(ply, capturer, captured, square)`` from row ``k`` on; return the next free row."""
    for i in range(plies):
        base = core.HEADER + i * core.HIST_SIZE
        if st[base + H_CAPTURED] != 0:
            out[k, 0] = i
            out[k, 1] = st[base + H_PIECE]
            out[k, 2] = st[base + H_CAPTURED]
            out[k, 3] = st[base + H_TO]
            k += 1
    return k


@njit(cache=True)
def capture_table(st, plies):
    """The captures of the first ``plies`` plies as rows ``(ply, capturer, captured, to)``."""
    count = 0
    for i in range(plies):
        if st[core.HEADER + i * core.HIST_SIZE + H_CAPTURED] != 0:
            count += 1
    out = np.empty((count, 4), dtype=np.int32)
    write_captures(st, plies, out, 0)
    return out


@kernel
def write_summary(st, plies, branch, out):
    """``out[:SUMMARY_SIZE]`` = ``[plies, legal-move sum, status, reason, Red pieces, Blue
    pieces, code of the last mover]`` of a game just played in ``st``."""
    out[0] = plies
    out[1] = branch
    out[2] = st[core.S_STATUS]
    out[3] = st[core.S_REASON]
    out[4] = st[core.S_COUNT]
    out[5] = st[core.S_COUNT + 1]
    out[6] = st[core.HEADER + (plies - 1) * core.HIST_SIZE + H_PIECE] if plies > 0 else 0


SUMMARY_SIZE = 7


@njit(cache=True)
def fast_game(start, rules, kinds, values, rngs, forced, opening_plies, ply_cap):
    """A whole game between two fast bots from the state ``start``, in one call, its first
    moves ``forced`` (int32 codes; empty: none), then ``opening_plies`` random ones.

    ``rngs`` holds three generator words (opening, Red, Blue). Returns one int64
    array: the summary ``[plies, legal-move sum, status, reason, Red pieces, Blue pieces,
    code of the last mover]``, then the ``plies`` moves, then the capture rows of
    :func:`capture_table` flattened (4 numbers each).
    """
    size = core.HEADER + core.HIST_SIZE * (ply_cap + 1)
    st = np.zeros(max(size, start.shape[0]), dtype=np.int32)
    st[: start.shape[0]] = start
    moves = np.empty(ply_cap, dtype=np.int32)
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    scratch = np.empty(core.MAX_MOVES, dtype=np.int32)
    plies, branch = play_fast(
        st,
        rules,
        kinds,
        values,
        rngs[0:1],
        rngs[1:2],
        rngs[2:3],
        forced,
        opening_plies,
        ply_cap,
        moves,
        buf,
        scratch,
    )
    caps = capture_table(st, plies)
    out = np.empty(SUMMARY_SIZE + plies + 4 * caps.shape[0], dtype=np.int64)
    write_summary(st, plies, branch, out)
    for i in range(plies):
        out[SUMMARY_SIZE + i] = moves[i]
    k = SUMMARY_SIZE + plies
    for r in range(caps.shape[0]):
        for c in range(4):
            out[k] = caps[r, c]
            k += 1
    return out


MAX_CAPTURES = 32  # a game has at most 15 captures by each side
SLICE = 64  # games between two looks at the clock


@njit(cache=True)
def now_us():
    """Microseconds of ``time.perf_counter`` (through numba's object mode)."""
    with objmode(t="int64"):
        t = int(time.perf_counter() * 1e6)
    return t


@njit(cache=True)
def fast_games(start, rules, kinds, values, rngs, opening_plies, ply_cap, deadline_us=0):
    """Many games between fast bots from the one state ``start``: :func:`fast_games_from`
    with every game from ``start`` and no forced moves."""
    starts = start[: core.HEADER].copy().reshape(1, core.HEADER)
    which = np.zeros(kinds.shape[0], dtype=np.int64)
    forced = np.zeros(0, dtype=np.int32)
    offsets = np.zeros(2, dtype=np.int64)
    return fast_games_from(
        starts, which, forced, offsets, rules, kinds, values, rngs, opening_plies, ply_cap,
        deadline_us,
    )  # fmt: skip


@njit(cache=True, nogil=True)  # the driver records one chunk while the next one plays
def fast_games_from(
    starts, which, forced, forced_offsets, rules, kinds, values, rngs, opening_plies, ply_cap,
    deadline_us=0,
):  # fmt: skip
    """Many games between fast bots in one call, in columnar form (the simulator's fast path).

    Game ``i`` starts from the state header ``starts[which[i]]`` (a position without history)
    with the forced moves ``forced[forced_offsets[w]:forced_offsets[w + 1]]``, ``w =
    which[i]`` (an opening suite's line), and is exactly ``fast_game(start, rules, kinds[i],
    values, rngs[i], those moves, ...)``. The games are played in order until all are done
    or, with ``deadline_us > 0``, the clock (:func:`now_us`, read every ``SLICE`` games) has
    passed it; at least one game is played.
    Returns ``(summary, moves, move_offsets, captures, capture_offsets)`` of the games
    played: ``summary[i]`` as in :func:`fast_game`; game ``i``'s moves are
    ``moves[move_offsets[i]:move_offsets[i + 1]]`` and its capture rows
    ``captures[capture_offsets[i]:...]``.
    """
    out, moves, move_offsets, captures, capture_offsets = play_chunk(
        starts, which, forced, forced_offsets, rules, kinds, values, rngs, opening_plies,
        ply_cap, deadline_us, True,
    )  # fmt: skip
    return out[:, :SUMMARY_SIZE].copy(), moves, move_offsets, captures, capture_offsets


@njit(cache=True, nogil=True)
def fast_outcomes_from(
    starts, which, forced, forced_offsets, rules, kinds, values, rngs, opening_plies, ply_cap,
    deadline_us=0,
):  # fmt: skip
    """:func:`fast_games_from`'s games without their moves (``--record outcomes``): row ``i``
    is game ``i``'s summary, then the captures Red and Blue made (``OUTCOME_SIZE`` int64s)."""
    return play_chunk(
        starts, which, forced, forced_offsets, rules, kinds, values, rngs, opening_plies,
        ply_cap, deadline_us, False,
    )[0]  # fmt: skip


OUTCOME_SIZE = SUMMARY_SIZE + 2  # the summary, then Red's and Blue's captures


@njit(cache=True, nogil=True)
def play_chunk(
    starts, which, forced, forced_offsets, rules, kinds, values, rngs, opening_plies, ply_cap,
    deadline_us, keep_moves,
):  # fmt: skip
    """The loop of :func:`fast_games_from` and :func:`fast_outcomes_from`: a row of summary
    for each game played and, with ``keep_moves``, its moves and capture rows (else empty);
    without, the row's last two numbers count the captures of Red and of Blue."""
    n = kinds.shape[0]
    size = core.HEADER + core.HIST_SIZE * (ply_cap + 1)
    st = np.zeros(max(size, starts.shape[1]), dtype=np.int32)
    game_moves = np.empty(ply_cap, dtype=np.int32)
    out = np.zeros((n, OUTCOME_SIZE), dtype=np.int64)
    kept = n if keep_moves else 0
    moves = np.empty(max(ply_cap, kept * min(ply_cap, 256)), dtype=np.uint16)  # grows
    move_offsets = np.zeros(kept + 1, dtype=np.int32)
    captures = np.empty((kept * MAX_CAPTURES, 4), dtype=np.int32)
    capture_offsets = np.zeros(kept + 1, dtype=np.int32)
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
        plies, branch = play_fast(
            st, rules, kinds[g], values, rng[0:1], rng[1:2], rng[2:3],
            forced[forced_offsets[w] : forced_offsets[w + 1]], opening_plies, ply_cap,
            game_moves, buf, scratch,
        )  # fmt: skip
        write_summary(st, plies, branch, out[g])
        if not keep_moves:  # the capture counts only (kept games have their capture rows)
            for i in range(plies):
                base = core.HEADER + i * core.HIST_SIZE
                if st[base + H_CAPTURED] != 0:
                    out[g, SUMMARY_SIZE + (1 if st[base + H_PIECE] > 8 else 0)] += 1
            continue
        m0 = move_offsets[g]
        if m0 + plies > moves.shape[0]:
            bigger = np.empty(2 * moves.shape[0] + plies, dtype=np.uint16)
            bigger[:m0] = moves[:m0]
            moves = bigger
        for i in range(plies):
            moves[m0 + i] = game_moves[i]
        move_offsets[g + 1] = m0 + plies
        capture_offsets[g + 1] = write_captures(st, plies, captures, capture_offsets[g])
    k = played if keep_moves else 0
    return (
        out[:played],
        moves[: move_offsets[k]].copy(),
        move_offsets[: k + 1],
        captures[: capture_offsets[k]],
        capture_offsets[: k + 1],
    )
