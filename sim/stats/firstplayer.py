"""The first player's raw score per batch, or per day: a figure to follow over time.

The first player is the side to move in a game's start position
(:data:`sim.stats.query.FIRST_SIDE_SQL`); its score is (wins + draws / 2) / games with
the interval of :func:`sim.stats.intervals.score_interval`, the same figure as
``first_score`` / ``first_low`` / ``first_high`` of :func:`sim.stats.general_stats_by`
(``dsq stats --by batch``). It is not controlled for the bots: a batch of a strong bot
moving first against a weak one shows the bots' difference. The first-move advantage
fitted with the bots' strengths is :func:`sim.stats.first_move`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import duckdb
import pandas as pd

from sim.stats.general import score_estimate
from sim.stats.query import CELLS, Selection, query_df

COLUMNS = ("games", "wins", "draws", "losses", "score", "low", "high")

_COUNTS = """
SELECT batch_id AS batch,
       sum(games)::BIGINT AS games,
       coalesce(sum(games) FILTER (WHERE winner = first_side), 0)::BIGINT AS wins,
       coalesce(sum(games) FILTER (WHERE winner = 'draw'), 0)::BIGINT AS draws,
       coalesce(sum(games) FILTER (WHERE winner NOT IN ('draw', first_side)), 0)::BIGINT
           AS losses
FROM sel GROUP BY 1 ORDER BY 1
"""


def _scored(counts: pd.DataFrame, key: str, confidence: float) -> pd.DataFrame:
    rows = []
    for r in counts.to_dict("records"):
        est = score_estimate(int(r["wins"]), int(r["draws"]), int(r["losses"]), confidence)
        rows.append(
            {key: r[key], "games": int(r["games"]), "wins": est.wins, "draws": est.draws,
             "losses": est.losses, "score": est.score, "low": est.low, "high": est.high}
        )  # fmt: skip
    return pd.DataFrame(rows, columns=[key, *COLUMNS])


def first_player_by_batch(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Per batch (column ``batch``, sorted): ``games``, the first player's ``wins``,
    ``draws`` and ``losses``, its ``score`` and interval ``low``..``high``."""
    counts = query_df(con, selection or Selection(), _COUNTS, source=CELLS)
    return _scored(counts, "batch", confidence)


def first_player_by_day(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    days: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Like :func:`first_player_by_batch`, pooled per day (column ``day``, sorted): the
    games of every batch whose ``days[batch]`` (a ``YYYY-MM-DD`` date: when the batch
    was created; a mapping or its items) is that day; batches without a day are left
    out."""
    counts = query_df(con, selection or Selection(), _COUNTS, source=CELLS)
    when = dict(days or {})
    counts["day"] = [when.get(str(b)) for b in counts["batch"]]
    counts = counts.dropna(subset=["day"])
    pooled = counts.groupby("day", as_index=False)[["games", "wins", "draws", "losses"]].sum()
    return _scored(pooled.sort_values("day"), "day", confidence)
