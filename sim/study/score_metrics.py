"""The figures of a study cell read from its games' search scores (the ``scores`` column:
each ply's score of the move played, Red's view in [-1, 1]; docs/studies.md defines each):
Ludii's lead change, stability and decisiveness threshold, and the share of plies scored.

Plies without a score (None: random or greedy movers, opening plies) are left out of a
game's sequence; a cell whose games have no score at all has every figure None.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from sim.stats.intervals import mean_interval

SCORE_METRICS = ("lead_change", "stability", "decisiveness_threshold", "scored_share")
"""The score figures by name, in the order tables show them."""

SCORES_SQL = "SELECT scores, winner FROM sel WHERE scores IS NOT NULL"
PLIES_SQL = "SELECT coalesce(sum(plies), 0)::BIGINT FROM sel"

Scores = Sequence[float | None]


def _scored(scores: Scores) -> list[float]:
    return [float(s) for s in scores if s is not None]


def lead_change(scores: Scores) -> float | None:
    """The share of a game's consecutive scored plies between which the leader (the sign of
    Red's score: Red ahead above 0, Blue below) changes. A score of exactly 0 is a tie: no
    one leads, so the ply is skipped (the lead changes only when the other side goes
    ahead). None with fewer than two plies where someone leads."""
    signs = [s > 0 for s in _scored(scores) if s != 0]
    if len(signs) < 2:
        return None
    return sum(a != b for a, b in zip(signs, signs[1:], strict=False)) / (len(signs) - 1)


def stability(scores: Scores) -> float | None:
    """The variance (population) of a game's scored Red-view scores (Blue's view is its
    negation, so each player's variance is this one); None with fewer than two."""
    values = _scored(scores)
    return statistics.pvariance(values) if len(values) >= 2 else None


def decisiveness_threshold(scores: Scores, winner: str) -> float | None:
    """The highest score a player who did not win reached in the game, from that player's
    view (Red's score for Red, its negation for Blue; in a draw both sides count); None
    with no scored ply."""
    values = _scored(scores)
    if not values:
        return None
    highs = []
    if winner != "red":
        highs.append(max(values))
    if winner != "blue":
        highs.append(-min(values))
    return max(highs)


def _mean(values: list[float]) -> dict[str, Any]:
    """The mean over games with its 95% t interval, and the number of games."""
    if not values:
        return {"value": None, "games": 0}
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) >= 2 else math.nan
    low, high = mean_interval(mean, sd, len(values))
    out: dict[str, Any] = {"value": mean, "games": len(values)}
    if not math.isnan(low):
        out.update(low=low, high=high)
    return out


def score_metrics(games: Iterable[tuple[Scores | None, str]], plies: int) -> dict[str, Any]:
    """The score figures of a cell from its games' ``(scores, winner)`` (games whose column
    is NULL may be left out) and the number of ``plies`` of all its games: each the mean
    over the games it is defined for, with its 95% t interval; ``decisiveness_threshold``
    also gives the median and quartiles over games; ``scored_share`` the scored plies."""
    leads: list[float] = []
    variances: list[float] = []
    thresholds: list[float] = []
    scored = 0
    for scores, winner in games:
        if scores is None:
            continue
        scored += len(_scored(scores))
        for out, x in (
            (leads, lead_change(scores)),
            (variances, stability(scores)),
            (thresholds, decisiveness_threshold(scores, winner)),
        ):
            if x is not None:
                out.append(x)
    if scored == 0:
        return {name: {"value": None} for name in SCORE_METRICS}
    decisive = _mean(thresholds)
    if len(thresholds) >= 2:
        q1, median, q3 = statistics.quantiles(thresholds, n=4, method="inclusive")
        decisive.update(q1=q1, median=median, q3=q3)
    return {
        "lead_change": _mean(leads),
        "stability": _mean(variances),
        "decisiveness_threshold": decisive,
        "scored_share": {
            "value": scored / plies if plies else None,
            "count": scored,
            "plies": plies,
        },
    }
