"""Every games file is verified once, in full, before anything counts its games.

A file is *verified* when its footer matches the games schema and pyarrow reads every
column of it with page checksums checked (the writer stores a CRC-32 in every data page
header; DuckDB does not check them, and a few damaged bytes inside a page can decode to
wrong values without any error). Files written before checksums were stored are verified
by decoding alone.

A file is refused, and named, when it is a symbolic link or not a regular file, when it
holds columns this dsq does not know or rows of a schema version newer than
:data:`~sim.storage.schema.SCHEMA_VERSION` (written by a newer dsq), or when one file
repeats a game index. Verifying also notes which games a file holds (its *identity*: batch
id, first and last game index, rows), so readers can leave out files that repeat games
(:mod:`sim.storage.repeats`) without reading them again.

Verdicts are cached by file identity: per folder, in a hidden ``.verified.json`` beside the
files (name -> size, mtime_ns, ctime_ns, verdict, games, seal), written atomically, so a
warm ``dsq stats`` reads no data page. The writer records the verdict of each file it has
just read back (:func:`record_verdict`). Any change to a file (its size, modification time
or inode change time; ``ctime`` cannot be set back by a user) invalidates its entry. Each
entry is sealed with an HMAC under a key only dsq writes (:mod:`sim.storage.seal`): an
entry written by hand, or copied from another file, is ignored and the file verified
again. Concurrent updates may lose an entry; that only costs a second verification.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.core.addrspace import pool_threads
from sim.storage.atomic import atomic_write_json
from sim.storage.paths import read_bounded, special_reason
from sim.storage.schema import GAME_SCHEMA, OPTIONAL_COLUMNS, SCHEMA_VERSION
from sim.storage.seal import seal
from sim.storage.summarizing import check_summary, same
from sim.storage.summary import remember_computed, stored_summary

CACHE_NAME = ".verified.json"
CACHE_VERSION = 2
CACHE_LIMIT = 64 << 20  # bytes of one folder's verdict cache

Key = tuple[int, int, int]  # size, mtime_ns, ctime_ns
Games = tuple[str, int, int, int]  # batch id, first and last game index, rows
Verdict = tuple[str | None, Games | None]

_memory: dict[tuple[str, Key], Verdict] = {}  # this process's verdicts and identities
_footer: dict[tuple[str, Key], str | None] = {}
_lock = threading.Lock()


def file_key(path: Path) -> Key | None:
    """A file's identity (size, modification and inode change times), or None."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _first_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return "".join(c if c.isprintable() else "?" for c in text)[:300]


def check_games_file(path: Path) -> str | None:
    """Why ``path`` is not a games parquet file by its footer, or ``None`` when it is one.

    Reads only the footer (schema and row-group metadata); cached in memory on file identity.
    """
    key = file_key(Path(path))
    if key is None:
        return "cannot stat the file"
    if (str(path), key) in _footer:
        return _footer[(str(path), key)]
    reason = _check_footer(Path(path))
    with _lock:
        if len(_footer) > 100_000:
            _footer.clear()
        _footer[(str(path), key)] = reason
    return reason


