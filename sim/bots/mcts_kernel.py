"""The compiled UCT search of the ``mcts`` bot.

The tree lives in flat arrays indexed by node (node 0 is the root): ``tree_i[node]`` =
(parent, move, first child, child count (-1: not expanded), terminal flag) and
``tree_f[node]`` = (visits, value sum). A node's value sum is from the point of view of
the side that made the move leading to it, in [0, 1] per playout (1 win, 0.5 draw).

``tree_f[node, 2]`` is a child's prior (:func:`set_priors`).

A playout (one round of :func:`mcts`) selects children by UCT (:func:`select`), expands
a leaf on its second visit (:func:`expand`), plays a :func:`rollout` (``random`` or
``greedy``) of at most ``rollout_plies`` plies (:func:`simulate`), and backs the result
up (:func:`backup`). A rollout that reaches the end scores 1 / 0.5 / 0; a capped one
scores ``1 / (1 + exp(-score / 400))`` for the side to move, ``score`` the evaluation or
the quiescence search (``leaf``, :func:`sim.bots.mcts_leaf.leaf_score`). With ``bias``
0 the selection visits every unvisited child first, at random, and expansion plays a
random child; with ``bias`` above 0 each child has a prior, the selection adds
``bias * prior / (visits + 1)`` to UCT and takes the prior as an unvisited child's
value, and expansion descends to the child the selection prefers; ``mm`` above 0 blends
each child's mean value with its minimax value (implicit minimax backups). Positions where the
game has ended are terminal nodes with their exact result. The four steps are compiled
into :func:`mcts` (``inline="always"``): calls between kernels pass every array as a
wide struct, which cost about 10% of the tree's speed when they were separate calls.

The values the tree reads from the evaluation are a leaf's value and the children's
priors (the progressive bias).

A leaf is scored for the side to move by the static evaluation (``leaf=eval``) or by a
tactical settle (``leaf=qsearch``): see :mod:`sim.bots.mcts_leaf`.

A child's prior is the value of the position after its move for the side that made it,
by the static evaluation (1 for a move that wins, 0.5 for a draw): UCT adds
``bias * prior / (visits + 1)`` and takes the prior as the value of a child not visited
yet, so the search looks at the moves the evaluation likes first.
"""

from __future__ import annotations

import math

from engine import core
from engine.codes import RED_WON
from engine.jit import kernel
from engine.rng import rng_below
from sim.bots.evaluate import evaluate
from sim.bots.fast import greedy_choose, now_us
from sim.bots.mcts_leaf import leaf_score, to_value
from sim.bots.search_layout import MAX_PLY

F_PRIOR = 2  # tree_f column of a child's prior (see sim.bots.mcts_kernel)
F_MINIMAX = 3  # tree_f column of a node's minimax value


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


T_PARENT, T_MOVE, T_FIRST, T_COUNT, T_TERMINAL = range(5)
F_VISITS, F_VALUE = 0, 1
MAX_TREE_DEPTH = 256
MAX_SETTLE = MAX_PLY + 2  # plies a quiescence search may add to a leaf


@kernel
def _result_for(st, side):
    """The result in [0, 1] of a finished game for ``side`` (status must be set)."""
    status = st[core.S_STATUS]
    if status == core.DRAWN:
        return 0.5
    return 1.0 if status == RED_WON + side else 0.0


@kernel
def rollout(st, rules, params, values, rng, greedy, max_plies, buf, scratch, ml, leaf):
    """Play the rollout from ``st``; return the result for the side to move at its start
    (``leaf``: how a capped one is scored, see :func:`sim.bots.mcts_leaf.leaf_score`)."""
    side = st[core.S_SIDE]
    plies = 0
    while True:
        n = core.settle(st, rules, buf)
        if n == 0:
            return _result_for(st, side)
        if plies >= max_plies:
            break
        if greedy:
            mv = greedy_choose(st, rules, rng, buf, n, values, scratch)
        else:
            mv = buf[rng_below(rng, n)]
        core.make_move(st, rules, mv)
        plies += 1
    p = to_value(leaf_score(st, rules, params, ml, leaf))
    return p if st[core.S_SIDE] == side else 1.0 - p


