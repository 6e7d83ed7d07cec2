"""The position's value from an endgame tablebase, shown on the Play page as a hint.

Tablebases are optional: a module :data:`PROVIDER` exposing
``probe(rules: str, fen: str) -> dict | None`` answers for the positions it covers, with
``{"winner": "red" | "blue" | "draw", "plies": int | None}`` (plies to the end with best
play, when known). Without that module, or for a position it does not cover, there is no
hint and the Play page shows no tablebase toggle.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

PROVIDER = "sim.tablebase"


@cache
def _probe_function() -> Any:
    try:
        module = importlib.import_module(PROVIDER)
    except ImportError:
        return None
    fn = getattr(module, "probe", None)
    return fn if callable(fn) else None


def available() -> bool:
    """Whether a tablebase provider is installed."""
    return _probe_function() is not None


def position_value(rules: str, fen: str) -> dict[str, Any] | None:
    """The tablebase's value of a position (see the module's notes), or None."""
    fn = _probe_function()
    if fn is None:
        return None
    try:
        value = fn(rules, fen)
    except Exception:  # noqa: BLE001 - a hint that cannot be computed is simply not shown
        return None
    if not isinstance(value, dict) or value.get("winner") not in ("red", "blue", "draw"):
        return None
    return value
