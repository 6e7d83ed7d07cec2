"""The general figures of a group of games as one flat, typed row (:class:`GeneralRow`, of
:func:`sim.stats.general.general_stats_by` after its group column and of
``sim.statistics``): counts and rates of each result with their Wilson intervals, the
first player's raw score, the first-move advantage fitted with the bots' strengths, the
length in plies with its t interval, and the games by end reason (``reason_<reason>``,
every reason of :data:`sim.storage.schema.REASONS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from sim.storage.schema import REASONS

if TYPE_CHECKING:
    from sim.stats.firstmove import FirstMove
    from sim.stats.general import GeneralStats


class GeneralRow(TypedDict):
    """The general figures of a group of games, flat (see the module notes); ``*_low`` and
    ``*_high`` bound the figure before them, at the confidence asked for."""

    games: int
    red: int
    blue: int
    draw: int
    red_rate: float
    red_low: float
    red_high: float
    blue_rate: float
    blue_low: float
    blue_high: float
    draw_rate: float
    draw_low: float
    draw_high: float
    first_score: float
    first_low: float
    first_high: float
    first_move_score: float | None
    first_move_elo: float | None
    first_move_low: float | None
    first_move_high: float | None
    first_move_se: float | None
    first_move_p: float | None
    first_move_verdict: str
    mean_plies: float
    mean_low: float
    mean_high: float
    sd_plies: float
    median_plies: float
    min_plies: int | None
    max_plies: int | None
    branching: float
    reason_den: int
    reason_capture_all: int
    reason_no_moves: int
    reason_no_capture: int
    reason_ply_cap: int
    reason_tablebase: int
    reason_forfeit: int
    reason_time: int
    reason_resign: int
    reason_adjudicated_resign: int
    reason_adjudicated_draw: int
    reason_agreed_draw: int
    reason_abandoned: int
    reason_other: NotRequired[int]  # games whose reason this version does not know


def first_move_columns(fm: FirstMove) -> dict[str, Any]:
    """The first-move figures of a group as flat columns (``first_move_score``,
    ``first_move_elo``, ``_low``, ``_high``, ``_se``, ``_p``, ``_verdict``)."""
    return {
        "first_move_score": fm.score,
        "first_move_elo": fm.elo,
        "first_move_low": fm.elo_low,
        "first_move_high": fm.elo_high,
        "first_move_se": fm.se_elo,
        "first_move_p": fm.p_value,
        "first_move_verdict": fm.verdict,
    }


def general_row(g: GeneralStats, fm: FirstMove) -> GeneralRow:
    """The figures ``g`` and the first-move advantage ``fm`` of one group as a row."""
    row = {
        "games": g.games,
        "red": g.red.count,
        "blue": g.blue.count,
        "draw": g.draw.count,
        "red_rate": g.red.rate,
        "red_low": g.red.low,
        "red_high": g.red.high,
        "blue_rate": g.blue.rate,
        "blue_low": g.blue.low,
        "blue_high": g.blue.high,
        "draw_rate": g.draw.rate,
        "draw_low": g.draw.low,
        "draw_high": g.draw.high,
        "first_score": g.first_player.score,
        "first_low": g.first_player.low,
        "first_high": g.first_player.high,
        **first_move_columns(fm),
        "mean_plies": g.length.mean,
        "mean_low": g.length.low,
        "mean_high": g.length.high,
        "sd_plies": g.length.sd,
        "median_plies": g.length.median,
        "min_plies": g.length.min,
        "max_plies": g.length.max,
        "branching": g.branching,
        **{f"reason_{r}": g.reasons.get(r, 0) for r in REASONS},
        **{f"reason_{r}": c for r, c in g.reasons.items() if r not in REASONS},
    }
    return cast(GeneralRow, row)
