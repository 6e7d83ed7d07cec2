"""Crash-safe writes of game chunks as parquet files, atomic like the small files of
:mod:`sim.storage.atomic`.

A file is written under a temporary name that does not end in ``.parquet``
(``.<name>.tmp-<pid>-<token>``) in the destination folder, fsynced, read back, renamed into
place, and the folder is fsynced, so a crash never leaves a half-written file where readers
look; :func:`remove_stale_temp_files` removes the temporary files of writers that died.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.storage.atomic import TMP_MARK, fsync_dir, temp_name
from sim.storage.paths import games_dir
from sim.storage.schema import (
    COLUMN_ENCODINGS,
    DICTIONARY_COLUMNS,
    GAME_SCHEMA,
    OPTIONAL_COLUMNS,
    SCHEMA_VERSION,
)
from sim.storage.summarizing import summarize
from sim.storage.summary import footer_metadata
from sim.storage.verify import inspect, record_verdict

ZSTD_LEVEL = 3


def rows_to_table(rows: Iterable[Mapping[str, Any]]) -> pa.Table:
    """Game rows (dicts with every GAME_SCHEMA column) as a table with exactly that schema.

    A missing ``schema_version`` is filled with :data:`SCHEMA_VERSION` and missing optional
    columns (clocks, forfeits, engines) with None; any other missing column raises
    ``KeyError``.
    """
    required = set(GAME_SCHEMA.names) - set(OPTIONAL_COLUMNS)
    out: list[Mapping[str, Any]] = []
    for r in rows:
        if "schema_version" not in r:
            r = {**r, "schema_version": SCHEMA_VERSION}  # noqa: PLW2901
        if not required <= r.keys():
            raise KeyError(f"game row without columns {sorted(required - r.keys())}")
        out.append(r)
    return pa.Table.from_pylist(out, schema=GAME_SCHEMA)


def write_games_file(path: Path, table: pa.Table) -> pa.Table:
    """Write a GAME_SCHEMA table to ``path`` itself (zstd, one row group, a CRC-32 checksum
    in every data page header, its summary in the footer: :mod:`sim.storage.summary`) and
    fsync it; return the summary. :func:`write_games_table` is the atomic form."""
    table = table.cast(GAME_SCHEMA) if not table.schema.equals(GAME_SCHEMA) else table
    with pq.ParquetWriter(
        path,
        GAME_SCHEMA,
        compression="zstd",
        compression_level=ZSTD_LEVEL,
        use_dictionary=DICTIONARY_COLUMNS,
        column_encoding=COLUMN_ENCODINGS,
        write_statistics=True,
        write_page_checksum=True,
    ) as writer:
        writer.write_table(table, row_group_size=max(1, table.num_rows))
        summary = summarize(table)
        writer.add_key_value_metadata(footer_metadata(summary))
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return summary


def write_games_table(path: Path, table: pa.Table) -> pa.Table:
    """Write a GAME_SCHEMA table to ``path`` atomically (see :func:`write_games_file`);
    return its summary."""
    path = Path(path)
    tmp = temp_name(path)
    try:
        summary = write_games_file(tmp, table)
        os.replace(tmp, path)
        fsync_dir(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return summary


def chunk_file_name(first: int, rows: int) -> str:
    """A new, unique name for a games file whose first game index and row count are given."""
    return f"part-{first:09d}-{rows}-{secrets.token_hex(4)}.parquet"


def write_games_chunk(
    data_dir: Path,
    batch_id: str,
    rows: pa.Table | list[Mapping[str, Any]],
    name: str | None = None,
) -> Path:
    """Write one chunk of a batch's games (rows or a GAME_SCHEMA table) as a new parquet
    file named ``name`` (default: a new :func:`chunk_file_name`); return its path. Rows are
    sorted by ``game_index``. The file is read back in full (page checksums checked)
    and its verdict cached (:mod:`sim.storage.verify`); ``OSError`` if it does not read back.
    """
    table = rows if isinstance(rows, pa.Table) else rows_to_table(rows)
    if table.num_rows == 0:
        raise ValueError("empty chunk")
    idx = table.column("game_index").to_numpy()
    if len(idx) > 1 and (np.diff(idx) < 0).any():
        table = table.sort_by("game_index")
    folder = games_dir(Path(data_dir), batch_id)
    folder.mkdir(parents=True, exist_ok=True)
    first = int(table.column("game_index")[0].as_py())
    dest = folder / (name or chunk_file_name(first, table.num_rows))
    summary = write_games_table(dest, table)
    verdict, games = inspect(dest, summary)
    record_verdict(dest, verdict, games)
    if verdict is not None:
        raise OSError(errno.EIO, f"{dest.name} does not read back as written ({verdict})")
    return dest


def remove_stale_temp_files(folder: Path) -> list[Path]:
    """Delete our own leftover temp files in ``folder`` whose writing process is gone.

    Only names of the form ``.<name>.tmp-<pid>-<token>`` are considered; anything else is
    left alone. Returns the removed paths.
    """
    removed: list[Path] = []
    if not Path(folder).is_dir():
        return removed
    for p in Path(folder).iterdir():
        if not p.name.startswith(".") or TMP_MARK not in p.name:
            continue
        try:
            pid = int(p.name.rsplit(TMP_MARK, 1)[1].split("-", 1)[0])
        except ValueError:
            continue
        if pid != os.getpid() and not pid_alive(pid):
            try:
                p.unlink()
                removed.append(p)
            except OSError:
                pass
    return removed


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists on this host (zombies count as dead)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return True
