"""Each games file's summary: the counts every figure of :mod:`sim.stats` needs, kept in the
file's own footer.

A summary is one table (:data:`SUMMARY_SCHEMA`) of four kinds of rows:

- ``CELLS``: games counted by batch, rules, players, first mover, whether their moves
  are stored, winner, reason, den animal and exact length in plies (and so whether
  they are void under their rules, Scoring 1), with the sums of their branching and
  durations. The length is kept exactly, so a minimum length or the void rule (Scoring 1) selects
  cells as it selects games; means, deviations, medians and histograms of lengths come
  from the counts per length.
- ``CAPTURES``: capture events counted by batch, rules, players, whether the game was
  adjudicated on scores and whether it is void, capturing and captured piece, square.
  (Lengths are not kept here: a figure of captures over games of a minimum length
  reads the games.)
- ``PAIRS``: the colour-swapped pairs whose two games are in the file, counted by
  batch, rules, the two bots (``red`` the smaller spec, ``blue`` the other), the smaller
  bot's half-points, the pair's shorter length and whether a game of it was adjudicated.
- ``HALVES``: the games of pairs not complete in the file, one row each, paired across
  files when read.

It is computed from the games (:func:`sim.storage.summarizing.summarize`), written into
the parquet footer with the games in the same atomic rename
(:func:`sim.storage.writing.write_games_file`), with its SHA-256, and verified like the
games: verifying a file computes its summary again from the rows read and refuses a
file whose stored summary differs (:mod:`sim.storage.verify`). A file written before
summaries existed is summarised when it is verified; readers cache summaries per folder
(:mod:`sim.storage.summary_cache`). :mod:`sim.storage.summarizing` computes, merges and
compares summaries; this module holds their schema and how they are stored.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SUMMARY_VERSION = 1  # a footer's summary of another version is computed again
FOOTER_KEY = b"dsq.summary"
DIGEST_KEY = b"dsq.summary.sha256"
VERSION_KEY = b"dsq.summary.version"
MAX_SUMMARY_BYTES = 64 << 20  # a summary larger than this is not one dsq wrote

CELLS, CAPTURES, PAIRS, HALVES = 0, 1, 2, 3

SUMMARY_SCHEMA = pa.schema(
    [
        ("kind", pa.int8()),  # CELLS, CAPTURES, PAIRS or HALVES
        ("batch_id", pa.string()),
        ("rules", pa.string()),
        ("red", pa.string()),  # PAIRS: the smaller of the two bots' specs
        ("blue", pa.string()),  # PAIRS: the other
        ("first_side", pa.string()),  # CELLS: the side that moved first
        ("stored", pa.bool_()),  # CELLS: the games' moves are stored (not outcomes only)
        ("winner", pa.string()),  # CELLS, HALVES
        ("reason", pa.string()),  # CELLS, HALVES
        ("den_animal", pa.string()),  # CELLS
        ("plies", pa.int32()),  # CELLS, HALVES: the length; PAIRS: the shorter game's
        ("games", pa.int64()),  # games (CAPTURES: capture events, PAIRS: pairs)
        ("branching_sum", pa.float64()),  # CELLS: over the games with a branching
        ("branching_n", pa.int64()),
        ("duration_sum", pa.float64()),  # CELLS: over the games with a duration
        ("duration_n", pa.int64()),
        ("void", pa.bool_()),  # CELLS, CAPTURES: the games are void under their rules
        ("capturer", pa.int8()),  # CAPTURES: piece codes and square
        ("captured", pa.int8()),
        ("square", pa.int8()),
        ("pair_id", pa.int32()),  # HALVES
        ("hp", pa.int8()),  # PAIRS: the smaller bot's half-points, 0..4
        ("adjudicated", pa.bool_()),  # CAPTURES: the game, PAIRS: a game of the pair, adjudicated
    ]
)

MAX_COMPUTED = 4096
_computed: dict[tuple[str, int, int, int], pa.Table] = {}
_computed_lock = threading.Lock()


# How a summary is stored: parquet, as small as it gets (dictionaries for the keys,
# delta-packed counts, byte-split sums), or an uncompressed Arrow IPC stream, read at once
# (a folder's merged summary in its cache, read at every open).
_NUMBERS = ("plies", "games", "branching_n", "duration_n")
_FLOATS = ("branching_sum", "duration_sum")
_DICTIONARY = [f.name for f in SUMMARY_SCHEMA if f.name not in (*_NUMBERS, *_FLOATS)]
_ENCODINGS = {
    **dict.fromkeys(_NUMBERS, "DELTA_BINARY_PACKED"),
    **dict.fromkeys(_FLOATS, "BYTE_STREAM_SPLIT"),
}


def encode(summary: pa.Table, form: str = "parquet") -> bytes:
    """A summary as bytes: ``parquet`` (zstd, small: what a footer holds) or ``ipc`` (an
    uncompressed Arrow IPC stream, the fastest to read)."""
    sink = pa.BufferOutputStream()
    if form == "ipc":
        with pa.ipc.new_stream(sink, SUMMARY_SCHEMA) as writer:
            writer.write_table(summary)
    else:
        pq.write_table(
            summary.cast(SUMMARY_SCHEMA),
            sink,
            compression="zstd",
            use_dictionary=_DICTIONARY,
            column_encoding=_ENCODINGS,
            write_statistics=False,
            store_schema=False,
        )
    return sink.getvalue().to_pybytes()


def decode(data: bytes) -> pa.Table:
    """The summary stored as ``data`` (either form of :func:`encode`); ValueError unless
    it is one of :data:`SUMMARY_SCHEMA`."""
    if len(data) > MAX_SUMMARY_BYTES:
        raise ValueError("the summary is larger than any dsq writes")
    try:
        if data[:4] == b"PAR1":
            # Read in this thread, not through a dataset scan: a scan may drop its last
            # hold on ``data`` later, on an Arrow pool thread, which then needs the GIL; at
            # interpreter exit that thread is ended mid-destructor and the process aborts.
            parquet = pq.ParquetFile(pa.BufferReader(data), pre_buffer=False)
            table = parquet.read(use_threads=False)
            if table.schema.names != SUMMARY_SCHEMA.names:
                raise ValueError("the summary has other columns than this dsq writes")
            table = table.cast(SUMMARY_SCHEMA)
        else:
            table = pa.ipc.open_stream(pa.py_buffer(data)).read_all()
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"the summary does not decode: {exc}") from None
    if not table.schema.equals(SUMMARY_SCHEMA):
        raise ValueError("the summary has other columns than this dsq writes")
    return table


def footer_metadata(summary: pa.Table) -> dict[bytes, bytes]:
    """The key-value metadata that stores ``summary`` in a parquet footer."""
    data = encode(summary)
    return {
        FOOTER_KEY: data,
        DIGEST_KEY: hashlib.sha256(data).hexdigest().encode(),
        VERSION_KEY: str(SUMMARY_VERSION).encode(),
    }


def stored_summary(metadata: dict[bytes, bytes] | None) -> pa.Table | None:
    """The summary a parquet footer's key-value ``metadata`` holds (None: it holds none,
    or one of another :data:`SUMMARY_VERSION`, which readers compute again from the
    games); ValueError when it is damaged (its digest differs) or not a summary."""
    data = (metadata or {}).get(FOOTER_KEY)
    if data is None or (metadata or {}).get(VERSION_KEY) != str(SUMMARY_VERSION).encode():
        return None
    if (metadata or {}).get(DIGEST_KEY) != hashlib.sha256(data).hexdigest().encode():
        raise ValueError("the summary in the footer does not match its digest")
    return decode(data)


def file_summary(path: Path) -> pa.Table | None:
    """The summary in the footer of the games file ``path`` (None: it has none); ValueError
    when it is damaged, OSError when the file cannot be read."""
    try:
        metadata = pq.read_metadata(path).metadata
    except (pa.ArrowException, OSError) as exc:
        raise OSError(f"cannot read the footer of {Path(path).name}: {exc}") from None
    return stored_summary(metadata)


def _identity(path: Path) -> tuple[str, int, int, int] | None:
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def remember_computed(path: Path, summary: pa.Table) -> None:
    """Keep, for this process, the summary computed from the games of a file whose footer
    holds none (a file written before summaries), keyed by the file's identity."""
    key = _identity(path)
    if key is not None:
        with _computed_lock:
            if len(_computed) >= MAX_COMPUTED:
                _computed.clear()
            _computed[key] = summary


def computed_summary(path: Path) -> pa.Table | None:
    """The summary :func:`remember_computed` kept for ``path`` as it is now, if any."""
    key = _identity(path)
    with _computed_lock:
        return _computed.get(key) if key is not None else None
