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
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from sim.storage.atomic import atomic_write_bytes
from sim.storage.gamesql import ADJUDICATED
from sim.storage.paths import read_bounded
from sim.storage.seal import seal
from sim.storage.summarize import merge, summarize
from sim.storage.summary import (
    CAPTURES,
    CELLS,
    HALVES,
    PAIRS,
    SUMMARY_SCHEMA,
    computed_summary,
    decode,
    encode,
    file_summary,
)

CACHE_NAME = ".summaries"
CACHE_VERSION = 1
CACHE_LIMIT = 1 << 30  # bytes of one folder's summary cache

Key = tuple[int, int, int]  # size, mtime_ns, ctime_ns


def _key(path: Path) -> Key | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns)


Entries = dict[str, tuple[Key, pa.Table]]


def _load(folder: Path, want: dict[str, Key]) -> tuple[Entries, pa.Table | None]:
    """The folder's cached summaries by file name, and their merged summary when the cache
    holds exactly the files ``want`` (name -> identity): then only the merged part is read
    (and the per-file ones are not). Empty when absent, damaged or forged."""
    try:
        data = read_bounded(folder / CACHE_NAME, CACHE_LIMIT)
        head, _, body = data.partition(b"\n")
        header = json.loads(head)
        if header.get("version") != CACHE_VERSION:
            return {}, None
        files, parts, digests = header["files"], header["parts"], header["digests"]
        if header["seal"] != seal([CACHE_VERSION, files, parts, digests]):
            return {}, None
        split = int(parts[0])
        keys = {n: tuple(int(x) for x in v[:3]) for n, v in files.items()}
        if keys == want:
            merged = body[split:]
            if hashlib.sha256(merged).hexdigest() == digests[1]:
                return {}, decode(merged)
        each = body[:split]
        if hashlib.sha256(each).hexdigest() != digests[0]:
            return {}, None
        table = decode(each)
        out = {}
        for name, (size, mtime, ctime, start, stop) in files.items():
            out[name] = ((int(size), int(mtime), int(ctime)), table.slice(start, stop - start))
        return out, None
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError):
        return {}, None


def _save(folder: Path, entries: Entries, merged: pa.Table) -> None:
    """Write the folder's cache: each file's summary, then their merged summary (best
    effort: a read-only folder only costs reading the footers again)."""
    files, tables, at = {}, [], 0
    for name, (key, table) in sorted(entries.items()):
        files[name] = [*key, at, at + table.num_rows]
        tables.append(table)
        at += table.num_rows
    each = encode(pa.concat_tables(tables) if tables else SUMMARY_SCHEMA.empty_table(), False)
    whole = encode(merged, False)
    parts = [len(each), len(whole)]
    digests = [hashlib.sha256(each).hexdigest(), hashlib.sha256(whole).hexdigest()]
    header = {"version": CACHE_VERSION, "files": files, "parts": parts, "digests": digests}
    header["seal"] = seal([CACHE_VERSION, files, parts, digests])
    try:
        atomic_write_bytes(folder / CACHE_NAME, json.dumps(header).encode() + b"\n" + each + whole)
    except OSError:
        pass


def _summary_of(path: Path) -> pa.Table:
    """A verified file's summary: from its footer, or from its games when it has none."""
    stored = file_summary(path)
    if stored is not None:
        return stored
    kept = computed_summary(path)
    if kept is not None:
        return kept
    return summarize(pq.read_table(path))


def file_summaries(files: list[Path]) -> tuple[pa.Table, list[tuple[Path, str]]]:
    """The summary of the verified games files ``files`` (one table of
    :data:`~sim.storage.summary.SUMMARY_SCHEMA`, each folder's files merged), and the files
    left out with why (a footer that cannot be read, or a damaged summary: the file
    changed since it was verified)."""
    bad: list[tuple[Path, str]] = []
    by_folder: dict[Path, list[Path]] = {}
    for p in files:
        by_folder.setdefault(p.parent, []).append(p)
    parts: list[pa.Table] = []
    for folder, paths in by_folder.items():
        want = {p.name: _key(p) or (0, 0, 0) for p in paths}
        cached, merged = _load(folder, want)
        if merged is not None:
            parts.append(merged)
            continue
        entries: Entries = {}
        for p in paths:
            hit = cached.get(p.name)
            if hit is not None and hit[0] == want[p.name]:
                entries[p.name] = hit
                continue
            try:
                entries[p.name] = (want[p.name], _summary_of(p))
            except (OSError, ValueError) as exc:
                bad.append((p, str(exc).splitlines()[0][:300] if str(exc) else "unreadable"))
        merged = merge([t for _, t in entries.values()])
        if entries:
            _save(folder, entries, merged)
        parts.append(merged)
    return (pa.concat_tables(parts) if parts else SUMMARY_SCHEMA.empty_table()), bad


_ADJ = ", ".join(f"'{r}'" for r in ADJUDICATED)

_HP = """CASE WHEN winner = 'draw' THEN 1
              WHEN winner = 'red' AND red < blue THEN 2
              WHEN winner = 'blue' AND blue < red THEN 2 ELSE 0 END"""

_VIEWS = {
    "cells": f"""
SELECT batch_id, rules, red, blue, first_side, winner, reason, den_animal, plies, void,
       games, branching_sum, branching_n, duration_sum, duration_n
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
