"""What one move of a bot costs: rough seconds on one core, by kind (the ``cost`` of a
:class:`sim.bots.bot_kind.BotKind`; the dashboard's launch estimate)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.core.timecontrol import parse_tc

Cost = Callable[[dict[str, Any]], float]
"""``cost(params)``: rough seconds one move of a bot with these parameters takes on one
core (measured with ``benchmarks/bench_bots.py`` and ``dsq bench``)."""

UNKNOWN_MOVE_S = 0.1  # the cost of a move of a kind that declares none


def constant_cost(seconds: float) -> Cost:
    """A :data:`Cost` that does not depend on the parameters."""
    return lambda params: seconds


def _within_time(seconds: float, params: dict[str, Any]) -> float:
    """``seconds``, or the spec's ``time_ms`` budget when that is smaller."""
    budget = params.get("time_ms") or 0
    return min(seconds, budget / 1000.0) if budget else seconds


ALPHABETA_NODE_S = 1 / 7.0e6  # nodes/s; a depth-d search visits about 6**d nodes
MCTS_PLY_S = 1 / 9.6e6  # rollout plies/s (480,000 playouts/s of 20 plies)
MCTS_SETTLE_S = 2.5e-6  # a leaf's quiescence search and the children's priors, seconds
ENGINE_UNTIMED_MOVE_S = 1.0  # an external engine limited by depth or nodes only: a guess


def alphabeta_cost(params: dict[str, Any]) -> float:
    """A search of ``6**depth`` nodes (at most ``nodes``), within its time budget."""
    nodes = min(6.0 ** params["depth"], params["nodes"] or float("inf"))
    return _within_time(nodes * ALPHABETA_NODE_S, params)


def mcts_cost(params: dict[str, Any]) -> float:
    """``playouts`` rollouts of ``rollout_plies`` plies (and the two of the tree) and leaf
    settles, within its time budget."""
    cost = params["playouts"] * (params["rollout_plies"] + 2) * MCTS_PLY_S
    if params["leaf"] == "qsearch":  # each full ply about doubles the settle's work
        cost += params["playouts"] * MCTS_SETTLE_S * 2 ** params["leaf_depth"]
    return _within_time(cost, params)


def engine_cost(params: dict[str, Any]) -> float:
    """An external engine's time per move, or its clock shared over 40 moves."""
    if params["movetime"]:
        return params["movetime"] / 1000.0
    if params["tc"]:
        tc = parse_tc(params["tc"])
        return (tc.base_ms / (tc.moves or 40) + tc.inc_ms) / 1000.0
    return ENGINE_UNTIMED_MOVE_S
