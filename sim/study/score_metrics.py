"""The figures of a study cell read from its games' search scores (the ``scores`` column:
each ply's score of the move played, Red's view in [-1, 1]; docs/studies.md defines each):
lead change, swing, Ludii's decisiveness threshold, and the share of plies scored.

Consecutive plies are played, and scored, by different sides, whose searches disagree: the
lead change and the swing compare each side's score only with that side's previous one
(plies ``i`` and ``i + 2``), then combine the two sides. Plies without a score (None:
random or greedy movers, opening plies) are left out of their side's sequence; a cell whose
games have no score at all has every figure None.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from sim.stats.intervals import mean_interval

SCORE_METRICS = ("lead_change", "swing", "decisiveness_threshold", "scored_share")
"""The score figures by name, in the order tables show them."""

SCORES_SQL = "SELECT scores, winner FROM sel WHERE scores IS NOT NULL"
PLIES_SQL = "SELECT coalesce(sum(plies), 0)::BIGINT FROM sel"

Scores = Sequence[float | None]


def _scored(scores: Scores) -> list[float]:
    return [float(s) for s in scores if s is not None]


def _sides(scores: Scores) -> tuple[list[float], list[float]]:
    """Each side's scored plies in order: the even plies' scores, then the odd plies'."""
    return _scored(scores[0::2]), _scored(scores[1::2])


def _flips(pairs: list[tuple[float, float]]) -> float | None:
    """The share of ``pairs`` (of nonzero numbers) of opposite signs; None without one."""
    if not pairs:
        return None
    return sum((a > 0) != (b > 0) for a, b in pairs) / len(pairs)


def lead_change(scores: Scores) -> float | None:
    """The share of a side's successive scores (its plies ``i`` and ``i + 2``, or its next
    scored one; both sides' pairs together) between which the leader (Red above 0, Blue
    below) changes. A score of exactly 0 is a tie, skipped; None without two scores of one
    side where someone leads."""
    pairs = []
    for side in _sides(scores):
        signs = [s for s in side if s != 0]
        pairs += list(zip(signs, signs[1:], strict=False))
    return _flips(pairs)


def swing(scores: Scores) -> float | None:
    """The share of a side's successive score changes (its plies ``i`` to ``i + 2``, then
    ``i + 2`` to ``i + 4``; both sides' together) that reverse direction; changes of 0 are
    skipped. 0: each side's score moves one way (a steady win); about 1/2: a random walk.
    Any increasing rescaling of the evaluation gives the same value. None without two
    nonzero changes of one side."""
    pairs = []
    for side in _sides(scores):
        steps = [b - a for a, b in zip(side, side[1:], strict=False) if b != a]
        pairs += list(zip(steps, steps[1:], strict=False))
    return _flips(pairs)


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
    swings: list[float] = []
    thresholds: list[float] = []
    scored = 0
    for scores, winner in games:
        if scores is None:
            continue
        scored += len(_scored(scores))
        for out, x in (
            (leads, lead_change(scores)),
            (swings, swing(scores)),
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
        "swing": _mean(swings),
        "decisiveness_threshold": decisive,
        "scored_share": {
            "value": scored / plies if plies else None,
            "count": scored,
            "plies": plies,
        },
    }
