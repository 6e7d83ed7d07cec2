"""What a launch from the browser may ask for: the caps on bot parameters, and the refusals
the dashboard words itself (each names its text in the language catalogues)."""

from __future__ import annotations

from typing import Any

from dashboard.settings import Limits
from engine.errors import DsqError
from sim.bots.spec import parse_bot

# Parameters bounded by fixed caps (the search-size ones come from the settings).
FIXED_CAPS = {"time_ms": 10_000, "nodes": 10_000_000, "tt_mb": 256, "rollout_plies": 1000}


class LimitError(DsqError):
    """A request the dashboard refuses in its own words: ``key`` names the text in the
    catalogue (``errors.<key>``) and ``fields`` fill it; ``str()`` is the English sentence."""

    def __init__(self, key: str, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


def bot_caps(limits: Limits) -> dict[str, float]:
    """The most each bounded bot parameter may be on this dashboard (by parameter name)."""
    return {"depth": limits.max_depth, "playouts": limits.max_playouts, **FIXED_CAPS}


def check_bot_limits(spec: str, limits: Limits) -> str:
    """The canonical bot spec if it is valid and within the limits; DsqError otherwise. A
    time budget (itself capped) bounds the search in place of the depth and playout caps."""

    bot = parse_bot(spec)
    caps = bot_caps(limits)
    if bot.params.get("time_ms"):
        caps = {k: v for k, v in caps.items() if k not in ("depth", "playouts")}
    for name, value in bot.params.items():
        cap = caps.get(name)
        if cap is not None and isinstance(value, int | float) and value > cap:
            raise LimitError(
                "bot_limit",
                f"bot {bot.name}: {name}={value} is above this dashboard's limit of {int(cap)}"
                " (launches from the browser are bounded; use `dsq simulate` for more)",
                bot=bot.name,
                param=name,
                value=value,
                limit=int(cap),
            )
    return bot.canonical
