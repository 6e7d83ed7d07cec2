"""The alpha-beta search kernel: negamax with principal-variation search, a Zobrist
transposition table, move ordering (table move, den entries, captures by victim value,
killers, history) and a quiescence search over captures and den entries.

One call searches one iteration to a fixed depth; :mod:`sim.bots.alphabeta` drives the
iterative deepening. Budgets live in ``ws``: a node limit (checked at every node) and a
deadline in microseconds of ``time.perf_counter`` (read through ``numba.objmode`` every
1024 nodes, since nopython code has no clock). When a budget runs out the kernel sets
``ws[C_ABORT]`` and unwinds; the driver then discards that unfinished iteration.

Scores are for the side to move. A win ``p`` plies from the root scores ``MATE - p`` and
a loss ``-(MATE - p)``, so the search prefers the shortest win and the longest defence.
Wins and losses come from the engine's own status (den, capture-all, no-capture draw)
and from positions with no legal move; ``core.legal_moves`` reads the history kept in
the state, so a move the repetition rules forbid is unavailable at every depth.

The table is probed at a random slot, a load from main memory: a node whose children
probe it starts loading each child's slot early (:func:`engine.prefetch.prefetch_row`),
the table move's as soon as it is known and every other one while the move before it is
searched; history scores live in eight entries per square
(:func:`sim.bots.search_order.history_slot`), a table small enough to stay in the cache.
Neither changes what is searched.

Few arrays cross the recursive calls (numba passes each array as a wide struct):
``tt`` (``int64[entries, 2]``: key, packed data), ``ml`` (``int32[ply, 2 * MAX_MOVES]``:
moves, then their ordering scores), ``pv`` (triangular table, length first) and ``ws``
(``int64``: control words ``C_*``, the animal values at ``V_OFF``, history and killers);
their layout and the scores' scale are in :mod:`sim.bots.search_layout`, the position
hashes in :mod:`sim.bots.search_hash`, the move lists' ordering in
:mod:`sim.bots.search_order`.
"""

from __future__ import annotations

import numpy as np

from engine import core
from engine.game import legal_captures_or_none
from engine.jit import kernel
from engine.prefetch import prefetch_row
from sim.bots.evaluate import evaluate
from sim.bots.fast import den_threatened, now_us
from sim.bots.search_hash import child_slot, make_hashed, repeated, tt_key_of
from sim.bots.search_layout import (
    C_ABORT,
    C_BUDGET,
    C_DEADLINE,
    C_LIMIT,
    C_NODES,
    C_NOISE,
    C_SALT,
    C_SELDEPTH,
    HIST_OFF,
    HIST_USED,
    INF,
    KILL_OFF,
    MATE,
    MATE_BOUND,
    MAX_PLY,
    X_CONTEMPT,
    X_LMR,
    X_ROOT_SIDE,
)
from sim.bots.search_order import LATE, _gen, _order, _pick, history_slot

SCORE_OFFSET = 1 << 19
EXACT, LOWER, UPPER = 0, 1, 2
MM = core.MAX_MOVES


@kernel
def draw_value(st, ws):
    """A draw for the side to move: ``-contempt`` for the side to move at the root."""
    if st[core.S_SIDE] == ws[X_ROOT_SIDE]:
        return -ws[X_CONTEMPT]
    return ws[X_CONTEMPT]


@kernel
def _tick(ws):
    """Count a node; return True when a budget has run out (and record it)."""
    ws[C_NODES] += 1
    if ws[C_BUDGET] != 0:
        if ws[C_LIMIT] > 0 and ws[C_NODES] >= ws[C_LIMIT]:
            ws[C_ABORT] = 1
        elif ws[C_DEADLINE] > 0 and (ws[C_NODES] & 1023) == 0:
            if now_us() >= ws[C_DEADLINE]:
                ws[C_ABORT] = 1
    return ws[C_ABORT] != 0


