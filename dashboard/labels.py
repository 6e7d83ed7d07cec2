"""Short display names for canonical bot specs (display only; filters use the full spec)."""

from __future__ import annotations

from sim.bots.spec import short_spec as short_bot

__all__ = ["short_bot"]