@kernel
def immediate_win(st, rules, buf, n, scratch):
    """A move of ``buf[:n]`` that wins at once (den, last capture, opponent left without
    moves), or -1."""
    side = st[core.S_SIDE]
    for i in range(n):
        core.make_move(st, rules, buf[i])
        won = st[core.S_STATUS] == RED_WON + side
        if not won and st[core.S_STATUS] == core.ONGOING:
            won = core.legal_moves(st, rules, scratch) == 0
        core.unmake_move(st)
        if won:
            return buf[i]
    return -1


@kernel(inline="always")
def select_child(rng, tree_i, tree_f, node, c, bias, mm):
    """The child of an expanded ``node`` to descend to. With ``bias`` 0: an unvisited one
    at random if there are any, else the one of highest UCT value; else the one of highest
    UCT value plus progressive bias, an unvisited child valued at its prior (the first
    among equals)."""
    first = tree_i[node, T_FIRST]
    count = tree_i[node, T_COUNT]
    if bias > 0.0:
        log_n = math.log(tree_f[node, F_VISITS] + 1.0)
        best = -1e300
        child = first
        for k in range(count):
            ch = first + k
            v = tree_f[ch, F_VISITS]
            prior = tree_f[ch, F_PRIOR]
            if v > 0.0:
                q = tree_f[ch, F_VALUE] / v
                if mm > 0.0:
                    q = (1.0 - mm) * q + mm * tree_f[ch, F_MINIMAX]
            else:
                q = prior
            u = q + c * math.sqrt(log_n / (v + 1.0)) + bias * prior / (v + 1.0)
            if u > best:
                best = u
                child = ch
        return child
    unvisited = 0
    for k in range(count):
        if tree_f[first + k, F_VISITS] == 0.0:
            unvisited += 1
    if unvisited > 0:
        pick = rng_below(rng, unvisited)
        child = first
        for k in range(count):
            if tree_f[first + k, F_VISITS] == 0.0:
                if pick == 0:
                    child = first + k
                    break
                pick -= 1
    else:
        log_n = math.log(tree_f[node, F_VISITS])
        best = -1.0
        child = first
        for k in range(count):
            ch = first + k
            v = tree_f[ch, F_VISITS]
            u = tree_f[ch, F_VALUE] / v + c * math.sqrt(log_n / v)
            if u > best:
                best = u
                child = ch
    return child


@kernel(inline="always")
def select(st, rules, rng, tree_i, tree_f, c, bias, mm, root_ply):
    """Selection: descend from the root by :func:`select_child`, playing each move on
    ``st``, until a leaf, a terminal node, a first visit or ``MAX_TREE_DEPTH``; returns
    the node reached."""
    node = 0
    while (
        tree_i[node, T_COUNT] > 0
        and tree_i[node, T_TERMINAL] == 0
        and st[core.S_NPLY] - root_ply < MAX_TREE_DEPTH
    ):
        child = select_child(rng, tree_i, tree_f, node, c, bias, mm)
        core.make_move(st, rules, tree_i[child, T_MOVE])
        node = child
        if tree_f[node, F_VISITS] == 0.0:
            break
    return node


@kernel(inline="always")
def expand(st, rules, params, rng, tree_i, tree_f, node, buf, n, used, c, bias):
    """Expansion: give ``node`` one child per legal move ``buf[:n]`` (if the tree has room
    for them) and play one on ``st`` (at random; with ``bias`` above 0, the one
    :func:`select_child` prefers by the priors); returns ``(node reached, nodes used)``."""
    if used + n > tree_i.shape[0]:
        return node, used
    tree_i[node, T_FIRST] = used
    tree_i[node, T_COUNT] = n
    for k in range(n):
        ch = used + k
        tree_i[ch, T_PARENT] = node
        tree_i[ch, T_MOVE] = buf[k]
        tree_i[ch, T_FIRST] = -1
        tree_i[ch, T_COUNT] = -1
        tree_i[ch, T_TERMINAL] = 0
        tree_f[ch, F_VISITS] = 0.0
        tree_f[ch, F_VALUE] = 0.0
        tree_f[ch, F_PRIOR] = 0.5
    used += n
    if bias > 0.0:
        set_priors(st, rules, params, tree_i, tree_f, used - n, n)
        child = select_child(rng, tree_i, tree_f, node, c, bias, 0.0)
    else:
        child = used - n + rng_below(rng, n)
    core.make_move(st, rules, tree_i[child, T_MOVE])
    return child, used


