"""Files a person may name that dsq must refuse in one line, never a read that waits or
fills memory: a device, a FIFO, a folder, a file over the limit, bytes that are not UTF-8."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def unreadable_files(folder: Path, limit: int = 1 << 20) -> dict[str, str]:
    """Each such path (made in ``folder``, which is one of them) with the words its error
    must contain."""
    fifo = folder / "fifo.txt"
    os.mkfifo(fifo)
    huge = folder / "huge.txt"
    huge.write_bytes(b"#" * (2 * limit))
    binary = folder / "binary.txt"
    binary.write_bytes(b"\xff\xfe name")
    return {
        "/dev/zero": "not a regular file",
        str(fifo): "not a regular file",
        str(folder): "not a regular file",
        str(huge): "larger than 1 MiB" if limit == 1 << 20 else "larger than",
        str(binary): "not UTF-8",
    }


def with_field(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``doc`` (parsed JSON) with the field at ``path`` set to ``value``, in place; ``()``:
    ``value`` in place of the whole document (a damaged record of any shape)."""
    if not path:
        return value
    inner = doc
    for k in path[:-1]:
        inner = inner[k]
    inner[path[-1]] = value
    return doc
