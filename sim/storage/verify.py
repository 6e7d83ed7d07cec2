"""Every games file is verified once, in full, before anything counts its games.

A file is *verified* when its footer matches the games schema and pyarrow reads every
column of it with page checksums checked (the writer stores a CRC-32 in every data page
header; DuckDB does not check them, and a few damaged bytes inside a page can decode to
wrong values without any error). Files written before checksums were stored are verified
by decoding alone.

Verdicts are cached by file identity: per folder, in a hidden ``.verified.json`` beside the
files (name -> size, mtime_ns, ctime_ns, verdict), written atomically, so a warm
``dsq stats`` reads no data page. The writer records the verdict of each file it has just
read back (:func:`record_verdict`). Any change to a file (its size, modification time or
inode change time; ``ctime`` cannot be set back by a user) invalidates its entry.
Concurrent updates may lose an entry; that only costs a second verification.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq

from sim.storage.atomic import atomic_write_json
from sim.storage.schema import GAME_SCHEMA, OPTIONAL_COLUMNS

CACHE_NAME = ".verified.json"
CACHE_VERSION = 1

Key = tuple[int, int, int]  # size, mtime_ns, ctime_ns

_memory: dict[tuple[str, Key], str | None] = {}  # this process's verdicts
_footer: dict[tuple[str, Key], str | None] = {}
_lock = threading.Lock()


def _key(path: Path) -> Key | None:
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
    key = _key(Path(path))
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
    for f in GAME_SCHEMA:
        if f.name not in schema.names:  # an optional column an older file lacks: NULL
            continue
        got = schema.field(f.name).type
        if not got.equals(f.type):
            return f"not a games file: column {f.name} has type {got}, expected {f.type}"
    return None


def read_back(path: Path) -> str | None:
    """Verify ``path`` now, uncached: the footer, then every page of every column with its
    checksum; the reason it fails, or ``None``."""
    reason = _check_footer(path)
    if reason is not None:
        return reason
    try:
        names = set(pq.read_schema(path).names)
        pq.read_table(
            path,
            columns=[n for n in GAME_SCHEMA.names if n in names],
            page_checksum_verification=True,
            use_threads=False,
        )
    except Exception as exc:  # noqa: BLE001 - any failure means damaged data
        return f"damaged data pages: {_first_line(exc)}"
    return None


def _load_cache(folder: Path) -> dict[str, list]:
    try:
        data = json.loads((folder / CACHE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def _cached(entries: dict[str, list], name: str, key: Key) -> tuple[bool, str | None]:
    entry = entries.get(name)
    if (
        isinstance(entry, list)
        and len(entry) == 4
        and tuple(entry[:3]) == key
        and (entry[3] is None or isinstance(entry[3], str))
    ):
        return True, entry[3]
    return False, None


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


def record_verdict(path: Path, verdict: str | None) -> None:
    """Cache the verdict of a file its writer has just read back with :func:`read_back`."""
    path = Path(path)
    key = _key(path)
    if key is None:
        return
    with _lock:
        _memory[(str(path), key)] = verdict
    _save_cache(path.parent, {path.name: [*key, verdict]})


def verify_files(paths: Iterable[Path], threads: int | None = None) -> dict[Path, str | None]:
    """The verdict of every file: ``None`` (verified) or why its games must not be counted.

    Cached verdicts are used as they are; the other files are read in full (in parallel:
    pyarrow decodes without holding the GIL) and their verdicts cached.
    """
    paths = [Path(p) for p in paths]
    out: dict[Path, str | None] = {}
    todo: list[tuple[Path, Key]] = []
    caches: dict[Path, dict[str, list]] = {}
    for p in paths:
        key = _key(p)
        if key is None:
            out[p] = "cannot stat the file"
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
        workers = max(1, min(len(todo), threads or os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dsq-verify") as pool:
            verdicts = list(pool.map(lambda item: read_back(item[0]), todo))
        updates: dict[Path, dict[str, list]] = {}
        for (p, key), verdict in zip(todo, verdicts, strict=True):
            if _key(p) != key:  # changed while being read: decide again next time
                out[p] = verdict
                continue
            out[p] = verdict
            _memory[(str(p), key)] = verdict
            updates.setdefault(p.parent, {})[p.name] = [*key, verdict]
        for folder, upd in updates.items():
            _save_cache(folder, upd)
    return out


def verify_games_file(path: Path) -> str | None:
    """Why ``path``'s games must not be counted (footer, schema, or a data page that fails
    its checksum or does not decode), or ``None`` when it is verified. Cached."""
    return verify_files([Path(path)])[Path(path)]
