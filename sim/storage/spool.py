"""Games files written by a worker and committed by the driver.

A local worker (the driver's own process, or a pool process on the same machine) encodes
its chunk of games itself when the driver asks it to (in batches between fast bots):
:func:`spool_games` writes the parquet file into the batch's games folder under a
hidden temporary name that does not end in ``.parquet`` (``.<name>.tmp-<pid>-<token>``,
so no reader ever looks at it), fsyncs it, reads it back in full with page checksums
checked (:func:`sim.storage.verify.read_back`) and returns a
:class:`SpooledFile` describing it. Only the driver, which holds the batch's lock, makes
it part of the dataset: :func:`commit_spooled` renames it into place, fsyncs the folder
and caches the worker's verdict keyed on the committed file's identity (size, modification
and inode change times, as :mod:`sim.storage.verify` keys every verdict), after checking
that the file is still the one the worker verified.

A worker that dies leaves at most its temporary file, which the next driver of the batch
removes (:func:`sim.storage.writing.remove_stale_temp_files`); a driver that stops drops
the files it has not committed (:func:`discard_spooled`).
"""

from __future__ import annotations

import errno
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from engine.codes import WINNERS
from sim.storage.atomic import TMP_MARK, fsync_dir
from sim.storage.verify import read_back, record_verdict
from sim.storage.writing import chunk_file_name, write_games_file


@dataclass(frozen=True)
class SpooledFile:
    """A verified games file under its temporary name, waiting for the driver.

    ``game_index`` and ``winner`` list its games in row order (the winner as an index
    into :data:`engine.codes.WINNERS`); ``size`` and ``mtime_ns`` are the file's identity
    when the worker verified it.
    """

    folder: str
    temp_name: str
    name: str
    game_index: np.ndarray
    winner: np.ndarray
    size: int
    mtime_ns: int

    @property
    def temp_path(self) -> Path:
        """Where the file lies until it is committed."""
        return Path(self.folder) / self.temp_name

    @property
    def path(self) -> Path:
        """Where the file lies once committed."""
        return Path(self.folder) / self.name


def spool_games(folder: Path | str, table: pa.Table) -> SpooledFile:
    """Write a chunk's games (a GAME_SCHEMA table sorted by ``game_index``) under a hidden
    temporary name in ``folder``, verify it and describe it; ``OSError`` if it does not read
    back as written (the temporary file is then removed)."""

    if table.num_rows == 0:
        raise ValueError("empty chunk")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    index = table.column("game_index").to_numpy()
    name = chunk_file_name(int(index[0]), table.num_rows)
    temp = folder / f".{name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}"
    try:
        verdict = read_back(temp, write_games_file(temp, table))
        if verdict is not None:
            raise OSError(errno.EIO, f"{name} does not read back as written ({verdict})")
        st = temp.stat()
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    winners = table.column("winner").to_numpy(zero_copy_only=False)
    codes = np.zeros(len(winners), dtype=np.int8)
    for k, w in enumerate(WINNERS):
        codes[winners == w] = k
    return SpooledFile(
        str(folder), temp.name, name, index.astype(np.int32), codes, st.st_size, st.st_mtime_ns
    )


def commit_spooled(spooled: SpooledFile) -> Path:
    """Rename a spooled file into place (the driver's step), fsync its folder and cache the
    worker's verdict on the committed file; return its path. ``OSError`` when the file is
    gone or is no longer the file the worker verified (it is then left uncommitted)."""
    temp, dest = spooled.temp_path, spooled.path
    before = temp.stat()
    if (before.st_size, before.st_mtime_ns) != (spooled.size, spooled.mtime_ns):
        raise OSError(errno.EIO, f"{spooled.name} changed after it was verified")
    os.replace(temp, dest)
    fsync_dir(dest.parent)
    after = dest.stat()
    if (after.st_size, after.st_mtime_ns) == (spooled.size, spooled.mtime_ns):
        index = spooled.game_index
        games = (dest.parent.name, int(index.min()), int(index.max()), len(index))
        record_verdict(dest, None, games)  # keyed on the committed file's identity
    return dest


def discard_spooled(spooled: SpooledFile) -> None:
    """Remove a spooled file that will not be committed."""
    try:
        spooled.temp_path.unlink(missing_ok=True)
    except OSError:
        pass
