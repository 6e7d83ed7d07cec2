"""Game details: which animal entered the den, who captured whom, where captures happen.

Piece codes (parquet ``captures``): 1..8 red rat, cat, dog, wolf, leopard, tiger, lion,
elephant; 9..16 the same for blue. Squares: ``index = (rank - 1) * 7 + file``, ``a1 =
0``, ``g9 = 62``.
"""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np
import pandas as pd

from engine.errors import DsqError
from sim.stats.query import CAPTURES, CELLS, Selection, query_rows
from sim.storage.schema import ANIMALS

FILES = "abcdefg"


def square_name(index: int) -> str:
    """``0 -> "a1"``, ``62 -> "g9"``."""
    return f"{FILES[index % 7]}{index // 7 + 1}"


def _side_filter(side: str | None, column: str) -> tuple[str, list[int]]:
    if side is None:
        return "TRUE", []
    if side == "red":
        return f"{column} BETWEEN 1 AND 8", []
    if side == "blue":
        return f"{column} BETWEEN 9 AND 16", []
    raise DsqError(f"side must be red, blue or none, got {side!r}")


def unstored_games(con: duckdb.DuckDBPyConnection, selection: Selection | None = None) -> int:
    """How many of the selected games were recorded without their moves (``dsq simulate
    --record outcomes``): counted in every figure but those of captures."""
    rows = query_rows(
        con, selection or Selection(), "SELECT sum(games) FROM sel WHERE NOT stored", source=CELLS
    )
    return int(rows[0][0] or 0)


def den_animals(con: duckdb.DuckDBPyConnection, selection: Selection | None = None) -> pd.DataFrame:
    """Games won by entering the den, per animal: columns ``animal``, ``red``, ``blue``
    (the winner's colour), ``total``, ``share`` (of den wins); every animal listed."""
    rows = query_rows(
        con,
        selection or Selection(),
        "SELECT den_animal, winner, sum(games)::BIGINT FROM sel "
        "WHERE reason = 'den' AND den_animal IS NOT NULL GROUP BY 1, 2",
        source=CELLS,
    )
    table = {a: {"red": 0, "blue": 0} for a in ANIMALS}
    for animal, winner, n in rows:
        d = table.setdefault(str(animal), {"red": 0, "blue": 0})
        if winner in d:
            d[winner] += int(n)
    df = pd.DataFrame([{"animal": a, "red": d["red"], "blue": d["blue"]} for a, d in table.items()])
    df["total"] = df["red"] + df["blue"]
    tot = df["total"].sum()
    df["share"] = df["total"] / tot if tot else np.nan
    return df


_UNNEST = "SELECT unnest(captures) AS c FROM sel WHERE len(captures) > 0"


def _capture_rows(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    keys: str,
    cond: str,
    params: list[object] | None = None,
) -> list[tuple[Any, ...]]:
    """Capture events counted per ``keys`` (expressions of ``capturer``, ``captured``,
    ``square``) where ``cond``: from the summaries' capture cells, or from the games
    when the selection sets a minimum length (capture cells do not hold lengths)."""
    where = cond
    if selection.min_plies:
        body = (
            f", caps AS ({_UNNEST}), ev AS (SELECT c.capturer AS capturer, c.captured AS "
            f"captured, c.square AS square FROM caps) SELECT {keys}, count(*)::BIGINT "
            f"FROM ev WHERE {where} GROUP BY ALL"
        )
        return query_rows(con, selection, body, params)
    body = f"SELECT {keys}, sum(games)::BIGINT FROM sel WHERE {where} GROUP BY ALL"
    return query_rows(con, selection, body, params, source=CAPTURES)


def capture_matrix(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None, side: str | None = None
) -> pd.DataFrame:
    """Captures counted by capturing animal (rows) and captured animal (columns).

    ``side``: ``"red"`` or ``"blue"`` counts only that side's captures; ``None`` both
    (by animal, colours pooled). An 8 x 8 DataFrame indexed rat..elephant.
    """
    cond, _ = _side_filter(side, "capturer")
    cond += " AND capturer BETWEEN 1 AND 16 AND captured BETWEEN 1 AND 16"
    rows = _capture_rows(
        con, selection or Selection(), "(capturer - 1) % 8, (captured - 1) % 8", cond
    )
    m = np.zeros((8, 8), dtype=np.int64)
    for i, j, n in rows:
        m[int(i), int(j)] += int(n)
    return pd.DataFrame(
        m,
        index=pd.Index(ANIMALS, name="capturer"),
        columns=pd.Index(ANIMALS, name="captured"),
    )


def capture_squares(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    side: str | None = None,
    animal: str | None = None,
) -> pd.DataFrame:
    """Captures per board square (63 rows, ``square`` 0..62, zeros included).

    Columns: ``square``, ``name`` (``a1``..``g9``), ``file`` (0..6), ``rank`` (1..9),
    ``captures``, ``share``. ``side`` restricts to the captures made by red or blue;
    ``animal`` to those made by that animal (``"lion"``...). :func:`square_grid` turns the
    result into a 9 x 7 board for a heat map.
    """
    cond, _ = _side_filter(side, "capturer")
    params: list[object] = []
    if animal is not None:
        if animal not in ANIMALS:
            raise DsqError(f"unknown animal {animal!r} (one of {', '.join(ANIMALS)})")
        cond += " AND (capturer - 1) % 8 = ?"
        params.append(ANIMALS.index(animal))
    cond += " AND square BETWEEN 0 AND 62"
    rows = _capture_rows(con, selection or Selection(), "square", cond, params)
    counts = np.zeros(63, dtype=np.int64)
    for sq, n in rows:
        counts[int(sq)] += int(n)
    tot = counts.sum()
    sq = np.arange(63)
    return pd.DataFrame(
        {
            "square": sq,
            "name": [square_name(int(i)) for i in sq],
            "file": sq % 7,
            "rank": sq // 7 + 1,
            "captures": counts,
            "share": counts / tot if tot else np.full(63, np.nan),
        }
    )


def square_grid(squares: pd.DataFrame, column: str = "captures") -> pd.DataFrame:
    """A 9 x 7 board (rows rank 9 down to 1, columns a..g) from :func:`capture_squares`."""
    grid = np.zeros((9, 7))
    for sq, v in zip(squares["square"], squares[column], strict=True):
        grid[8 - int(sq) // 7, int(sq) % 7] = v
    return pd.DataFrame(grid, index=pd.Index(range(9, 0, -1), name="rank"), columns=list(FILES))
