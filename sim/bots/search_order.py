"""The move lists of the alpha-beta search (:mod:`sim.bots.search`): a node's legal
moves generated into its row of ``ml``, each given an ordering score (table move, den
entries, captures by victim value, killers, history) and picked best first. History
scores live in eight entries per square (:func:`history_slot`), a table small enough to
stay in the cache."""

from __future__ import annotations

from engine import core
from engine.board import DENS, NFILES
from engine.jit import kernel
from sim.bots.evaluate import V_OFF
from sim.bots.search_layout import HIST_OFF, INF, KILL_OFF

MM = core.MAX_MOVES
LATE = (1 << 22) - 1  # ordering scores below this one: quiet moves, not killers


@kernel
def history_slot(mv):
    """Where the history score of move ``mv`` lives (after ``HIST_OFF``): eight entries per
    origin square, a step or a river jump in each direction, so one entry per possible
    move and a table small enough to stay in the cache."""
    frm = mv >> 6
    d = (mv & 63) - frm
    up = d > 0
    a = d if up else -d
    vertical = a >= NFILES
    jump = a != 1 and a != NFILES  # Movement 6: a jump lands beyond the river
    return frm * 8 + vertical * 4 + up * 2 + jump


@kernel
def _gen(st, rules, ml, ply):
    """Generate the legal moves into ``ml[ply, :n]``; returns n."""
    return core.legal_moves(st, rules, ml[ply])


@kernel
def _order(st, ml, n, ply, tt_move, ws, tactical_only):
    """Give each move of ``ml[ply]`` an ordering score (keeping only captures and den
    entries if ``tactical_only``) and put the best-scored first (what ``_pick(ml, ply, 0,
    k)`` would do, so the first move needs no pick); returns the number of moves kept."""
    row = ml[ply]
    side = st[core.S_SIDE]
    enemy_den = DENS[1 - side]
    k1 = ws[KILL_OFF + 2 * ply]
    k2 = ws[KILL_OFF + 2 * ply + 1]
    k = 0
    top = 0  # the first of the best-scored, and its score
    top_s = -INF
    for i in range(n):
        mv = row[i]
        to = mv & 63
        cap = st[to]
        if to == enemy_den:
            s = 1 << 29
        elif cap != 0:
            s = (1 << 24) + ws[V_OFF + core.animal_of(cap) - 1] * 64 - core.animal_of(st[mv >> 6])
        elif tactical_only:
            continue
        elif mv == k1:
            s = 1 << 22
        elif mv == k2:
            s = (1 << 22) - 1
        else:
            s = ws[HIST_OFF + history_slot(mv)]
        if mv == tt_move:
            s = 1 << 30
        row[k] = mv
        row[MM + k] = s
        if s > top_s:
            top = k
            top_s = s
        k += 1
    if top != 0:
        mv = row[top]
        row[top] = row[0]
        row[MM + top] = row[MM]
        row[0] = mv
        row[MM] = top_s
    return k


@kernel(inline="always")  # small, and called for every move searched
def _pick(ml, ply, i, n):
    """Move the best-scored of ``ml[ply, i:n]`` to index ``i`` and return it."""
    row = ml[ply]
    best = i
    best_s = row[MM + i]
    for j in range(i + 1, n):
        s = row[MM + j]
        if s > best_s:
            best = j
            best_s = s
    mv = row[best]
    if best != i:
        row[best] = row[i]
        row[MM + best] = row[MM + i]
        row[i] = mv
        row[MM + i] = best_s
    return mv
