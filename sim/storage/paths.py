"""Where a data folder lives and how it is laid out.

The data folder is ``--data DIR``, else ``$DSQ_DATA``, else ``data/`` in the project: the
bundled sample, which commands read but write to only when ``--data`` or ``$DSQ_DATA``
names it (:func:`writable_data_dir`), so a person's results never mix with it unasked.

Layout of a data folder::

    DIR/games/<batch_id>/part-<first index>-<n>-<token>.parquet   one file per written chunk
    DIR/batches/<batch_id>.json                                    the batch record
    DIR/batches/<batch_id>.cancel                                  a cancel request (optional)
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import stat
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import DsqError

ENV_VAR = "DSQ_DATA"
GAMES_DIR = "games"
BATCHES_DIR = "batches"
BATCH_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")  # always used with fullmatch


def project_root() -> Path:
    """The project folder (the parent of the ``sim`` package)."""
    return Path(__file__).resolve().parents[2]


def resolve_data_dir(data: str | os.PathLike[str] | None = None) -> Path:
    """The data folder: ``data`` if given, else ``$DSQ_DATA``, else ``data/`` in the project.

    An empty or blank ``data`` is a mistake (a shell variable that was not set), never a
    request for the default folder: ``DsqError``.
    """
    if data is not None:
        if not str(data).strip():
            raise DsqError("the data folder name is empty (--data '' or an unset variable?)")
        return Path(data).expanduser()
    env = os.environ.get(ENV_VAR, "")
    if env:
        return Path(env).expanduser()
    return project_root() / "data"


# A first batch to suggest for a folder that holds none (the README's first example).
FIRST_BATCH = ("simulate", "--red", "greedy", "--blue", "random", "--games", "100")


def dsq_line(*words: str, data: str | os.PathLike[str] | None = None, always: bool = False) -> str:
    """A ``dsq`` command line to paste: ``words`` quoted for the shell, then ``--data DATA``
    unless ``data`` is None or the folder ``$DSQ_DATA`` already names (so a hint works in
    the shell that ran the command, whatever folder it ran on). ``always`` names ``DATA``
    in any case: a line shown in the browser is pasted into a shell dsq cannot see."""
    line = " ".join(["dsq", *(shlex.quote(str(w)) for w in words)])
    if data is None:
        return line
    if always:
        return f"{line} --data {shlex.quote(str(data))}"
    env = os.environ.get(ENV_VAR, "")
    try:
        same = bool(env) and Path(env).expanduser().resolve() == Path(data).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        same = False
    return line if same else f"{line} --data {shlex.quote(str(data))}"


def bundled_sample_dir() -> Path:
    """The bundled sample data folder: ``data/`` in the project."""
    return project_root() / "data"


def is_bundled_sample(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is the bundled sample folder (compared after resolving links)."""
    try:
        return Path(path).expanduser().resolve() == bundled_sample_dir().resolve()
    except (OSError, RuntimeError, ValueError):
        return False


def sample_unnamed(data: str | os.PathLike[str] | None = None) -> bool:
    """Whether the data folder of ``data`` is the bundled sample by default only: neither
    ``data`` nor ``$DSQ_DATA`` named a folder (a command writes nothing there then)."""
    return (
        data is None
        and not os.environ.get(ENV_VAR, "")
        and is_bundled_sample(resolve_data_dir(None))
    )


def writable_data_dir(data: str | os.PathLike[str] | None = None) -> Path:
    """The folder a command that writes (games, tables, plans) writes to: as
    :func:`resolve_data_dir`, but the bundled sample only when ``data`` or ``$DSQ_DATA``
    names it; ``DsqError`` saying how to choose a folder otherwise."""
    d = resolve_data_dir(data)
    if sample_unnamed(data):
        raise DsqError(
            f"{d} is the bundled sample, which dsq keeps read-only unless --data names it: "
            f"choose a folder for your results with --data DIR or {ENV_VAR}=DIR "
            f"(--data {shlex.quote(str(d))} adds them to the sample)"
        )
    return d


