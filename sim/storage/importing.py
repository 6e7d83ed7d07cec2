"""An import of many batches that readers see whole or not at all, crash-safe.

``dsq games import`` writes every batch of a file in these steps (the import's folder is
``DIR/.imports/<key>``, ``key`` a digest of the file; hidden, so readers never look in it):

1. each batch's games files and record are written into the import's folder, laid out as
   a data folder (``games/<batch_id>/``, ``batches/<batch_id>.json``);
2. the journal ``journal.json`` is written atomically into it, naming the batches;
3. each batch's games folder and record are renamed into the data folder;
4. the journal is removed (then the import's folder).

Readers (:func:`pending_batches`, applied by :mod:`sim.storage.reading`) leave out every
batch a journal names: before step 2 the games are only in the hidden folder, from step 2
to step 4 the journal hides them, and the single unlink of step 4 shows them all at once.
So a half-done import is never counted.

After a crash (``kill -9`` at any point) running the same import again finishes it
(:func:`finish_journals`): with a journal, steps 3 and 4 are done (a rename already done is
skipped); without one, the import's folder is removed and the file imported anew. One
import at a time writes into a data folder (``DIR/.imports/.lock``, held throughout).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from engine.errors import DsqError
from sim.storage.atomic import atomic_write_json, fsync_dir
from sim.storage.paths import (
    BATCH_ID_RE,
    batch_path,
    batches_dir,
    games_dir,
    read_bounded,
)

IMPORTS_DIR = ".imports"
JOURNAL_NAME = "journal.json"
LOCK_NAME = ".lock"
JOURNAL_VERSION = 1

# Called with the name of each step just done ("staged <batch>", "journal", "moved
# <batch>", "done"): tests stop the process there. None in normal use.
STEP_HOOK: Callable[[str], None] | None = None


def step(name: str) -> None:
    """Tell :data:`STEP_HOOK` (tests) that step ``name`` is done."""
    if STEP_HOOK is not None:
        STEP_HOOK(name)


def imports_dir(data_dir: Path) -> Path:
    """The folder of the imports under way (hidden)."""
    return Path(data_dir) / IMPORTS_DIR


def import_dir(data_dir: Path, key: str) -> Path:
    """The folder of one import (``key``: hex digits)."""
    if not key or not all(c in "0123456789abcdef" for c in key):
        raise ValueError(f"bad import key {key!r}")
    return imports_dir(data_dir) / key


def _journal_batches(path: Path) -> list[str] | None:
    """The batch ids a journal names (None: not a journal dsq wrote)."""
    try:
        data = json.loads(read_bounded(path).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("version") != JOURNAL_VERSION:
        return None
    ids = data.get("batches")
    if not isinstance(ids, list) or not all(
        isinstance(b, str) and BATCH_ID_RE.fullmatch(b) for b in ids
    ):
        return None
    return ids


def _journals(data_dir: Path) -> Iterator[tuple[Path, list[str]]]:
    """``(import folder, batch ids)`` of every journal under ``DIR/.imports``."""
    root = imports_dir(data_dir)
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
            continue
        ids = _journal_batches(Path(entry.path) / JOURNAL_NAME)
        if ids is not None:
            yield Path(entry.path), ids


def pending_batches(data_dir: Path) -> set[str]:
    """The batches of imports not yet finished: readers leave them out (one ``scandir``
    of a folder that is usually absent)."""
    return {b for _, ids in _journals(Path(data_dir)) for b in ids}


@contextlib.contextmanager
def import_lock(data_dir: Path) -> Iterator[None]:
    """Hold the data folder's import lock (DsqError when another import holds it)."""
    root = imports_dir(data_dir)
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DsqError(
                    f"another import into {data_dir} is under way; wait for it"
                ) from None
            raise
        yield
    finally:
        os.close(fd)  # releases the lock


def _move(src: Path, dest: Path, what: str) -> None:
    """Rename ``src`` to ``dest`` unless it was done already (``src`` gone); DsqError when
    something else took ``dest`` meanwhile."""
    if not src.exists():
        return
    if dest.exists() and not (dest.is_dir() and not any(dest.iterdir())):
        raise DsqError(f"{what} appeared in {dest.parent.parent} while importing")
    dest.parent.mkdir(parents=True, exist_ok=True)
    os.rename(src, dest)
    fsync_dir(dest.parent)


def _commit(data_dir: Path, folder: Path, ids: list[str]) -> None:
    """Steps 3 and 4 of the import in ``folder`` (the journal is written)."""
    for bid in ids:
        _move(games_dir(folder, bid), games_dir(data_dir, bid), f"batch {bid}")
        _move(batch_path(folder, bid), batch_path(data_dir, bid), f"batch {bid}")
        step(f"moved {bid}")
    (folder / JOURNAL_NAME).unlink()
    fsync_dir(folder)
    step("done")
    shutil.rmtree(folder, ignore_errors=True)


def finish_journals(data_dir: Path) -> dict[str, list[str]]:
    """Finish every import a journal names (the caller holds :func:`import_lock`, so
    their writers are gone) and remove the folders of imports that never wrote one.
    Returns ``{key: batch ids}`` of the imports finished."""
    done: dict[str, list[str]] = {}
    for folder, ids in list(_journals(data_dir)):
        _commit(data_dir, folder, ids)
        done[folder.name] = ids
    root = imports_dir(data_dir)
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        if not entry.name.startswith(".") and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
    return done


def begin(data_dir: Path, key: str) -> Path:
    """A fresh folder for the import ``key`` (step 1 writes into it as into a data
    folder); the caller holds :func:`import_lock` and has called :func:`finish_journals`."""
    folder = import_dir(data_dir, key)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    batches_dir(folder).mkdir()
    return folder


def commit(data_dir: Path, folder: Path, ids: list[str]) -> None:
    """Steps 2 to 4: journal the batches staged in ``folder``, move them into the data
    folder, remove the journal."""
    atomic_write_json(folder / JOURNAL_NAME, {"version": JOURNAL_VERSION, "batches": ids})
    step("journal")
    _commit(data_dir, folder, ids)
