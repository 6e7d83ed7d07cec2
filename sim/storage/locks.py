"""Exclusive ownership of a batch: an OS-level lock on ``DIR/games/<batch_id>/.lock``.

A driver (``dsq simulate``, new or ``--resume``) holds its batch's lock from before it reads
what is recorded until it has written its final record. The lock is ``flock(LOCK_EX)`` on
a file descriptor that child processes do not inherit, so the kernel releases it when the
driver dies, however it dies (``kill -9`` included): no stale pid, host name or time-out
is ever guessed. Whoever can take the lock owns the batch; a record saying ``running``
whose lock is free belongs to a driver that is gone (``interrupted``).

The lock file is never deleted (deleting a lock file lets two processes lock two
different files of the same name). Its content, the holder's pid and host, is only for
messages. The data folder must be on a file system with working ``flock`` (local disks;
NFS v4 emulates it with byte-range locks across hosts).
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
import threading
import time
from pathlib import Path

from engine.errors import DsqError
from sim.storage.paths import games_dir, read_bounded

LOCK_NAME = ".lock"
ACQUIRE_SECONDS = 1.0  # how long to retry while a reader's probe holds the lock for an instant

_held: dict[str, tuple[int, int]] = {}  # lock path -> (fd, holders) in this process
_guard = threading.Lock()


class BatchBusy(DsqError):
    """Another live process owns the batch."""


def lock_path(data_dir: Path, batch_id: str) -> Path:
    """The lock file of a batch (in its games folder; hidden, so readers never see it)."""
    return games_dir(Path(data_dir), batch_id) / LOCK_NAME


def _holder(path: Path) -> str:
    try:
        text = read_bounded(path, 4096).decode("utf-8", errors="replace").strip()
    except (OSError, ValueError):
        text = ""
    return f" ({text})" if text else ""


class BatchLock:
    """This process's ownership of one batch; a context manager.

    :meth:`acquire` raises :class:`BatchBusy` when another process holds the lock. Nested
    holds in one process share the lock (the driver takes it again under
    :func:`sim.batch.run.run_batches`, which already holds it).
    """

    def __init__(self, data_dir: Path, batch_id: str) -> None:
        self.batch_id = batch_id
        self.path = lock_path(data_dir, batch_id)
        self.held = False

    def acquire(self, wait: float = ACQUIRE_SECONDS) -> BatchLock:
        """Take the lock (retrying for ``wait`` seconds); BatchBusy if another process has it."""
        key = str(self.path)
        with _guard:
            if key in _held:
                fd, n = _held[key]
                _held[key] = (fd, n + 1)
                self.held = True
                return self
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)  # not inherited
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        os.close(fd)
                        raise
                    if time.monotonic() >= deadline:
                        os.close(fd)
                        raise BatchBusy(
                            f"batch {self.batch_id} is still running in another process"
                            f"{_holder(self.path)}; wait for it or cancel it"
                        ) from None
                    time.sleep(0.01)
            info = f"pid {os.getpid()} on {socket.gethostname()}\n".encode()
            os.ftruncate(fd, 0)
            os.pwrite(fd, info, 0)
            _held[key] = (fd, 1)
            self.held = True
            return self

    def release(self) -> None:
        """Give the lock up (the last nested hold in this process closes the file)."""
        if not self.held:
            return
        key = str(self.path)
        with _guard:
            fd, n = _held[key]
            if n > 1:
                _held[key] = (fd, n - 1)
            else:
                del _held[key]
                os.close(fd)  # closing the only descriptor releases the flock
        self.held = False

    def __enter__(self) -> BatchLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def batch_locked(data_dir: Path, batch_id: str) -> bool:
    """Whether a live process (this one included) owns the batch.

    Probes with a shared lock held for an instant; a driver taking the lock at that moment
    retries (see :data:`ACQUIRE_SECONDS`). No lock file means no driver ever took it.
    """
    path = lock_path(Path(data_dir), batch_id)
    if str(path) in _held:
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False
