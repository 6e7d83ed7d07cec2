"""The general figures of a selection of games: results, first-player score, lengths, ends.

Red moves first (docs/rules.md), so "first player" is Red throughout. Lengths are in plies.
A group's figures are also one flat, typed row (:class:`sim.stats.general_row.GeneralRow`,
of :func:`general_stats_by` after its group column and of ``sim.statistics``);
:mod:`sim.stats.distributions` holds the games per length and per end reason.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

import duckdb
import pandas as pd

from engine.codes import WINNERS
from engine.errors import DsqError
from sim.stats.firstmove import FirstMove, first_move, first_move_by, first_move_from_cells
from sim.stats.general_row import general_row
from sim.stats.intervals import Proportion, mean_interval, proportion, score_interval, sign_test
from sim.stats.query import CELLS, Selection, query_df, void_games
from sim.storage.schema import REASONS

if TYPE_CHECKING:
    from sim.stats.firstmove import FirstMove


GROUP_COLUMNS = {"rules": "rules", "batch": "batch_id"}

# The general figures of the selected cells of the summaries (each cell counts ``games``
# games of one length, so lengths' moments come from the counts per length).
_N = "sum(games)"
_AGG = ",\n".join(
    [
        f"coalesce({_N}, 0)::BIGINT AS games",
        f"coalesce({_N} FILTER (WHERE winner = 'red'), 0)::BIGINT AS red",
        f"coalesce({_N} FILTER (WHERE winner = 'blue'), 0)::BIGINT AS blue",
        f"coalesce({_N} FILTER (WHERE winner = 'draw'), 0)::BIGINT AS draw",
        f"coalesce({_N} FILTER (WHERE winner = first_side), 0)::BIGINT AS first_wins",
        f"coalesce({_N} FILTER (WHERE winner NOT IN ('draw', first_side)), 0)::BIGINT"
        " AS second_wins",
        f"(sum(games * plies::DOUBLE) / {_N})::DOUBLE AS mean_plies",
        f"(CASE WHEN {_N} > 1 THEN sqrt(greatest(0, (sum(games * plies::DOUBLE * plies)"
        f" - sum(games * plies::DOUBLE) ^ 2 / {_N}) / ({_N} - 1))) END)::DOUBLE AS sd_plies",
        "min(plies)::BIGINT AS min_plies",
        "max(plies)::BIGINT AS max_plies",
        "(sum(branching_sum) / nullif(sum(branching_n), 0))::DOUBLE AS branching",
        "(sum(duration_sum) / nullif(sum(duration_n), 0))::DOUBLE AS mean_duration_ms",
    ]
    + [f"coalesce({_N} FILTER (WHERE reason = '{r}'), 0)::BIGINT AS reason_{r}" for r in REASONS]
    + [
        f"coalesce({_N} FILTER (WHERE reason NOT IN ("
        + ", ".join(f"'{r}'" for r in REASONS)
        + ") OR reason IS NULL), 0)::BIGINT AS reason_other"
    ]
)


def _by_key(key: str) -> str:
    """The query of the general figures per ``key`` (an expression over cells), the median
    length (the mean of the two middle games, as DuckDB's ``median``) from the counts."""
    return f"""
, agg AS (SELECT {key} AS key, {_AGG} FROM sel GROUP BY 1),
h AS (SELECT {key} AS key, plies, sum(games) AS n FROM sel GROUP BY 1, 2),
c AS (SELECT key, plies, sum(n) OVER (PARTITION BY key ORDER BY plies) AS cum,
             sum(n) OVER (PARTITION BY key) AS tot FROM h),
med AS (SELECT key, (min(plies) FILTER (WHERE cum > (tot - 1) // 2)
                     + min(plies) FILTER (WHERE cum > tot // 2)) / 2.0 AS median_plies
        FROM c GROUP BY key)
SELECT agg.*, med.median_plies::DOUBLE AS median_plies
FROM agg LEFT JOIN med ON agg.key IS NOT DISTINCT FROM med.key ORDER BY agg.key
"""


@dataclass(frozen=True)
class ScoreEstimate:
    """A score (wins + draws/2) / games with its interval and a test against 0.5.

    ``low``/``high``: Wilson-type interval with draws counting half
    (:func:`sim.stats.intervals.score_interval`); ``z``/``p_value``: the score test
    ``(W - L) / sqrt(W + L)`` (two-sided, consistent with the interval); ``p_exact``: exact
    two-sided binomial (sign) test of wins against losses.
    """

    wins: int
    draws: int
    losses: int
    games: int
    score: float
    low: float
    high: float
    z: float
    p_value: float
    p_exact: float

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields."""
        return asdict(self)


def score_estimate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> ScoreEstimate:
    """:class:`ScoreEstimate` of a W/D/L result."""
    n = wins + draws + losses
    lo, hi = score_interval(wins, draws, losses, confidence)
    z, p, p_exact = sign_test(wins, losses)
    return ScoreEstimate(
        int(wins),
        int(draws),
        int(losses),
        int(n),
        (wins + 0.5 * draws) / n if n else math.nan,
        lo,
        hi,
        z,
        p,
        p_exact,
    )


@dataclass(frozen=True)
class LengthStats:
    """Game length in plies: mean with its t interval, spread, median, extremes."""

    games: int
    mean: float
    low: float
    high: float
    sd: float
    median: float
    min: int | None
    max: int | None

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields."""
        return asdict(self)


@dataclass(frozen=True)
class GeneralStats:
    """The general figures of a selection (see :func:`general_stats`)."""

    games: int
    red: Proportion
    blue: Proportion
    draw: Proportion
    first_player: ScoreEstimate
    second_player_score: float
    length: LengthStats
    reasons: dict[str, int] = field(default_factory=dict)
    branching: float = math.nan
    mean_duration_ms: float = math.nan
    first_move: FirstMove | None = None
    void: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Nested plain dict."""
        return {
            "games": self.games,
            "void": self.void,
            "red": self.red.to_dict(),
            "blue": self.blue.to_dict(),
            "draw": self.draw.to_dict(),
            "first_player": self.first_player.to_dict(),
            "second_player_score": self.second_player_score,
            "length": self.length.to_dict(),
            "reasons": dict(self.reasons),
            "branching": self.branching,
            "mean_duration_ms": self.mean_duration_ms,
            "first_move": None if self.first_move is None else self.first_move.to_dict(),
        }


def _f(x: Any) -> float:
    return math.nan if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _general_from_row(row: dict[str, Any], confidence: float) -> GeneralStats:
    n = int(row["games"] or 0)
    red, blue, draw = (int(row[k] or 0) for k in WINNERS)
    first = score_estimate(
        int(row.get("first_wins") or 0), draw, int(row.get("second_wins") or 0), confidence
    )
    mean = _f(row["mean_plies"])
    sd = _f(row["sd_plies"])
    lo, hi = mean_interval(mean, sd, n, confidence)
    length = LengthStats(
        games=n,
        mean=mean,
        low=lo,
        high=hi,
        sd=sd,
        median=_f(row["median_plies"]),
        min=None if row["min_plies"] is None or n == 0 else int(row["min_plies"]),
        max=None if row["max_plies"] is None or n == 0 else int(row["max_plies"]),
    )
    reasons = {r: int(row[f"reason_{r}"] or 0) for r in REASONS}
    if int(row.get("reason_other") or 0):
        reasons["other"] = int(row["reason_other"])
    return GeneralStats(
        games=n,
        red=proportion(red, n, confidence),
        blue=proportion(blue, n, confidence),
        draw=proportion(draw, n, confidence),
        first_player=first,
        second_player_score=(1.0 - first.score) if n else math.nan,
        length=length,
        reasons=reasons,
        branching=_f(row["branching"]),
        mean_duration_ms=_f(row["mean_duration_ms"]),
    )


def general_stats(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None, confidence: float = 0.95
) -> GeneralStats:
    """Games played; red/blue/draw counts and rates with Wilson intervals; the first
    player's raw score with its interval; the first-move advantage fitted with the bots'
    strengths (:func:`sim.stats.firstmove.first_move`, ``first_move``); game length (mean
    with t interval, sd, median, min, max); games by end reason; ``void``: the selected
    games void under their rule set's scoring rule (``void_rounds``), left out of every
    other figure unless the selection counts them (``voids``). Three aggregate queries."""
    sel = selection or Selection()
    df = query_df(con, sel, _by_key("1"), source=CELLS)
    g = _general_from_row(df.iloc[0].to_dict(), confidence) if len(df) else None
    g = g or _empty_general(confidence)
    return replace(g, first_move=first_move(con, sel, confidence), void=void_games(con, sel))


def _flat(key: str, g: GeneralStats, fm: FirstMove) -> dict[str, Any]:
    return {"key": key, **general_row(g, fm)}


def general_stats_by(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    by: str = "rules",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The general figures per rules spec (``by="rules"``) or per batch (``by="batch"``).

    One row per group, sorted by its first column (named ``by``: the rules spec or the
    batch id); the other columns are a :class:`~sim.stats.general_row.GeneralRow`, those
    of :func:`general_stats` flattened (``red_rate``, ``red_low``, ``first_score``,
    ``mean_plies``, ``mean_low``, ``reason_den``, ...) and the group's first-move
    advantage fitted with its bots.
    """
    if by not in GROUP_COLUMNS:
        raise DsqError(f"cannot group by {by!r} here (one of {', '.join(GROUP_COLUMNS)})")
    col = GROUP_COLUMNS[by]
    df = query_df(con, selection or Selection(), _by_key(col), source=CELLS)
    moves = first_move_by(con, selection or Selection(), col, confidence)
    none = first_move_from_cells([], confidence)
    rows = [
        _flat(str(r["key"]), _general_from_row(r, confidence), moves.get(str(r["key"]), none))
        for r in df.to_dict("records")
    ]
    out = pd.DataFrame(rows)
    if out.empty:
        out = pd.DataFrame(columns=list(_flat("", _empty_general(), none).keys()))
    return out.rename(columns={"key": by})


def _empty_general(confidence: float = 0.95) -> GeneralStats:
    names = ("mean_plies", "sd_plies", "min_plies", "max_plies", "median_plies")
    row: dict[str, Any] = dict.fromkeys(names)
    row.update(games=0, red=0, blue=0, draw=0, first_wins=0, second_wins=0)
    row.update(branching=None, mean_duration_ms=None)
    row.update({f"reason_{r}": 0 for r in REASONS})
    return _general_from_row(row, confidence)
