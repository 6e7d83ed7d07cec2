"""Where readers get the files' summaries, and the views the statistics read them by.

A reader needs the summary of every verified file (:mod:`sim.storage.summary`). Each
games folder keeps a hidden cache, ``.summaries``: the summaries of its files, each
under the file's identity (size, modification and inode change times, as verdicts are
keyed), with the digest of the whole sealed under dsq's key (:mod:`sim.storage.seal`),
so a cache written by hand or copied from elsewhere is ignored. A file the cache does
not hold as it is now is read from its footer (a few kilobytes), or, for a file written
before summaries, summarised from its games once (the verifier keeps that summary).
Warm, a data folder's statistics read one cache per batch and no file of games.

:func:`define_views` names the summary's parts for SQL: ``cells``, ``capture_cells`` and
``pair_cells`` (the complete colour-swapped pairs, those whose games lie in two files
paired here); :func:`ensure_views` gives a connection holding only games the same views.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from sim.storage.atomic import atomic_write_bytes
from sim.storage.gamesql import ADJUDICATED
from sim.storage.paths import special_reason
from sim.storage.schema import GAME_SCHEMA
from sim.storage.seal import seal
from sim.storage.summarizing import merge, summarize
from sim.storage.summary import (
    CAPTURES,
    CELLS,
    HALVES,
    PAIRS,
    SUMMARY_SCHEMA,
    computed_summary,
    decode,
    encode,
    stored_summary,
)
from sim.storage.verify import Key, file_key

CACHE_NAME = ".summaries"
CACHE_VERSION = 3
HEADER_LIMIT = 64 << 20  # bytes of a cache's header line
CACHE_LIMIT = 1 << 30  # bytes of one folder's summary cache


Entries = dict[str, tuple[Key, pa.Table, bool]]  # identity, summary, every column


def _read_cache(path: Path) -> tuple[dict, int, object]:
    """The cache's header, where its body starts, and the open file (read no further)."""
    if special_reason(path) is not None:
        raise OSError("not a regular file")
    fh = open(path, "rb")  # noqa: SIM115 - closed by the caller
    head = fh.readline(HEADER_LIMIT)
    if not head.endswith(b"\n"):
        fh.close()
        raise ValueError("no header")
    return json.loads(head), len(head), fh


def _load(folder: Path, want: dict[str, Key]) -> tuple[Entries, pa.Table | None, bool]:
    """The folder's cached summaries by file name, and their merged summary when the cache
    holds exactly the files ``want`` (name -> identity): then only the merged part is read
    (and the per-file ones are not), with whether every file holds every column. Empty
    when absent, damaged or forged."""
    try:
        header, start, fh = _read_cache(folder / CACHE_NAME)
        with fh:  # type: ignore[attr-defined]
            if header.get("version") != CACHE_VERSION:
                return {}, None, False
            files, parts, digests = header["files"], header["parts"], header["digests"]
            if header["seal"] != seal([CACHE_VERSION, files, parts, digests]):
                return {}, None, False
            each_size, whole_size = (int(n) for n in parts)
            if each_size < 0 or whole_size < 0 or each_size + whole_size > CACHE_LIMIT:
                return {}, None, False
            keys = {n: tuple(int(x) for x in v[:3]) for n, v in files.items()}
            if keys == want:
                fh.seek(start + each_size)  # type: ignore[attr-defined]
                merged = fh.read(whole_size)  # type: ignore[attr-defined]
                if hashlib.sha256(merged).hexdigest() == digests[1]:
                    return {}, decode(merged), all(bool(v[5]) for v in files.values())
            fh.seek(start)  # type: ignore[attr-defined]
            each = fh.read(each_size)  # type: ignore[attr-defined]
        if hashlib.sha256(each).hexdigest() != digests[0]:
            return {}, None, False
        table = decode(each)
        out = {}
        for name, (size, mtime, ctime, first, stop, full) in files.items():
            rows = table.slice(first, stop - first)
            out[name] = ((int(size), int(mtime), int(ctime)), rows, bool(full))
        return out, None, False
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError):
        return {}, None, False


def _save(folder: Path, entries: Entries, merged: pa.Table) -> None:
    """Write the folder's cache: each file's summary (compressed: read only when a file
    changed), then their merged summary (not: read at every open). Best effort: a
    read-only folder only costs reading the footers again."""
    files, tables, at = {}, [], 0
    for name, (key, table, full) in sorted(entries.items()):
        files[name] = [*key, at, at + table.num_rows, full]
        tables.append(table)
        at += table.num_rows
    each = encode(pa.concat_tables(tables) if tables else SUMMARY_SCHEMA.empty_table())
    whole = encode(merged, "ipc")
    parts = [len(each), len(whole)]
    digests = [hashlib.sha256(each).hexdigest(), hashlib.sha256(whole).hexdigest()]
    header = {"version": CACHE_VERSION, "files": files, "parts": parts, "digests": digests}
    header["seal"] = seal([CACHE_VERSION, files, parts, digests])
    try:
        atomic_write_bytes(folder / CACHE_NAME, json.dumps(header).encode() + b"\n" + each + whole)
    except OSError:
        pass


