"""How a batch can end badly: :class:`BatchFailed`, the one-line description of an error, and
whether it means the machine ran out of memory or disk space; the missing game indices a
driver hands out."""

from __future__ import annotations

import errno
from typing import Any


class BatchFailed(Exception):
    """A batch stopped because a game (or a write) raised an error; its record says
    ``failed``.

    ``batch_id`` names the failed batch. When raised by :func:`sim.batch.run.run_batches`,
    ``records`` holds the final records of the batches it played, the failed one last.
    """

    def __init__(self, message: str, batch_id: str | None = None, resource: bool = False) -> None:
        super().__init__(message)
        self.batch_id = batch_id
        self.resource = resource  # out of memory or disk space: the machine, not the batch
        self.record: dict[str, Any] | None = None  # the driver's last copy of the record
        self.records: list[dict[str, Any]] = []


class MissingIndices:
    """The game indices of a batch not recorded yet, ascending, produced on demand (a
    batch of 2**31 - 1 games never holds a list of its indices)."""

    def __init__(self, games: int, done: set[int]) -> None:
        self.games = games
        self.done = done
        self.next = 0
        self.remaining = games - sum(1 for i in done if 0 <= i < games)

    def take(self, n: int) -> tuple[int, ...]:
        """The next ``n`` missing indices (fewer at the end)."""
        out: list[int] = []
        while len(out) < n and self.next < self.games:
            if self.next not in self.done:
                out.append(self.next)
            self.next += 1
        self.remaining -= len(out)
        return tuple(out)


RESOURCE_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.ENOMEM}


def is_resource(exc: BaseException) -> bool:
    """Whether ``exc`` (or its cause) means out of memory or out of disk space."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, MemoryError) or (
            isinstance(exc, OSError) and exc.errno in RESOURCE_ERRNOS
        ):
            return True
        if isinstance(exc, BatchFailed) and exc.resource:
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        seen += 1
    return False


def describe(exc: BaseException) -> str:
    """One line naming an error: ``disk full: ...``, ``out of memory``, or its type and text."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full ({exc.strerror})"
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return f"file size limit reached ({exc.strerror})"
    if isinstance(exc, MemoryError):
        return "out of memory"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a Ctrl-C or SIGTERM that struck inside compiled code.

    A KeyboardInterrupt raised by a signal handler while a numba kernel returns surfaces as
    ``SystemError: ... returned a result with an exception set``, caused by the interrupt.
    """
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
