"""numba's ``njit`` with an on-disk cache that cannot go stale.

numba keys a cached kernel on its own source file only: a kernel whose callee (or a
constant it reads) lives in another file keeps its old machine code after that file
changes. Every compiled module of the project imports ``njit`` from here, and the cache
lives in a folder named by a hash of all those sources (every module of ``engine`` and
every module of ``sim`` that compiles kernels), so any change to any of them starts a
fresh cache instead of silently running old code.

The folder is ``$NUMBA_CACHE_DIR/dsq-<hash>`` when that variable is set, else
``$XDG_CACHE_HOME/dsq/numba/<hash>`` (``~/.cache`` by default), else a folder in the
system's temporary directory when neither can be written.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba import njit

__all__ = ["cache_dir", "njit", "source_hash"]

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


# Set before any kernel module is decorated: numba reads it when ``cache=True`` is applied.
numba.config.CACHE_DIR = str(cache_dir())
