"""How the games of a selection spread: the games per exact length, a histogram of the
lengths, and the games per end reason with who won them (every reason of
:data:`sim.storage.schema.REASONS`, zeros included). Lengths are in plies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import duckdb
import numpy as np
import pandas as pd

from engine.errors import DsqError
from sim.stats.intervals import proportion
from sim.stats.query import CELLS, Selection, query_df, query_rows
from sim.storage.schema import REASONS


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