def _check_footer(path: Path) -> str | None:
    special = special_reason(path)
    if special is not None:
        return special
    try:
        schema = pq.read_metadata(path).schema.to_arrow_schema()
    except Exception as exc:  # noqa: BLE001 - any failure here means "not readable parquet"
        return f"not a readable parquet file: {_first_line(exc)}"
    missing = [
        f.name for f in GAME_SCHEMA if f.name not in schema.names and f.name not in OPTIONAL_COLUMNS
    ]
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        return f"not a games file: missing columns {shown}"
    unknown = [n for n in schema.names if n not in GAME_SCHEMA.names]
    if unknown:
        shown = ", ".join(unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        return (
            f"columns this dsq does not know ({shown}): written by a newer dsq? "
            f"(this one reads schema versions 1 to {SCHEMA_VERSION})"
        )
    for f in GAME_SCHEMA:
        if f.name not in schema.names:  # an optional column an older file lacks: NULL
            continue
        got = schema.field(f.name).type
        if not got.equals(f.type):
            return f"not a games file: column {f.name} has type {got}, expected {f.type}"
    return None


def read_back(path: Path, summary: pa.Table | None = None) -> str | None:
    """Verify ``path`` now, uncached: the footer, then every page of every column with its
    checksum, and its summary; the reason it fails, or ``None``. A writer passes the
    ``summary`` it wrote (of the same rows, which the checksums show were read back)."""
    return inspect(path, summary)[0]


def inspect(path: Path, summary: pa.Table | None = None) -> Verdict:
    """Verify ``path`` now, uncached (see :func:`read_back`); the reason it fails (or None)
    and, when it is verified, the games it holds. Its stored summary is checked against
    ``summary`` when given, else against the summary of the rows read."""
    reason = _check_footer(path)
    if reason is not None:
        return reason, None
    try:
        meta = pq.read_metadata(path)
        names = set(meta.schema.to_arrow_schema().names)
        table = pq.read_table(
            path,
            columns=[n for n in GAME_SCHEMA.names if n in names],
            page_checksum_verification=True,
            use_threads=False,
        )
    except Exception as exc:  # noqa: BLE001 - any failure means damaged data
        return f"damaged data pages: {_first_line(exc)}", None
    verdict = _games(table)
    if verdict[0] is None and verdict[1] is not None:
        wrong = _summary_reason(path, table, meta.metadata, summary)
        if wrong is not None:
            return wrong, None
    return verdict


def _summary_reason(
    path: Path, table: pa.Table, metadata: dict[bytes, bytes] | None, summary: pa.Table | None
) -> str | None:
    """Why the summary in a file's footer is not the summary of its games (None: it is,
    or the file has none; the summary of such a file is kept for its readers)."""
    if summary is not None:
        try:
            stored = stored_summary(metadata)
        except ValueError as exc:
            return str(exc)
        if stored is not None and same(stored, summary):
            return None
        return "its summary is not the one written"
    reason, computed = check_summary(table, metadata)
    if reason is None and stored_summary(metadata) is None:  # none, or of another version
        remember_computed(path, computed)
    return reason


def _games(table) -> Verdict:  # noqa: ANN001 - a pyarrow Table
    """The identity of a verified file's games, or why they cannot be counted."""
    if table.num_rows == 0:
        return None, None
    newest = pc.max(table.column("schema_version")).as_py()
    if newest is not None and newest > SCHEMA_VERSION:
        return (
            f"schema version {newest} is newer than this dsq reads (1 to {SCHEMA_VERSION}):"
            " written by a newer dsq",
            None,
        )
    batches = pc.unique(table.column("batch_id")).to_pylist()
    if len(batches) != 1 or not isinstance(batches[0], str):
        return f"rows of {len(batches)} batches in one file (dsq writes one)", None
    index = table.column("game_index")
    bounds = pc.min_max(index).as_py()
    if pc.count_distinct(index).as_py() != table.num_rows or bounds["min"] is None:
        return "a game index appears twice in the file", None
    return None, (batches[0], int(bounds["min"]), int(bounds["max"]), table.num_rows)


def _load_cache(folder: Path) -> dict[str, list]:
    try:
        data = json.loads(read_bounded(folder / CACHE_NAME, CACHE_LIMIT))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def _entry(name: str, key: Key, verdict: Verdict) -> list:
    reason, games = verdict
    body = [*key, reason, list(games) if games else None]
    return [*body, seal([name, *body])]


def _cached(entries: dict[str, list], name: str, key: Key) -> tuple[bool, Verdict]:
    entry = entries.get(name)
    if not isinstance(entry, list) or len(entry) != 6 or tuple(entry[:3]) != key:
        return False, (None, None)
    reason, games = entry[3], entry[4]
    if entry[5] != seal([name, *entry[:5]]):
        return False, (None, None)
    if not (reason is None or isinstance(reason, str)):
        return False, (None, None)
    if games is not None:
        if not (isinstance(games, list) and len(games) == 4 and isinstance(games[0], str)):
            return False, (None, None)
        games = (games[0], int(games[1]), int(games[2]), int(games[3]))
    return True, (reason, games)


def _save_cache(folder: Path, updates: dict[str, list]) -> None:
    """Merge ``updates`` into the folder's cache, dropping entries of vanished files (best
    effort: a read-only folder or a full disk only means verifying again next time)."""
    entries = _load_cache(folder)
    entries.update(updates)
    entries = {n: e for n, e in entries.items() if (folder / n).exists()}
    try:
        atomic_write_json(folder / CACHE_NAME, {"version": CACHE_VERSION, "files": entries})
    except OSError:
        pass


def record_verdict(path: Path, verdict: str | None, games: Games | None = None) -> None:
    """Cache the verdict of a file its writer has just read back with :func:`read_back`
    (a verified file without ``games`` is left for the next reader to verify)."""
    path = Path(path)
    key = file_key(path)
    if key is None or (verdict is None and games is None):
        return
    with _lock:
        _memory[(str(path), key)] = (verdict, games)
    _save_cache(path.parent, {path.name: _entry(path.name, key, (verdict, games))})


def verify_files(paths: Iterable[Path], threads: int | None = None) -> dict[Path, str | None]:
    """The verdict of every file: ``None`` (verified) or why its games must not be counted.

    Cached verdicts are used as they are; the other files are read in full (in parallel:
    pyarrow decodes without holding the GIL) and their verdicts cached.
    """
    return {p: v[0] for p, v in verify_with_games(paths, threads).items()}


def verify_with_games(paths: Iterable[Path], threads: int | None = None) -> dict[Path, Verdict]:
    """:func:`verify_files` with the games each verified file holds (None when empty)."""
    paths = [Path(p) for p in paths]
    out: dict[Path, Verdict] = {}
    todo: list[tuple[Path, Key]] = []
    caches: dict[Path, dict[str, list]] = {}
    for p in paths:
        special = special_reason(p)
        key = None if special else file_key(p)
        if key is None:
            out[p] = (special or "cannot stat the file", None)
            continue
        if (str(p), key) in _memory:
            out[p] = _memory[(str(p), key)]
            continue
        if p.parent not in caches:
            caches[p.parent] = _load_cache(p.parent)
        hit, verdict = _cached(caches[p.parent], p.name, key)
        if hit:
            out[p] = verdict
            _memory[(str(p), key)] = verdict
        else:
            todo.append((p, key))
    if todo:
        workers = max(1, min(len(todo), threads or pool_threads()))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dsq-verify") as pool:
            verdicts = list(pool.map(lambda item: inspect(item[0]), todo))
        updates: dict[Path, dict[str, list]] = {}
        for (p, key), verdict in zip(todo, verdicts, strict=True):
            out[p] = verdict
            if file_key(p) != key:  # changed while being read: decide again next time
                continue
            _memory[(str(p), key)] = verdict
            updates.setdefault(p.parent, {})[p.name] = _entry(p.name, key, verdict)
        for folder, upd in updates.items():
            _save_cache(folder, upd)
    return out


def verify_games_file(path: Path) -> str | None:
    """Why ``path``'s games must not be counted (footer, schema, or a data page that fails
    its checksum or does not decode), or ``None`` when it is verified. Cached."""
    return verify_files([Path(path)])[Path(path)]