@kernel
def noisy_eval(st, rules, ws, h):
    """The evaluation plus the seeded noise term in ``[-noise, noise]`` (a function of the
    position's hash and the per-search salt, so a position always gets the same noise)."""
    score = evaluate(st, rules, ws)
    noise = ws[C_NOISE]
    if noise > 0:
        x = h ^ ws[C_SALT]
        x ^= x >> 31
        x ^= x << 17
        x ^= x >> 23
        x ^= x << 5
        score += (x >> 8) % (2 * noise + 1) - noise
    return score


@kernel
def qsearch(st, rules, ml, ws, h, ply, alpha, beta):
    """Quiescence: stand pat, then captures and den entries only."""
    if _tick(ws):
        return 0
    status = st[core.S_STATUS]
    if status != core.ONGOING:
        return draw_value(st, ws) if status == core.DRAWN else -(MATE - ply)
    if ply > ws[C_SELDEPTH]:
        ws[C_SELDEPTH] = ply
    side = st[core.S_SIDE]
    # An enemy beside our den enters it next ply unless a capture removes it: no stand pat.
    threatened = den_threatened(st, side)
    if threatened:
        best = -(MATE - ply - 1)
    else:
        best = noisy_eval(st, rules, ws, h)
        if best >= beta or ply >= MAX_PLY - 1:
            return best
    # The captures and den entries; with none, whether there is any legal move at all.
    k, none = legal_captures_or_none(st, rules, ml[ply])
    if none:
        return -(MATE - ply)
    if best > alpha:
        alpha = best
    k = _order(st, ml, k, ply, -1, ws, True)
    for i in range(k):
        mv = ml[ply, 0] if i == 0 else _pick(ml, ply, i, k)
        h2 = make_hashed(st, rules, mv, h)
        score = -qsearch(st, rules, ml, ws, h2, ply + 1, -beta, -alpha)
        core.unmake_move(st)
        if ws[C_ABORT] != 0:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


@kernel
def _store(tt, slot, key, best, ply, depth, flag, best_move):
    stored = best
    if stored > MATE_BOUND:
        stored += ply
    elif stored < -MATE_BOUND:
        stored -= ply
    tt[slot, 0] = key
    tt[slot, 1] = (
        (stored + SCORE_OFFSET) | (depth << 20) | (flag << 28) | (np.int64(best_move) << 30)
    )


@kernel
def horizon(st, rules, ml, pv, ws, h, ply, alpha, beta):
    """What :func:`search` does with no depth left, without its many arguments: a finished
    game's score, else the quiescence search (called straight from the node above)."""
    pv[ply, 0] = 0
    status = st[core.S_STATUS]
    if status != core.ONGOING:
        return draw_value(st, ws) if status == core.DRAWN else -(MATE - ply)
    return qsearch(st, rules, ml, ws, h, ply, alpha, beta)


