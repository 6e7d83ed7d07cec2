"""How long a launched batch would take: a rough estimate of its work, so the dashboard can
refuse requests that would run for days (the time cap then bounds whatever is launched)."""

from __future__ import annotations

from sim.batch import BatchSpec
from sim.bots.registry import KINDS
from sim.bots.spec import parse_bot

TYPICAL_PLIES = 300  # plies in a game, when the ply cap allows as many


def move_seconds(spec: str) -> float:
    """A rough estimate of the seconds a bot spends on one move: its kind's cost
    (:meth:`sim.bots.bot_kind.BotKind.move_seconds`)."""
    bot = parse_bot(spec)
    return KINDS[bot.name].move_seconds(bot.params)


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
