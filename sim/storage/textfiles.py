"""Reading a small text file a person names (a study, an engine registry, an opening suite):
bounded, never waiting on a FIFO or a device, and every failure one ``DsqError`` line that
names the file."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.storage.paths import read_bounded


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 and "\x00" not in text else repr(text[:200])


def read_named_text(
    path: str | Path, what: str, limit: int, error: type[DsqError] = DsqError
) -> str:
    """The UTF-8 text of the regular file ``path`` (links followed; never a device, a FIFO
    nor a file of /proc or /sys) of at most ``limit`` bytes; ``error`` (a DsqError) naming
    the file and ``what`` it should hold otherwise."""
    p = Path(path)
    try:
        data = read_bounded(p, limit, follow=True, sized=True)
    except OSError as exc:
        raise error(f"{_shown(p)}: cannot read {what}: {exc.strerror or exc}") from None
    except ValueError as exc:  # over the limit, or a NUL in the path
        raise error(f"{_shown(p)}: cannot read {what}: {exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{_shown(p)}: {what} is not UTF-8 text") from None


def read_named_toml(
    path: str | Path, what: str, limit: int, error: type[DsqError] = DsqError
) -> dict[str, Any]:
    """The TOML table of the file ``path``, read as ``read_named_text`` reads it."""
    text = read_named_text(path, what, limit, error)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{_shown(Path(path))}: {what} is not valid TOML: {exc}") from None
