"""A study's figure over its cells, as a heat map shows it: each cell's estimate with its
95% interval and games, and for a figure with a neutral value (the first-move advantage's
0 Elo, a score's 50%) whether the cell departs from it: its interval excludes the neutral
value, and its test stays significant after Holm's correction over the map's cells."""

from __future__ import annotations

from typing import Any

from sim.stats.multiplicity import holm

NEUTRAL = {"first_move_elo": 0.0, "first_move_score": 0.5, "first_player_score": 0.5}
"""The figures whose colour scale diverges from a neutral value (no first-move edge)."""


def heat_cells(cells: list[dict[str, Any]], metric: str) -> list[dict[str, Any]]:
    """One entry per cell of a report (``cells``): ``cell``, ``rules``, ``games``,
    ``value``, ``low``, ``high`` of ``metric`` (None where the cell has none) and ``p``;
    for a figure of :data:`NEUTRAL`, ``excludes_neutral`` (the interval lies wholly on one
    side of the neutral value), ``p_holm`` and ``significant`` (Holm's correction over the
    cells with a p-value, at 5%); elsewhere these are None and False."""
    out = []
    for c in cells:
        m = c.get(metric)
        m = m if isinstance(m, dict) else {}
        low, high = m.get("low"), m.get("high")
        centre = NEUTRAL.get(metric)
        excludes = (
            centre is not None
            and low is not None
            and high is not None
            and (low > centre or high < centre)
        )
        out.append({"cell": c["cell"], "rules": c["rules"], "games": c.get("games", 0),
                    "value": m.get("value"), "low": low, "high": high,
                    "p": m.get("p") if centre is not None else None,
                    "excludes_neutral": excludes})  # fmt: skip
    holm(out)
    return out


def heat_tally(entries: list[dict[str, Any]]) -> dict[str, int]:
    """How many cells of a heat map have a value, how many exclude the neutral value from
    their interval, how many were tested and how many stay significant after Holm's
    correction (``shown``, ``excluding``, ``tested``, ``significant``)."""
    return {
        "shown": sum(e["value"] is not None for e in entries),
        "excluding": sum(bool(e["excludes_neutral"]) for e in entries),
        "tested": sum(e["p_holm"] is not None for e in entries),
        "significant": sum(bool(e["significant"]) for e in entries),
    }