def _summary_of(path: Path) -> tuple[pa.Table, bool]:
    """A verified file's summary (from its footer, or from its games when it has none),
    and whether the file holds every column of the games schema."""
    try:
        meta = pq.read_metadata(path)
    except (pa.ArrowException, OSError) as exc:
        raise OSError(f"cannot read the footer of {Path(path).name}: {exc}") from None
    full = set(GAME_SCHEMA.names) <= set(meta.schema.to_arrow_schema().names)
    stored = stored_summary(meta.metadata)
    if stored is not None:
        return stored, full
    kept = computed_summary(path)
    if kept is not None:
        return kept, full
    return summarize(pq.read_table(path)), full


@dataclass
class Summaries:
    """What :func:`file_summaries` found: the summary of the files (each folder's merged),
    the files left out with why, and whether every file holds every column of the games
    schema (then the ``games`` view needs no reconciling of older files' columns)."""

    table: pa.Table
    bad: list[tuple[Path, str]]
    full: bool


def file_summaries(files: list[Path]) -> Summaries:
    """The summaries of the verified games files ``files`` (see :class:`Summaries`); a
    file is left out when its footer cannot be read or its summary is damaged (it changed
    since it was verified)."""
    bad: list[tuple[Path, str]] = []
    by_folder: dict[Path, list[Path]] = {}
    for p in files:
        by_folder.setdefault(p.parent, []).append(p)
    parts: list[pa.Table] = []
    full = True
    for folder, paths in by_folder.items():
        want = {p.name: file_key(p) or (0, 0, 0) for p in paths}
        cached, merged, whole = _load(folder, want)
        if merged is not None:
            parts.append(merged)
            full = full and whole
            continue
        entries: Entries = {}
        for p in paths:
            hit = cached.get(p.name)
            if hit is not None and hit[0] == want[p.name]:
                entries[p.name] = hit
                continue
            try:
                entries[p.name] = (want[p.name], *_summary_of(p))
            except (OSError, ValueError) as exc:
                bad.append((p, str(exc).splitlines()[0][:300] if str(exc) else "unreadable"))
        merged = merge([e[1] for e in entries.values()])
        if entries:
            _save(folder, entries, merged)
        parts.append(merged)
        full = full and all(e[2] for e in entries.values())
    table = pa.concat_tables(parts) if parts else SUMMARY_SCHEMA.empty_table()
    return Summaries(table, bad, full)


_ADJ = ", ".join(f"'{r}'" for r in ADJUDICATED)

_HP = """CASE WHEN winner = 'draw' THEN 1
              WHEN winner = 'red' AND red < blue THEN 2
              WHEN winner = 'blue' AND blue < red THEN 2 ELSE 0 END"""

_VIEWS = {
    "cells": f"""
SELECT batch_id, rules, red, blue, first_side, stored, winner, reason, den_animal, plies,
       void, games, branching_sum, branching_n, duration_sum, duration_n
FROM {{src}} WHERE kind = {CELLS}""",
    "capture_cells": f"""
SELECT batch_id, rules, red, blue, adjudicated, void, capturer, captured, square, games
FROM {{src}} WHERE kind = {CAPTURES}""",
    "pair_cells": f"""
SELECT batch_id, rules, red, blue, hp, plies, adjudicated, games
FROM {{src}} WHERE kind = {PAIRS}
UNION ALL
SELECT batch_id, min(rules), min(red), max(red), sum(games * ({_HP}))::TINYINT, min(plies),
       bool_or(coalesce(reason, '') IN ({_ADJ})), 1
FROM {{src}} WHERE kind = {HALVES} GROUP BY batch_id, pair_id
HAVING sum(games) = 2 AND min(red) = min(blue) AND max(red) = max(blue)
   AND min(red) <> max(red) AND min(rules) = max(rules)""",
}


FROM_GAMES = "_summary_from_games"  # marks a summary computed from a connection's games


def define_views(con: duckdb.DuckDBPyConnection, summary: str = "summary") -> None:
    """Create the views ``cells``, ``capture_cells`` and ``pair_cells`` over the relation
    ``summary`` (a table of summaries)."""
    for name, sql in _VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql.format(src=summary)}")


def _has(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    try:
        con.execute(f"SELECT 1 FROM {name} LIMIT 0")
    except duckdb.CatalogException:
        return False
    return True


def ensure_views(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """``con`` with the summary views: those of an opened dataset as they are; on a
    connection that holds only a ``games`` view, over the summary of its games, computed
    again at each call (so it follows the games)."""
    if _has(con, "summary") and not _has(con, FROM_GAMES):
        return con
    con.register("summary", summarize(con.sql("SELECT * FROM games").to_arrow_table()))
    con.execute(f"CREATE OR REPLACE VIEW {FROM_GAMES} AS SELECT 1")
    define_views(con)
    return con
