"""numba's ``njit`` with an on-disk cache that cannot go stale.

numba keys a cached kernel on its own source file only: a kernel whose callee (or a
constant it reads) lives in another file keeps its old machine code after that file
changes. Every compiled module of the project imports ``njit`` from here, and the cache
lives in a folder named by a hash of all those sources (every module of ``engine`` and
every module of ``sim`` that compiles kernels), so any change to any of them starts a
fresh cache instead of silently running old code.

Kernels that create no array are compiled with :func:`kernel` instead: ``njit(cache=True)``
without numba's reference counting (see there).

The folder is ``$NUMBA_CACHE_DIR/dsq-<hash>`` when that variable is set, else
``$XDG_CACHE_HOME/dsq/numba/<hash>`` (``~/.cache`` by default), else a folder in the
system's temporary directory when neither can be written.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numba
from numba import njit

__all__ = ["cache_dir", "kernel", "njit", "source_hash"]

_ROOT = Path(__file__).resolve().parent.parent
_MARK = b"from engine.jit import"


def _kernel_sources() -> list[Path]:
    """The source files whose contents decide the compiled code."""
    files = sorted((_ROOT / "engine").glob("*.py"))
    for path in sorted((_ROOT / "sim").rglob("*.py")):
        try:
            if _MARK in path.read_bytes():
                files.append(path)
        except OSError:
            continue
    return files


def source_hash() -> str:
    """A short hash of every compiled module's source (and of numba's version)."""
    h = hashlib.sha1(numba.__version__.encode())
    for path in _kernel_sources():
        h.update(str(path.relative_to(_ROOT)).encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:
            continue
    return h.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def cache_dir() -> Path:
    """The cache folder of this version of the kernels (created if missing)."""
    key = source_hash()
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        candidates = [Path(user) / f"dsq-{key}"]
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        candidates = [Path(base) / "dsq" / "numba" / key]
    candidates.append(Path(tempfile.gettempdir()) / f"dsq-numba-{os.getuid()}" / key)
    for folder in candidates:
        if _writable(folder):
            return folder
    return candidates[-1]


def kernel(fn: Any = None, /, **options: Any) -> Any:
    """``njit(cache=True, **options)`` for a kernel that allocates no array and returns none.

    numba's runtime counts the references to every array a compiled function receives
    (atomic updates around each call); in the engine's small kernels, called millions of
    times a second, that costs as much as the work itself. A kernel that only reads and
    writes the arrays it is given (and views of them, such as a row) needs no counting, so
    it is compiled without it (numba's ``_nrt=False``). Use as ``@kernel`` or
    ``@kernel(inline="always")``; a function that allocates or returns an array
    (``np.empty``, ``copy``) keeps ``@njit(cache=True)`` and hands its arrays to kernels.
    """
    options.setdefault("cache", True)
    options["_nrt"] = False
    if fn is None:
        return njit(**options)
    return njit(**options)(fn)


# Set before any kernel module is decorated: numba reads it when ``cache=True`` is applied.
numba.config.CACHE_DIR = str(cache_dir())
