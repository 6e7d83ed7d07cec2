"""The general figures of a selection of games: results, first-player score, lengths, ends.

Red moves first (docs/rules.md), so "first player" is Red throughout. Lengths are in plies.
A group's figures are also one flat, typed row (:class:`GeneralRow`, of
:func:`general_stats_by` after its group column and of ``sim.statistics``): counts and
rates of each result with their Wilson intervals, the first player's raw score, the
first-move advantage fitted with the bots' strengths, the length in plies with its t
interval, and the games by end reason (``reason_<reason>``, every reason of
:data:`sim.storage.schema.REASONS`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

import duckdb
import numpy as np
import pandas as pd

from engine.codes import WINNERS
from engine.errors import DsqError
from sim.stats.firstmove import FirstMove, first_move, first_move_by, first_move_from_cells
from sim.stats.intervals import Proportion, mean_interval, proportion, score_interval, sign_test
from sim.stats.query import CELLS, Selection, query_df, query_rows, void_games
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
    batch id); the other columns are a :class:`~sim.stats.general.GeneralRow`, those
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


def length_counts(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None
) -> pd.DataFrame:
    """Games per exact length: columns ``plies``, ``games`` (sorted by plies)."""
    return query_df(
        con,
        selection or Selection(),
        "SELECT plies::BIGINT AS plies, sum(games)::BIGINT AS games FROM sel GROUP BY 1 ORDER BY 1",
        source=CELLS,
    )


def length_histogram(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    bins: int | Sequence[float] = 20,
) -> pd.DataFrame:
    """Histogram of game lengths for plotting.

    ``bins`` is a number of equal-width integer bins over ``[min, max]`` or explicit bin
    edges. Columns: ``start`` (inclusive), ``end`` (exclusive), ``games``, ``share``.
    Games outside explicit edges are not counted.
    """
    counts = length_counts(con, selection)
    cols = ["start", "end", "games", "share"]
    if counts.empty:
        return pd.DataFrame(columns=cols)
    plies = counts["plies"].to_numpy(dtype=float)
    games = counts["games"].to_numpy(dtype=float)
    if isinstance(bins, int | np.integer):
        if bins < 1:
            raise DsqError(f"bins must be at least 1, got {bins}")
        lo, hi = int(plies.min()), int(plies.max())
        width = max(1, math.ceil((hi - lo + 1) / int(bins)))
        edges = np.arange(lo, hi + width + 1, width, dtype=float)
        edges = edges[: int(np.searchsorted(edges, hi, side="right")) + 1]
    else:
        edges = np.asarray(list(bins), dtype=float)
        if edges.size < 2 or np.any(np.diff(edges) <= 0):
            raise DsqError("bin edges must be at least two increasing numbers")
    idx = np.searchsorted(edges, plies, side="right") - 1
    ok = (idx >= 0) & (idx < edges.size - 1)
    hist = np.bincount(idx[ok], weights=games[ok], minlength=edges.size - 1)
    total = games.sum()
    return pd.DataFrame(
        {
            "start": edges[:-1],
            "end": edges[1:],
            "games": hist.astype(np.int64),
            "share": hist / total if total else np.nan,
        }
    )


def end_reasons(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Games by end reason, every reason of the schema listed (zeros included).

    Columns: ``reason``, ``games``, ``share``, ``low``, ``high`` (Wilson), and the games of
    that reason won by ``red``, ``blue`` or ``draw``.
    """
    rows = query_rows(
        con,
        selection or Selection(),
        "SELECT coalesce(reason, 'other'), winner, sum(games)::BIGINT FROM sel GROUP BY 1, 2",
        source=CELLS,
    )
    table: dict[str, dict[str, int]] = {r: {"red": 0, "blue": 0, "draw": 0} for r in REASONS}
    for reason, winner, n in rows:
        key = reason if reason in table or reason == "other" else "other"
        d = table.setdefault(key, {"red": 0, "blue": 0, "draw": 0})
        if winner in d:
            d[winner] += int(n)
    total = sum(sum(d.values()) for d in table.values())
    out = []
    for reason, d in table.items():
        k = sum(d.values())
        p = proportion(k, total, confidence)
        out.append(
            {"reason": reason, "games": k, "share": p.rate, "low": p.low, "high": p.high, **d}
        )
    return pd.DataFrame(out)


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
