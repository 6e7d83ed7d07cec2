"""Writing selected games out as text records, CSV or JSON lines, streamed in batches.

The games of a :class:`~sim.stats.query.Selection` are read from the dataset's ``games``
view in order of batch and game index, a few hundred rows at a time (DuckDB hands them
over as Arrow record batches), so an export of millions of games holds only one batch in
memory (:func:`export_parquet` lets DuckDB write the file, also streamed). Formats:
``text`` (:mod:`sim.storage.gametext`, docs/game-records.md), ``csv``
(one row per game, every column of GAME_SCHEMA; moves as ``a3a4 a7a6 ...``, the other
lists and the engines as JSON, NULL as an empty cell) and ``jsonl`` (one object per game,
every column, moves as a list of ``a3a4`` texts); :func:`export_parquet` writes every
column as stored (the games files' schema).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import duckdb

from engine.errors import DsqError
from sim.storage.gametext import format_game, short_float
from sim.storage.schema import GAME_SCHEMA

if TYPE_CHECKING:
    from sim.stats.query import Selection

FORMATS = ("text", "csv", "jsonl")
BATCH_ROWS = 500
ROW_GROUP_SIZE = 10_240  # rows of one row group of an exported parquet file (DuckDB: 5 x 2,048)
FLOAT_COLUMNS = ("branching", "duration_ms")


def batch_dates(batches: list[dict[str, Any]]) -> dict[str, str]:
    """The ``Date`` of each batch (``2026.12.01``): the day its record was created, or for
    imported games the date they were exported with."""
    out: dict[str, str] = {}
    for rec in batches:
        imported = rec.get("imported")
        if isinstance(imported, dict):
            date = imported.get("date")
        else:
            created = rec.get("created_at")
            date = created[:10].replace("-", ".") if isinstance(created, str) else None
        if isinstance(date, str):
            out[rec["batch_id"]] = date
    return out


def selected_rows(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    batch_rows: int = BATCH_ROWS,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int | None = None,
    offset: int = 0,
) -> Iterator[list[dict[str, Any]]]:
    """The selected games (also only those ``winners`` and end ``reasons``, when given; at
    most ``limit``, after skipping ``offset``) as lists of row dicts (every column), by
    batch and game index, ``batch_rows`` at a time."""
    sql, params = selected_sql(selection, winners, reasons, limit, offset)
    yield from _batches(con, sql, params, batch_rows)


def selected_sql(
    selection: Selection,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int | None = None,
    offset: int = 0,
) -> tuple[str, list[Any]]:
    """The query of :func:`selected_rows` (every column, by batch and game index) and its
    parameters."""
    cond, params = selection.where()
    for column, values in (("winner", winners), ("reason", reasons)):
        if values:
            cond += f" AND {column} IN ({', '.join('?' for _ in values)})"
            params += list(values)
    sql = f"SELECT * FROM games WHERE {cond} ORDER BY batch_id, game_index"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    if offset:
        sql += f" OFFSET {int(offset)}"
    return sql, params


def _batches(
    con: duckdb.DuckDBPyConnection, sql: str, params: list[Any], batch_rows: int
) -> Iterator[list[dict[str, Any]]]:
    try:
        reader = con.sql(sql, params=params).to_arrow_reader(batch_rows)
        for batch in reader:
            yield batch.to_pylist()
    except duckdb.Error as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DsqError(f"cannot read the games: {msg}") from None


def game_text(
    con: duckdb.DuckDBPyConnection, batch_id: str, game_index: int, date: str | None = None
) -> str | None:
    """The text record of one game (None when there is no such game)."""
    sql = "SELECT * FROM games WHERE batch_id = ? AND game_index = ? LIMIT 1"
    for rows in _batches(con, sql, [batch_id, int(game_index)], 1):
        return format_game(rows[0], date)
    return None


@cache
def _move_names() -> tuple[str, ...]:
    """``a3a4`` for every move code ``from * 64 + to`` (a look-up: exports decode millions)."""
    # lazy: start-up time (the engine package loads its compiled kernels)
    from engine.position import decode_move

    return tuple(decode_move(code) for code in range(64 * 64))


def _moves(row: dict[str, Any]) -> list[str]:
    names = _move_names()
    return [names[int(m)] for m in row["moves"]]


def json_row(row: dict[str, Any]) -> dict[str, Any]:
    """A game row with moves as ``a3a4`` texts and 32-bit floats written shortest."""
    out = dict(row)
    out["moves"] = _moves(row)
    for col in FLOAT_COLUMNS:
        if out[col] is not None:
            out[col] = float(short_float(out[col]))
    if out["scores"] is not None:
        out["scores"] = [None if s is None else float(short_float(s)) for s in out["scores"]]
    return out


def csv_cells(row: dict[str, Any]) -> list[str]:
    """The CSV cells of a game row, in the columns' order (see the module docstring)."""
    cells = []
    as_json: dict[str, Any] | None = None
    for name in GAME_SCHEMA.names:
        value = row[name]
        if value is None:
            cells.append("")
        elif name == "moves":
            cells.append(" ".join(_moves(row)))
        elif name in FLOAT_COLUMNS:
            cells.append(short_float(value))
        elif isinstance(value, list | dict):
            as_json = as_json or json_row(row)
            cells.append(json.dumps(as_json[name], separators=(",", ":")))
        else:
            cells.append(str(value))
    return cells


def export_games(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    fmt: str,
    out: TextIO,
    dates: dict[str, str] | None = None,
    *,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int | None = None,
    offset: int = 0,
) -> int:
    """Write the selected games to ``out`` in format ``fmt`` (only ``winners`` and
    ``reasons`` when given, at most ``limit``, after skipping ``offset``); the number of
    games."""
    if fmt not in FORMATS:
        raise DsqError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    dates = dates or {}
    writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(GAME_SCHEMA.names)
    count = 0
    for rows in selected_rows(con, selection, BATCH_ROWS, winners, reasons, limit, offset):
        if fmt == "text":
            out.writelines(format_game(r, dates.get(r["batch_id"])) for r in rows)
        elif writer is not None:
            writer.writerows(csv_cells(r) for r in rows)
        else:
            out.writelines(json.dumps(json_row(r), ensure_ascii=False) + "\n" for r in rows)
        count += len(rows)
    return count


def export_parquet(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    path: str | Path,
    *,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int | None = None,
    offset: int = 0,
) -> int:
    """Write the selected games (as :func:`export_games` picks them) to the parquet file
    ``path``, every column as stored, by batch and game index; DuckDB streams the rows into
    the file (``ROW_GROUP_SIZE`` rows at a time). The number of games."""
    sql, params = selected_sql(selection, winners, reasons, limit, offset)
    try:
        con.sql(sql, params=params).write_parquet(str(path), row_group_size=ROW_GROUP_SIZE)
        [(count,)] = con.execute("SELECT count(*) FROM read_parquet(?)", [str(path)]).fetchall()
        return int(count)
    except duckdb.Error as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DsqError(f"cannot write the games: {msg}") from None
