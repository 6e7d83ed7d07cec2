"""Writing selected games out as text records, CSV or JSON lines, streamed in batches.

The games of a :class:`~sim.stats.query.Selection` are read from the dataset's ``games``
view in order of batch and game index, a few hundred rows at a time (DuckDB hands them
over as Arrow record batches), so an export of millions of games holds only one batch in
memory; only the selection's keys are sorted whole, its rows a page at a time
(:func:`selected_pages`). Formats:
``text`` (:mod:`sim.records.gametext`, docs/game-records.md), ``csv``
(one row per game, every column of GAME_SCHEMA; moves as ``a3a4 a7a6 ...``, the other
lists and the engines as JSON, NULL as an empty cell) and ``jsonl`` (one object per game,
every column, moves as a list of ``a3a4`` texts); :func:`export_parquet` writes every
column as stored (the games files' schema).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import duckdb
import pyarrow as pa

from engine.errors import DsqError
from sim.records.gametext import format_game, short_float
from sim.storage.schema import GAME_SCHEMA

if TYPE_CHECKING:
    from sim.stats.query import Selection

FORMATS = ("text", "csv", "jsonl")
BATCH_ROWS = 500
PAGE_ROWS = 10_000  # whole rows DuckDB reads and sorts at a time (a parquet row group)
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
    batch and game index, ``batch_rows`` at a time; the games void under their rule set's
    scoring rule too."""
    for table in selected_pages(con, selection, winners, reasons, limit, offset):
        for batch in table.to_batches(max_chunksize=batch_rows):
            yield batch.to_pylist()


def _condition(
    selection: Selection, winners: tuple[str, ...], reasons: tuple[str, ...]
) -> tuple[str, list[Any]]:
    cond, params = selection.where(scored=False)
    for column, values in (("winner", winners), ("reason", reasons)):
        if values:
            cond += f" AND {column} IN ({', '.join('?' for _ in values)})"
            params += list(values)
    return cond, params


_IN_RANGE = (
    " AND (batch_id > ? OR (batch_id = ? AND game_index >= ?))"
    " AND (batch_id < ? OR (batch_id = ? AND game_index <= ?))"
)


def selected_pages(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int | None = None,
    offset: int = 0,
    page_rows: int | None = None,
) -> Iterator[pa.Table]:
    """The games :func:`selected_rows` gives, as Arrow tables of at most ``page_rows``
    rows (``PAGE_ROWS`` by default). Only the keys (batch, game index) of the selection
    are sorted at once; each page's games are then read and sorted alone, so DuckDB
    never sorts more than a page of whole rows."""
    cond, params = _condition(selection, winners, reasons)
    keys_sql = f"SELECT batch_id, game_index FROM games WHERE {cond} ORDER BY 1, 2"
    if limit is not None:
        keys_sql += f" LIMIT {int(limit)}"
    if offset:
        keys_sql += f" OFFSET {int(offset)}"
    page_sql = f"SELECT * FROM games WHERE {cond}{_IN_RANGE} ORDER BY batch_id, game_index"
    page_rows = page_rows or PAGE_ROWS
    try:
        keys = con.sql(keys_sql, params=params).to_arrow_table()
        for start in range(0, keys.num_rows, page_rows):
            last = min(start + page_rows, keys.num_rows) - 1
            b0, i0 = keys["batch_id"][start].as_py(), keys["game_index"][start].as_py()
            b1, i1 = keys["batch_id"][last].as_py(), keys["game_index"][last].as_py()
            bounds = [b0, b0, i0, b1, b1, i1]
            yield con.sql(page_sql, params=params + bounds).to_arrow_table()
    except duckdb.Error as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DsqError(f"cannot read the games: {msg}") from None


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
    out["moves"] = None if row["moves"] is None else _moves(row)  # None: not recorded
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


def export_chunks(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    fmt: str,
    dates: dict[str, str] | None = None,
    *,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int | None = None,
    offset: int = 0,
) -> Iterator[tuple[int, str]]:
    """The file :func:`export_games` writes, in pieces: ``(games, text)`` for at most
    ``BATCH_ROWS`` games at a time (the CSV header first, 0 games), read a page at a
    time: a stream of any length that holds one page in memory."""
    if fmt not in FORMATS:
        raise DsqError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    dates = dates or {}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(GAME_SCHEMA.names)
        yield 0, buffer.getvalue()
    for rows in selected_rows(con, selection, BATCH_ROWS, winners, reasons, limit, offset):
        if fmt == "text":
            yield len(rows), "".join(format_game(r, dates.get(r["batch_id"])) for r in rows)
        elif writer is not None:
            buffer.seek(0)
            buffer.truncate()
            writer.writerows(csv_cells(r) for r in rows)
            yield len(rows), buffer.getvalue()
        else:
            lines = (json.dumps(json_row(r), ensure_ascii=False) + "\n" for r in rows)
            yield len(rows), "".join(lines)


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
    games. No game selected writes nothing, not even the CSV header: the caller says so."""
    count = 0
    chunks = export_chunks(
        con, selection, fmt, dates, winners=winners, reasons=reasons, limit=limit, offset=offset
    )
    held: list[str] = []  # what comes before the first game (a header)
    for games, text in chunks:
        if not count and not games:
            held.append(text)
            continue
        out.write("".join(held) + text)
        held.clear()
        count += games
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
    ``path``, every column as stored, by batch and game index, one row group per page of
    :func:`selected_pages` (at most ``PAGE_ROWS`` games). The number of games."""
    # lazy: start-up time (pyarrow.parquet: only for a parquet export)
    import pyarrow.parquet as pq

    count = 0
    writer: pq.ParquetWriter | None = None
    try:
        for table in selected_pages(con, selection, winners, reasons, limit, offset):
            if writer is None:
                writer = pq.ParquetWriter(str(path), table.schema, compression="zstd")
            writer.write_table(table, row_group_size=table.num_rows)
            count += table.num_rows
    finally:
        if writer is not None:
            writer.close()
    if writer is None:  # no game: an empty file with the view's columns
        empty = con.sql("SELECT * FROM games LIMIT 0").to_arrow_table()
        pq.write_table(empty, str(path))
    return count
