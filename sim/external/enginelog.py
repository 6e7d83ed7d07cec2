"""The communication log of one engine process (``--engine-log DIR``): one file per
process, ``DIR/<engine>-<pid>.log``, one line per protocol line with the wall-clock time
(UTC, milliseconds), the direction (``>`` sent to the engine, ``<`` read from it, ``!`` its
stderr) and the line. A file stops at :data:`LOG_CAP` bytes (a last line says so), so a
long batch cannot fill the disk with one engine's chatter."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TextIO

from engine.errors import DsqError

LOG_CAP = 8 << 20  # bytes per log file (8 MiB)


def check_log_dir(folder: str | os.PathLike[str]) -> str:
    """``folder`` made (if need be) and writable, as an absolute path; DsqError otherwise."""
    if not str(folder):
        raise DsqError("--engine-log takes a folder")
    path = Path(folder).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
        if not os.access(path, os.W_OK | os.X_OK):
            raise PermissionError("not writable")
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise DsqError(f"--engine-log: cannot write into {str(folder)[:200]!r}: {why}") from None
    return str(path.resolve())


class EngineLog:
    """The log file of one engine process (see the module docstring); never raises: a log
    that cannot be written is given up."""

    def __init__(self, folder: str, engine: str, pid: int, cap: int = LOG_CAP) -> None:
        self.path = Path(folder) / f"{engine}-{pid}.log"
        self.cap = cap
        self.size = 0
        self.fh: TextIO | None
        try:
            self.fh = open(self.path, "a", encoding="utf-8", errors="replace")  # noqa: SIM115
        except OSError:
            self.fh = None

    def write(self, direction: str, line: str) -> None:
        """One line: time, ``direction`` and ``line``."""
        if self.fh is None:
            return
        t = time.time()
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z"
        text = f"{stamp} {direction} {line}\n"
        try:
            if self.size + len(text) > self.cap:
                self.fh.write(f"{stamp} ! log capped at {self.cap:,} bytes: later lines left out\n")
                self.close()
                return
            self.fh.write(text)
            self.fh.flush()
            self.size += len(text)
        except OSError:
            self.close()

    def close(self) -> None:
        """Close the file (later lines are left out)."""
        if self.fh is not None:
            try:
                self.fh.close()
            except OSError:
                pass
            self.fh = None