@kernel(nogil=True)  # another thread may stop it meanwhile (AlphaBetaBot.stop)
def search(st, rules, tt, ml, pv, ws, h, depth, ply, alpha, beta):
    """Negamax alpha-beta to ``depth`` plies from ``ply``; the score for the side to move."""
    pv[ply, 0] = 0
    status = st[core.S_STATUS]
    if status != core.ONGOING:
        return draw_value(st, ws) if status == core.DRAWN else -(MATE - ply)
    if depth <= 0 or ply >= MAX_PLY - 1:
        return qsearch(st, rules, ml, ws, h, ply, alpha, beta)
    if ply > 0 and repeated(st, ws, h):
        return draw_value(st, ws)
    if ply > 0:  # mate-distance pruning
        if alpha < -(MATE - ply):
            alpha = -(MATE - ply)
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
    if _tick(ws):
        return 0
    alpha0 = alpha
    key = tt_key_of(st, rules, h)
    mask = tt.shape[0] - 1
    slot = key & mask
    tt_move = -1
    if tt[slot, 0] == key:
        data = tt[slot, 1]
        tt_move = data >> 30
        if depth > 1:  # it is searched first: start loading its child's slot
            prefetch_row(tt, child_slot(st, rules, tt_move, h, mask))
        tdepth = (data >> 20) & 255
        flag = (data >> 28) & 3
        tscore = (data & (SCORE_OFFSET * 2 - 1)) - SCORE_OFFSET
        if tscore > MATE_BOUND:
            tscore -= ply
        elif tscore < -MATE_BOUND:
            tscore += ply
        if ply > 0 and tdepth >= depth:
            if flag == EXACT:
                return tscore
            if flag == LOWER and tscore >= beta:
                return tscore
            if flag == UPPER and tscore <= alpha:
                return tscore
    n = _gen(st, rules, ml, ply)
    if n == 0:
        return -(MATE - ply)
    n = _order(st, ml, n, ply, tt_move, ws, False)
    best = -INF
    best_move = ml[ply, 0]
    # Children above the quiescence search probe the table: each one's slot is loaded a
    # move ahead (the picks do not depend on the searches between them).
    ahead = depth > 1
    leaf = depth <= 1 or ply + 1 >= MAX_PLY - 1  # the children are quiescence searches
    reduce = ws[X_LMR] != 0 and depth >= 3  # late-move reductions (the bot's lmr)
    mv = ml[ply, 0]
    if ahead and mv != tt_move:
        prefetch_row(tt, child_slot(st, rules, mv, h, mask))
    nxt = mv
    for i in range(n):
        if i > 0:
            mv = nxt if ahead else _pick(ml, ply, i, n)
        if ahead and i + 1 < n:
            nxt = _pick(ml, ply, i + 1, n)
            prefetch_row(tt, child_slot(st, rules, nxt, h, mask))
        capture = st[mv & 63] != 0
        h2 = make_hashed(st, rules, mv, h)
        lo = -beta if i == 0 else -alpha - 1  # the first move's full window, then null ones
        if leaf:
            score = -horizon(st, rules, ml, pv, ws, h2, ply + 1, lo, -alpha)
            if i > 0 and alpha < score < beta:
                score = -horizon(st, rules, ml, pv, ws, h2, ply + 1, -beta, -alpha)
        else:
            score = alpha + 1  # searched to full depth unless a reduced search fails low
            if reduce and i >= 3 and ml[ply, MM + i] < LATE:  # a late quiet move
                d = depth - 2 if i < 8 or depth < 5 else depth - 3
                score = -search(st, rules, tt, ml, pv, ws, h2, d, ply + 1, -alpha - 1, -alpha)
            if score > alpha:
                score = -search(st, rules, tt, ml, pv, ws, h2, depth - 1, ply + 1, lo, -alpha)
                if i > 0 and alpha < score < beta:
                    score = -search(
                        st, rules, tt, ml, pv, ws, h2, depth - 1, ply + 1, -beta, -alpha
                    )
        core.unmake_move(st)
        if ws[C_ABORT] != 0:
            return 0
        if score > best:
            best = score
            best_move = mv
            if score > alpha:
                alpha = score
                pv[ply, 1] = mv
                length = pv[ply + 1, 0]
                for j in range(length):
                    pv[ply, 2 + j] = pv[ply + 1, 1 + j]
                pv[ply, 0] = length + 1
                if alpha >= beta:
                    if not capture:
                        k = KILL_OFF + 2 * ply
                        if ws[k] != mv:
                            ws[k + 1] = ws[k]
                            ws[k] = mv
                        hs = HIST_OFF + history_slot(mv)
                        ws[hs] += depth * depth
                        if ws[hs] > (1 << 20):
                            for j in range(HIST_USED):
                                ws[HIST_OFF + j] >>= 1
                    break
    if best >= beta:
        flag = LOWER
    elif best > alpha0:
        flag = EXACT
    else:
        flag = UPPER
    _store(tt, slot, key, best, ply, depth, flag, best_move)
    return best
