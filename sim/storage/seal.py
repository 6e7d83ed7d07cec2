"""Seals for what dsq caches beside the data: an HMAC under a key that only dsq writes.

The key is 32 random bytes in ``$DSQ_KEY_DIR/verify.key`` (default:
``$XDG_CACHE_HOME/dsq``, else ``~/.cache/dsq``), created on first use with mode 0600. A
cache entry written by hand, or copied from another file, has no valid seal and is
ignored. When the key cannot be read or created, a key for this process alone is used:
nothing cached is trusted across processes, which only costs verifying again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

KEY_ENV = "DSQ_KEY_DIR"
KEY_NAME = "verify.key"
_key: bytes | None = None


def key_dir() -> Path:
    """The folder of the key: ``$DSQ_KEY_DIR``, else ``$XDG_CACHE_HOME/dsq``, else
    ``~/.cache/dsq``."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path("~/.cache").expanduser())
    return Path(base) / "dsq"


def _load_key() -> bytes:
    folder = key_dir()
    path = folder / KEY_NAME
    try:
        data = path.read_bytes()
        if len(data) == 32:
            return data
    except OSError:
        pass
    fresh = secrets.token_bytes(32)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        temp = folder / f".{KEY_NAME}.{os.getpid()}"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(fresh)
        try:
            os.link(temp, path)  # the first process to create the key wins
        except FileExistsError:
            pass
        finally:
            temp.unlink(missing_ok=True)
        data = path.read_bytes()
        return data if len(data) == 32 else fresh
    except OSError:
        return fresh


def seal(value: Any) -> str:
    """The seal of a JSON-ready ``value`` (hex)."""
    global _key
    if _key is None:
        _key = _load_key()
    text = json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(_key, text, hashlib.sha256).hexdigest()[:32]