def check_batch_id(batch_id: str) -> str:
    """Return ``batch_id`` if it is a safe file name (letters, digits, ``._-``), else raise."""
    if not isinstance(batch_id, str) or not BATCH_ID_RE.fullmatch(batch_id) or ".." in batch_id:
        raise DsqError(
            f"invalid batch id {batch_id!r} (1 to 100 letters, digits, '.', '_', '-';"
            " starting with a letter or digit)"
        )
    return batch_id


def new_batch_id() -> str:
    """A fresh batch id: UTC time and 6 random hex digits, e.g. ``20260101-120000-a1b2c3``."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def batch_ids(group: str, n: int) -> list[str]:
    """The ids of ``n`` batches of one group: the group id itself, or ``GROUP-1..n``."""
    ids = [group] if n == 1 else [f"{group}-{k + 1}" for k in range(n)]
    for bid in ids:
        check_batch_id(bid)
    return ids


def games_dir(data_dir: Path, batch_id: str) -> Path:
    """The folder holding a batch's parquet files."""
    return Path(data_dir) / GAMES_DIR / check_batch_id(batch_id)


def batches_dir(data_dir: Path) -> Path:
    """The folder holding the batch records."""
    return Path(data_dir) / BATCHES_DIR


def batch_path(data_dir: Path, batch_id: str) -> Path:
    """The JSON record of a batch."""
    return batches_dir(data_dir) / f"{check_batch_id(batch_id)}.json"


def cancel_path(data_dir: Path, batch_id: str) -> Path:
    """The cancel-request file a running driver polls."""
    return batches_dir(data_dir) / f"{check_batch_id(batch_id)}.cancel"


MAX_RECORD_BYTES = 4 << 20  # a batch record, a verdict cache or a lock file is smaller


def special_reason(path: Path) -> str | None:
    """Why ``path`` is not read as a data file (a symbolic link, which could repeat another
    file's games or point anywhere, or a FIFO, socket or device), or None for a regular
    file. Looks at the name itself, never follows it."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return f"cannot stat the file: {exc.strerror or exc}"
    except ValueError as exc:
        return f"bad file name: {exc}"
    if stat.S_ISLNK(mode):
        return "a symbolic link (not followed)"
    if not stat.S_ISREG(mode):
        kind = "FIFO" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode) else "device"
        return f"not a regular file (a {kind})"
    return None


def _size_text(n: int) -> str:
    """``n`` bytes in words: whole MiB where it is a whole number of them."""
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n:,} bytes"


def read_bounded(
    path: Path, limit: int = MAX_RECORD_BYTES, follow: bool = False, sized: bool = False
) -> bytes:
    """The bytes of a small regular file, never waiting on a FIFO or a device and, unless
    ``follow`` (a file a person names), never following a symbolic link; OSError (a link,
    a special file) or ValueError (over ``limit`` bytes). With ``sized`` the file must hold
    what its size says: a file of /proc or /sys (whose size the system does not know, such
    as /proc/self/environ) is refused as not a regular file."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags if follow else flags | os.O_NOFOLLOW)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, f"{path} is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise ValueError(f"larger than {_size_text(limit)}")
    if sized and size != info.st_size:
        raise OSError(0, f"{path} is not a regular file (its size is not what it holds)")
    return b"".join(chunks)


def existing_data_dir(data: str | None) -> Path:
    """The data folder a reading command reads (``--data``, else ``$DSQ_DATA``, else the
    project's ``data/``); ``DsqError`` naming it, and where the name came from, when it
    does not exist or is not a folder."""
    d = resolve_data_dir(data)
    origin = "" if data is not None or not os.environ.get(ENV_VAR) else f" (from ${ENV_VAR})"
    if not d.exists():
        first = dsq_line(*FIRST_BATCH, data=d, always=True)
        raise DsqError(f"data folder {d}{origin} does not exist ({first} creates it)")
    if not d.is_dir():
        raise DsqError(f"data folder {d}{origin} is not a folder")
    return d
