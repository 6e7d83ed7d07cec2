"""How long a launched batch would take: a rough estimate of its work, so the dashboard can
refuse requests that would run for days (the time cap then bounds whatever is launched)."""

from __future__ import annotations

from sim.batch import BatchSpec
from sim.bots.spec import parse_bot
from sim.engines.timecontrol import parse_tc

# Rough seconds per move on one core (measured with benchmarks/bench_bots.py and dsq bench).
RANDOM_MOVE_S = 1e-7
GREEDY_MOVE_S = 1.2e-6
ALPHABETA_NODE_S = 1 / 7.0e6  # nodes/s; a depth-d search visits about 6**d nodes
MCTS_PLY_S = 1 / 9.6e6  # rollout plies/s (480,000 playouts/s of 20 plies)
TYPICAL_PLIES = 300  # plies in a game, when the ply cap allows as many
ENGINE_UNTIMED_MOVE_S = 1.0  # an external engine limited by depth or nodes only: a guess


def move_seconds(spec: str) -> float:
    """A rough estimate of the seconds a bot spends on one move."""

    bot = parse_bot(spec)
    p = bot.params
    if bot.name == "random":
        return RANDOM_MOVE_S
    if bot.name == "greedy":
        return GREEDY_MOVE_S
    if bot.name == "engine":  # its time per move, or its clock shared over 40 moves
        if p["movetime"]:
            return p["movetime"] / 1000.0
        if p["tc"]:
            tc = parse_tc(p["tc"])
            return (tc.base_ms / (tc.moves or 40) + tc.inc_ms) / 1000.0
        return ENGINE_UNTIMED_MOVE_S
    if bot.name == "alphabeta":
        nodes = min(6.0 ** p["depth"], p["nodes"] or float("inf"))
        cost = nodes * ALPHABETA_NODE_S
    else:
        cost = p["playouts"] * (p["rollout_plies"] + 2) * MCTS_PLY_S
    if p.get("time_ms"):
        cost = min(cost, p["time_ms"] / 1000.0)
    return cost


def estimate_seconds(specs: list[BatchSpec], workers: int) -> float:
    """Estimated wall time of the largest batch of a launch: games x plies per game x the
    mean cost of a move of its two bots, shared among ``workers``."""
    worst = 0.0
    for s in specs:
        per_move = (move_seconds(s.red) + move_seconds(s.blue)) / 2
        plies = min(s.ply_cap, TYPICAL_PLIES)
        worst = max(worst, s.games * plies * per_move / max(1, workers))
    return worst


def duration_text(seconds: float) -> str:
    """A duration in words: minutes, hours, days or years."""
    if seconds < 3600:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 86400 * 3:
        return f"{seconds / 3600:.0f} hours"
    if seconds < 86400 * 365 * 3:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (86400 * 365):,.0f} years"
