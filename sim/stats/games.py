"""Browsing the recorded games themselves: the values present, a page of games, one game.

Pure functions of a DuckDB connection with the ``games`` view, like the rest of
:mod:`sim.stats`; the dashboard's filters, Games table and replay call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import duckdb
import pandas as pd

from sim.stats.query import Selection, summary_con
from sim.storage.schema import GameRecord

LISTING_COLUMNS = (
    "batch_id", "game_index", "rules", "red", "blue", "winner", "reason", "plies",
    "red_captures", "blue_captures", "seed", "opening_plies",
)  # fmt: skip
LIST_COLUMNS = ("moves", "captures", "move_ms", "scores")


def distinct_values(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """The rules specs, bot specs (either colour) and batch ids present, each sorted."""

    def column(sql: str) -> list[str]:
        return [row[0] for row in con.execute(sql).fetchall()]

    summary_con(con)  # the summaries' cells hold every game's rules, bots and batch
    return {
        "rules": column("SELECT DISTINCT rules FROM cells ORDER BY 1"),
        "bots": column(
            "SELECT DISTINCT b FROM (SELECT red AS b FROM cells UNION SELECT blue FROM cells) "
            "ORDER BY 1"
        ),
        "batches": column("SELECT DISTINCT batch_id FROM cells ORDER BY 1"),
    }


def list_games(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int = 200,
    offset: int = 0,
) -> tuple[pd.DataFrame, int]:
    """One page of the selected games (``LISTING_COLUMNS``, by batch and game index),
    optionally only those with the given winners and end reasons, and how many there are.
    Games void under their rule set's scoring rule are listed too (they are games, only
    not results)."""
    cond, params = (selection or Selection()).where(scored=False)
    if winners:
        cond += f" AND winner IN ({', '.join('?' for _ in winners)})"
        params += list(winners)
    if reasons:
        cond += f" AND reason IN ({', '.join('?' for _ in reasons)})"
        params += list(reasons)
    total = int(con.execute(f"SELECT count(*) FROM games WHERE {cond}", params).fetchall()[0][0])
    df = con.execute(
        f"SELECT {', '.join(LISTING_COLUMNS)} FROM games WHERE {cond} "
        "ORDER BY batch_id, game_index LIMIT ? OFFSET ?",
        [*params, int(limit), int(offset)],
    ).df()
    return df, total


def game_record(
    con: duckdb.DuckDBPyConnection, batch_id: str, game_index: int
) -> GameRecord | None:
    """Every column of one recorded game as Python values (the list columns as lists,
    ``moves`` None for a game recorded without them, ``start_fen`` None for the initial
    position), or None."""
    df = con.execute(
        "SELECT * FROM games WHERE batch_id = ? AND game_index = ? LIMIT 1",
        [batch_id, int(game_index)],
    ).df()
    if df.empty:
        return None
    row = df.iloc[0].to_dict()
    for column in LIST_COLUMNS:  # numpy arrays from DuckDB; None: NULL
        items = row.get(column)
        row[column] = None if items is None else list(items)
    if row["moves"] is not None:
        row["moves"] = [int(m) for m in row["moves"]]
    fen = row.get("start_fen")
    row["start_fen"] = fen if isinstance(fen, str) else None  # NULL: the initial position
    return cast(GameRecord, row)


def replay_input(record: Mapping[str, Any]) -> dict[str, Any]:
    """A recorded game as a line of ``dsq replay --jsonl``: its rules, the FEN it began from
    (null: the initial position) and its moves written like ``a3a4``."""
    # lazy: start-up time (numba kernels)
    from engine.position import decode_move

    fen = record.get("start_fen")
    return {
        "rules": record["rules"],
        "fen": fen if isinstance(fen, str) else None,
        "moves": [decode_move(int(m)) for m in record["moves"]],
    }
