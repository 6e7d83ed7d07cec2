"""The one reader of the dataset: a DuckDB ``games`` view over the verified parquet files.

Readers look only at names ending in ``.parquet``; writers write to a temporary name that
does not, then rename it into place (see :mod:`sim.storage.writing`). Every parquet file
under ``DIR`` is verified once in full, page checksums included, before it enters the
``games`` view (:mod:`sim.storage.verify`; the verdict is cached by file identity);
corrupt, damaged or foreign files are listed in :attr:`Dataset.skipped` and never deleted.
So are links and special files (never followed or opened), files of a newer schema, and
files that repeat games already counted (:mod:`sim.storage.repeats`): each game counts
once. Batch records are read only when they are regular files of at most 4 MiB.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pyarrow as pa

from engine.errors import DsqError
from sim.core.addrspace import duckdb_config
from sim.storage.committing import resolve_committing
from sim.storage.importing import pending_batches
from sim.storage.paths import (
    GAMES_DIR,
    MAX_RECORD_BYTES,
    batches_dir,
    read_bounded,
    resolve_data_dir,
)
from sim.storage.recordcheck import check_record
from sim.storage.repeats import find_repeats
from sim.storage.schema import GAME_SCHEMA, OPTIONAL_COLUMNS
from sim.storage.summary_cache import define_views, file_summaries
from sim.storage.verify import (
    check_games_file,
    inspect,
    record_verdict,
    verify_games_file,
    verify_with_games,
)

T = TypeVar("T")
ONE_THREAD_MEMORY = "256MB"  # DuckDB's memory limit on a connection of one thread

__all__ = [
    "Dataset",
    "check_games_file",
    "dataset_fingerprint",
    "empty_games_table",
    "load_batch_records",
    "open_dataset",
    "verify_games_file",
]


def empty_games_table() -> pa.Table:
    """A zero-row table with :data:`GAME_SCHEMA`."""
    return GAME_SCHEMA.empty_table()


@dataclass
class Dataset:
    """An opened data folder: a DuckDB connection with a ``games`` view, and what was skipped.

    Attributes:
        data_dir: the folder that was opened.
        con: DuckDB connection; ``games`` is a view over every valid games parquet file.
        files: the parquet files in the view.
        skipped: ``(path, reason)`` for every parquet file or batch record that was skipped.
        fingerprint: a hex digest that changes whenever a games file or batch record changes.
        batches: the batch records (dicts), oldest first.

    ``con`` also holds ``summary``, the files' summaries (:mod:`sim.storage.summary`),
    and the views the statistics read them by (``cells``, ``capture_cells``,
    ``pair_cells``: :func:`sim.storage.summary_cache.define_views`).
    """

    data_dir: Path
    con: duckdb.DuckDBPyConnection
    files: list[Path] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    fingerprint: str = ""
    batches: list[dict[str, Any]] = field(default_factory=list)

    def close(self) -> None:
        """Close the DuckDB connection."""
        self.con.close()

    def read(self, compute: Callable[[], T]) -> T:
        """``compute()`` (which queries ``con``), resilient to damaged files: when DuckDB
        fails to read the data, the files with damaged data pages are left out (see
        :meth:`exclude_damaged`) and ``compute()`` runs once more. A failure that no damaged
        file explains becomes one clear DsqError."""
        try:
            return compute()
        except duckdb.Error as exc:
            if self.exclude_damaged():
                return compute()
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise DsqError(f"cannot read the data in {self.data_dir}: {msg}") from None

    def exclude_damaged(self) -> list[tuple[str, str]]:
        """Read every file of the view in full; drop those whose data pages are damaged
        from the view and list them in ``skipped``. Returns the newly excluded files.

        Call it when a query fails with a ``duckdb.Error``: the footer checks of
        :func:`open_dataset` cannot see damage inside a file's pages.
        """
        bad = []
        for p in self.files:
            reason, games = inspect(p)  # a fresh read: the cached verdict said it was fine
            record_verdict(p, reason, games)
            if reason is not None:
                bad.append((str(p), reason))
        if bad:
            names = {p for p, _ in bad}
            self.files = [p for p in self.files if str(p) not in names]
            self.skipped.extend(bad)
            self.files = _create_views(self.con, self.files, self.skipped)
        return bad

    def __enter__(self) -> Dataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parquet_files(data_dir: Path) -> list[Path]:
    """Every ``*.parquet`` file under ``data_dir`` (hidden folders excluded, and the
    games folders of imports not yet finished: :mod:`sim.storage.importing`), sorted."""
    out: list[Path] = []
    if not data_dir.is_dir():
        return out
    pending = pending_batches(data_dir)
    games_root = data_dir / GAMES_DIR
    for root, dirs, files in os.walk(data_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if pending and Path(root) == games_root:
            dirs[:] = [d for d in dirs if d not in pending]
        for name in files:
            if name.endswith(".parquet") and not name.startswith("."):
                out.append(Path(root) / name)
    out.sort()
    return out


def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def load_batch_records(data_dir: Path) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """All readable batch records under ``DIR/batches`` and the unreadable ones with reasons
    (not JSON, or not following the schema of :mod:`sim.storage.recordcheck`)."""
    records: list[dict[str, Any]] = []
    skipped: list[tuple[str, str]] = []
    bdir = batches_dir(data_dir)
    if not bdir.is_dir():
        return records, skipped
    pending = pending_batches(data_dir)
    for p in sorted(bdir.glob("*.json")):
        if p.name.startswith(".") or p.stem in pending:
            continue
        try:
            text = read_bounded(p, MAX_RECORD_BYTES).decode("utf-8")
            rec = check_record(json.loads(text), p.stem)
            rec = resolve_committing(rec, data_dir)
        except (OSError, ValueError, RecursionError) as exc:
            skipped.append((str(p), f"unreadable batch record: {_reason(exc)}"))
            continue
        records.append(rec)
    records.sort(key=lambda r: (str(r.get("created_at", "")), str(r.get("batch_id", ""))))
    return records, skipped


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        if exc.errno == errno.ELOOP:
            return "a symbolic link (not followed)"
        return exc.strerror or str(exc)
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _fingerprint(entries: list[tuple[str, int, int]]) -> str:
    h = hashlib.sha1()
    for name, size, mtime in entries:
        h.update(f"{name}\0{size}\0{mtime}\n".encode())
    return h.hexdigest()[:16]


def dataset_fingerprint(data_dir: str | os.PathLike[str] | None = None) -> str:
    """The fingerprint of a data folder without opening it (cheap: stats files only)."""
    d = resolve_data_dir(data_dir)
    return _fingerprint(_stat_entries(d, _parquet_files(d)))


def _stat_entries(data_dir: Path, files: list[Path]) -> list[tuple[str, int, int]]:
    entries: list[tuple[str, int, int]] = []
    extra = sorted(batches_dir(data_dir).glob("*.json")) if batches_dir(data_dir).is_dir() else []
    for p in [*files, *extra]:
        try:
            st = p.stat()
        except OSError:
            continue
        entries.append((str(p.relative_to(data_dir)), st.st_size, st.st_mtime_ns))
    return entries


def _create_games_view(
    con: duckdb.DuckDBPyConnection, files: list[Path], uniform: bool = False
) -> None:
    """(Re)create the ``games`` view over ``files`` (the empty table when there are none).

    Optional columns (versions 2 and 3) that no file holds (older datasets) are NULL of
    their type. ``uniform``: every file is known to hold every column, so no file's
    footer is read here (DuckDB reads them when a query reads the games).
    """
    if files and uniform:
        file_list = "[" + ", ".join(_sql_str(str(p)) for p in files) + "]"
        cols = ", ".join(f'"{f.name}"' for f in GAME_SCHEMA)
        con.execute(f"CREATE OR REPLACE VIEW games AS SELECT {cols} FROM read_parquet({file_list})")
    elif files:
        file_list = "[" + ", ".join(_sql_str(str(p)) for p in files) + "]"
        source = f"read_parquet({file_list}, union_by_name = true)"
        present = {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
        types = {r[0]: r[1] for r in con.execute("DESCRIBE _games_empty").fetchall()}
        cols = ", ".join(
            f'"{f.name}"'
            if f.name in present or f.name not in OPTIONAL_COLUMNS
            else f'CAST(NULL AS {types[f.name]}) AS "{f.name}"'
            for f in GAME_SCHEMA
        )
        con.execute(f"CREATE OR REPLACE VIEW games AS SELECT {cols} FROM {source}")
    else:
        cols = ", ".join(f'"{f.name}"' for f in GAME_SCHEMA)
        con.execute(f"CREATE OR REPLACE VIEW games AS SELECT {cols} FROM _games_empty")


def _create_views(
    con: duckdb.DuckDBPyConnection, files: list[Path], skipped: list[tuple[str, str]]
) -> list[Path]:
    """The ``games`` view and the summaries of ``files``; the files kept (a file whose
    summary cannot be read is left out of both and added to ``skipped``)."""
    found = file_summaries(files)
    if found.bad:
        gone = {p for p, _ in found.bad}
        files = [p for p in files if p not in gone]
        skipped.extend((str(p), why) for p, why in found.bad)
        found = file_summaries(files)
    _create_games_view(con, files, uniform=found.full)
    con.register("summary", found.table)
    define_views(con)
    return files


def open_dataset(
    data_dir: str | os.PathLike[str] | None = None, threads: int | None = None
) -> Dataset:
    """Open a data folder for reading.

    Returns a :class:`Dataset` whose ``con`` has a view ``games`` with exactly the columns
    of :data:`sim.storage.schema.GAME_SCHEMA` over every verified games parquet file under
    the folder (zero rows if there are none or the folder does not exist). Corrupt, damaged
    or foreign parquet files and unreadable batch records are listed in ``skipped``;
    nothing is deleted. ``threads``: DuckDB's threads (default: sized to the machine
    and its limits, :func:`sim.core.addrspace.duckdb_config`); one thread also bounds
    DuckDB's memory to :data:`ONE_THREAD_MEMORY` (a download of the dashboard).
    """
    d = resolve_data_dir(data_dir)
    files = _parquet_files(d)
    valid: list[Path] = []
    skipped: list[tuple[str, str]] = []
    verdicts = verify_with_games(files)
    repeats = dict(find_repeats(d, {p: v[1] for p, v in verdicts.items() if v[0] is None}))
    for p in files:
        reason = verdicts[p][0] or repeats.get(p)
        if reason is None:
            valid.append(p)
        else:
            skipped.append((str(p), reason))
    records, bad_records = load_batch_records(d)
    skipped.extend(bad_records)

    try:
        config = duckdb_config()
        if threads is not None:
            config["threads"] = threads
        if threads == 1:
            config["memory_limit"] = ONE_THREAD_MEMORY
        con = duckdb.connect(database=":memory:", config=config)
    except duckdb.OutOfMemoryException:
        raise MemoryError from None
    con.register("_games_empty", empty_games_table())
    valid = _create_views(con, valid, skipped)
    return Dataset(
        data_dir=d,
        con=con,
        files=valid,
        skipped=skipped,
        fingerprint=_fingerprint(_stat_entries(d, files)),
        batches=records,
    )