@kernel(inline="always")
def simulate(
    st,
    rules,
    params,
    values,
    rng,
    tree_i,
    tree_f,
    node,
    used,
    greedy,
    rollout_plies,
    buf,
    scratch,
    ml,
    leaf,
    c,
    bias,
):
    """The value of the leaf ``node`` reached by selection (``st`` is its position) for the
    side that moved into it: exact if the game has ended there, else after expanding a
    node visited before (or the root) and playing a :func:`rollout`.

    Returns ``(node, nodes used, result)``; ``node`` is the new child when it expanded.
    """
    mover = 1 - st[core.S_SIDE]  # the side that moved into ``node``
    if tree_i[node, T_TERMINAL] != 0:
        return node, used, _result_for(st, mover)
    n = core.settle(st, rules, buf)
    if n == 0:
        tree_i[node, T_TERMINAL] = 1
        return node, used, _result_for(st, mover)
    if tree_f[node, F_VISITS] > 0.0 or node == 0:
        node, used = expand(st, rules, params, rng, tree_i, tree_f, node, buf, n, used, c, bias)
        mover = 1 - st[core.S_SIDE]
    if tree_i[node, T_COUNT] == -1 and st[core.S_STATUS] != core.ONGOING:
        tree_i[node, T_TERMINAL] = 1
        return node, used, _result_for(st, mover)
    r = rollout(st, rules, params, values, rng, greedy, rollout_plies, buf, scratch, ml, leaf)
    return node, used, 1.0 - r  # r is for the side to move; mover is the other side


@kernel(inline="always")
def backup(tree_i, tree_f, node, result, mm):
    """Backpropagation: add the visit and ``result`` (for the side that moved into
    ``node``) to ``node`` and its ancestors, flipping the point of view at each level.
    With ``mm`` above 0 it also keeps each node's minimax value (``F_MINIMAX``, same point
    of view): the leaf's result, above it one minus the best of the visited children's."""
    if mm > 0.0:
        tree_f[node, F_MINIMAX] = result
    while node >= 0:
        tree_f[node, F_VISITS] += 1.0
        tree_f[node, F_VALUE] += result
        result = 1.0 - result
        parent = tree_i[node, T_PARENT]
        if mm > 0.0 and parent >= 0:
            first = tree_i[parent, T_FIRST]
            best = 0.0
            for k in range(tree_i[parent, T_COUNT]):
                if tree_f[first + k, F_VISITS] > 0.0 and tree_f[first + k, F_MINIMAX] > best:
                    best = tree_f[first + k, F_MINIMAX]
            tree_f[parent, F_MINIMAX] = 1.0 - best
        node = parent


@kernel(nogil=True)  # another thread may stop it meanwhile (MctsBot.stop)
def mcts(
    st,
    rules,
    params,
    values,
    rng,
    tree_i,
    tree_f,
    playouts,
    c,
    greedy,
    rollout_plies,
    clock,
    buf,
    scratch,
    ml,
    leaf,
    bias,
    mm,
):
    """Run up to ``playouts`` playouts from ``st`` (restored afterwards); returns
    ``(playouts done, nodes used)``. The tree must have been reset (root not expanded);
    ``buf`` and ``scratch`` are move lists of ``core.MAX_MOVES`` entries, ``ml`` the
    quiescence search's (``sim.bots.mcts_leaf.leaf_lists``), ``params`` its workspace.
    ``clock[0]`` is the deadline in ``now_us`` microseconds (0: none), read every 64
    playouts, so another thread can end the search by writing 1 there."""
    root_ply = st[core.S_NPLY]
    tree_i[0, T_PARENT] = -1
    tree_i[0, T_MOVE] = -1
    tree_i[0, T_COUNT] = -1
    tree_i[0, T_TERMINAL] = 0
    tree_f[0, F_VISITS] = 0.0
    tree_f[0, F_VALUE] = 0.0
    used = 1
    done = 0
    while done < playouts:
        if clock[0] > 0 and (done & 63) == 0 and done > 0 and now_us() >= clock[0]:
            break
        node = select(st, rules, rng, tree_i, tree_f, c, bias, mm, root_ply)
        node, used, result = simulate(
            st,
            rules,
            params,
            values,
            rng,
            tree_i,
            tree_f,
            node,
            used,
            greedy,
            rollout_plies,
            buf,
            scratch,
            ml,
            leaf,
            c,
            bias,
        )
        while st[core.S_NPLY] > root_ply:  # back to the root
            core.unmake_move(st)
        backup(tree_i, tree_f, node, result, mm)
        done += 1
    return done, used
