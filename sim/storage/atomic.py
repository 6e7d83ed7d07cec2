"""Atomic writes of small files: bytes and JSON, renamed into place or created exclusively.

A file is written under a temporary name (``.<name>.tmp-<pid>-<token>``, see ``TMP_MARK``) in
the destination folder, fsynced, renamed into place, and the folder is fsynced, so a crash
never leaves a half-written file where readers look. :mod:`sim.storage.writing` writes the
game chunks the same way and removes the temporary files of dead writers.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
from pathlib import Path
from typing import Any

TMP_MARK = ".tmp-"


def temp_name(dest: Path) -> Path:
    """A fresh temporary name beside ``dest`` (marked with ``TMP_MARK`` and this process id)."""
    return dest.with_name(f".{dest.name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")


def fsync_dir(folder: Path) -> None:
    """fsync a folder so a rename inside it is durable (best effort where unsupported)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _finish(tmp: Path, dest: Path) -> None:
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, dest)
    fsync_dir(dest.parent)


def atomic_write_bytes(dest: Path, data: bytes) -> None:
    """Write ``data`` to ``dest`` atomically (temp name, fsync, rename, fsync folder)."""
    dest = Path(dest)
    tmp = temp_name(dest)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        _finish(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def json_bytes(obj: Any) -> bytes:
    """``obj`` as the indented JSON the atomic writers write (for a size checked first)."""
    return (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode()


def atomic_write_json(dest: Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON to ``dest`` atomically."""
    atomic_write_bytes(Path(dest), json_bytes(obj))


def create_json_exclusive(dest: Path, obj: Any) -> bool:
    """Create ``dest`` holding ``obj`` as JSON only if no file has that name; return whether
    this call created it.

    Atomic among any number of processes, and never visible half-written: the JSON is
    written and fsynced under a temporary name, then hard-linked to ``dest`` (``link``
    fails if the name exists, like ``O_EXCL``). Where the file system has no hard links,
    ``O_CREAT | O_EXCL`` on ``dest`` itself decides instead.
    """
    dest = Path(dest)
    tmp = temp_name(dest)
    data = json_bytes(obj)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, dest)
        except FileExistsError:
            return False
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            try:
                fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                return False
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        fsync_dir(dest.parent)
        return True
    finally:
        tmp.unlink(missing_ok=True)
