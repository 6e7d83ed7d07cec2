"""Recording a batch's games: commit the files local workers wrote, buffer the games remote
workers return and write them as parquet files, all on a background thread; a game counts
as recorded only once its file is in place.

A local worker writes and verifies its chunk's file itself under a hidden temporary name
(:mod:`sim.storage.spool`); the recorder commits it (:meth:`GameRecorder.commit`: a rename
and the verdict, on the writer thread). Games returned as tables (Dask) are buffered and
written on the same thread (pyarrow releases the GIL while it encodes and compresses), so
the driver keeps feeding the workers during a write. The recorder drops every game it
already holds (recorded, being written or buffered): a chunk recomputed by Dask or
replayed after a lost worker is never recorded twice.

The batch record never lags behind the files: before a file is handed to the writer, the
record is written naming it among the files being committed, with the totals once it is
in place (:mod:`sim.storage.committing`); readers count it as soon as it exists. Once the
writes are done (:meth:`GameRecorder.flush` with ``wait``) the record is written with
the plain totals; if an interrupt (Ctrl-C) cut the bookkeeping short, those totals are
recounted from the files in place.
"""

from __future__ import annotations

import copy
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from engine.codes import WINNERS
from sim.batch.progress import flush_wait
from sim.core.tally import Tally
from sim.storage.committing import COMMITTING
from sim.storage.records import recorded_games
from sim.storage.spool import SpooledFile, commit_spooled, discard_spooled
from sim.storage.writing import chunk_file_name, write_games_chunk

OnRecorded = Callable[[dict[str, Any]], None]
"""Called with the fields of the batch record to write: ``games_done`` and ``counts``
(:meth:`sim.core.tally.Tally.record_counts`) of the games in files in place, and
``committing``, the files about to be put in place (:mod:`sim.storage.committing`)."""

MAX_PENDING_WRITES = 2  # a flush waits for the writer when more files than this are queued


Writing = tuple[Future, list[int], list[tuple[int, str]], dict[str, Any]]
"""A write handed to the writer: its future, game indices, (index, winner) pairs, and its
``committing`` entry."""


class GameRecorder:
    """Buffers a batch's games and writes them as parquet files on one writer thread.

    ``recorded`` and ``tally`` (the counts of :class:`~sim.core.tally.Tally`) describe the
    games already on disk; ``on_recorded`` is called before every file is handed to the
    writer and once the writes are done (see the module docstring). A file is written when
    :meth:`flush_due` says so (the caller asks) or on :meth:`flush`. :meth:`close` stops
    the writer thread.
    """

    def __init__(
        self,
        data_dir: Path,
        batch_id: str,
        recorded: Iterable[int],
        tally: Tally,
        on_recorded: OnRecorded,
        flush_games: int = 20_000,
        flush_seconds: float = 10.0,
    ) -> None:
        self.data_dir = data_dir
        self.batch_id = batch_id
        self.recorded: set[int] = set(recorded)
        self.tally = tally
        self.on_recorded = on_recorded
        self.flush_games = flush_games
        self.flush_seconds = flush_seconds
        self._buffer: list[pa.Table] = []
        self._buffered: set[int] = set()
        self._buffered_results: list[tuple[int, str]] = []
        self._writing: deque[Writing] = deque()
        self._in_writing: set[int] = set()
        self._projected = copy.deepcopy(tally)  # the counts once every write handed over is done
        self._unsure = False  # an interrupt or a failed write may have left counts wrong
        self._last_flush = time.monotonic()
        self._flushes = 0  # files of buffered games handed over in this run
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dsq-writer")

    @property
    def held(self) -> int:
        """Games kept so far: recorded, being written or buffered."""
        return len(self.recorded) + len(self._in_writing) + len(self._buffered)

    def add(self, table: pa.Table) -> list[tuple[int, str]]:
        """Buffer the games of a chunk's table not held yet; return their (index, winner)."""
        idx = table.column("game_index").to_pylist()
        recorded, buffered, in_writing = self.recorded, self._buffered, self._in_writing
        keep = [i not in recorded and i not in buffered and i not in in_writing for i in idx]
        if not all(keep):
            table = table.filter(pa.array(keep))
            idx = [i for i, k in zip(idx, keep, strict=True) if k]
        if not table.num_rows:
            return []
        results = list(zip(idx, table.column("winner").to_pylist(), strict=True))
        self._buffer.append(table)
        buffered.update(idx)
        self._buffered_results.extend(results)
        return results

    def commit(self, spooled: SpooledFile) -> list[tuple[int, str]]:
        """Have a file a worker wrote committed (on the writer thread) with its games not
        held yet; return their (index, winner). A file holding games already held (a
        recomputed chunk) is read, its new games buffered, and the file dropped."""
        idx = spooled.game_index.tolist()
        recorded, buffered, in_writing = self.recorded, self._buffered, self._in_writing
        if any(i in recorded or i in buffered or i in in_writing for i in idx):
            table = pq.read_table(spooled.temp_path)
            discard_spooled(spooled)
            return self.add(table)
        results = [(i, WINNERS[w]) for i, w in zip(idx, spooled.winner.tolist(), strict=True)]
        self._hand_over(spooled.name, idx, results, lambda: commit_spooled(spooled))
        self.settle(block=len(self._writing) > MAX_PENDING_WRITES)
        return results

    def flush_due(self) -> bool:
        """Whether ``flush_games`` games are buffered or the wait of
        :func:`~sim.batch.progress.flush_wait` has passed (none before the run's first
        file, then 1, 2, 4, ... seconds up to ``flush_seconds``)."""
        wait = flush_wait(self._flushes, self.flush_seconds)
        return len(self._buffered) >= self.flush_games or bool(
            self._buffer and time.monotonic() - self._last_flush >= wait
        )

    def flush(self, wait: bool = True) -> None:
        """Hand the buffered games to the writer; with ``wait``, until all are on disk and
        the record says so without a ``committing`` list."""
        self._last_flush = time.monotonic()
        if self._buffer:
            # Each chunk holds ascending game indices, and chunks are disjoint runs of
            # them: ordering the chunks by their first index orders the rows without a sort.
            self._buffer.sort(key=lambda t: t.column("game_index")[0].as_py())
            table = pa.concat_tables(self._buffer)
            name = chunk_file_name(int(table.column("game_index")[0].as_py()), table.num_rows)
            data_dir, batch_id = self.data_dir, self.batch_id
            self._hand_over(
                name,
                sorted(self._buffered),
                self._buffered_results,
                lambda: write_games_chunk(data_dir, batch_id, table, name),
            )
            self._flushes += 1
            self._buffer = []
            self._buffered = set()
            self._buffered_results = []
        self.settle(block=wait or len(self._writing) > MAX_PENDING_WRITES)
        if wait:
            self._close_out()

    def _hand_over(
        self, name: str, idx: list[int], results: list[tuple[int, str]], job: Callable[[], Any]
    ) -> None:
        """Announce a file in the record (see the module docstring), then have the writer
        put it in place."""
        projected = copy.deepcopy(self._projected)
        projected.add_all(results)
        entry = {
            "file": name,
            "games_done": projected.counts()["games"],
            "counts": projected.record_counts(),
        }
        self._unsure = True  # until the bookkeeping below is complete
        self.on_recorded(self._fields([*(w[3] for w in self._writing), entry]))
        self._writing.append((self._writer.submit(job), idx, results, entry))
        self._in_writing.update(idx)
        self._projected = projected
        self._unsure = False

    def _fields(self, committing: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "games_done": len(self.recorded),
            "counts": self.tally.record_counts(),
            COMMITTING: committing,
        }

    def settle(self, block: bool) -> None:
        """Count the games of every finished write as recorded (oldest first); with
        ``block``, wait for all writes. A failed write raises here."""
        while self._writing and (block or self._writing[0][0].done()):
            fut, idx, results, _ = self._writing[0]
            exc = fut.exception()  # waits for the write; an interrupt here changes nothing
            self._unsure = True
            self._writing.popleft()
            self._in_writing.difference_update(idx)
            if exc is not None:
                raise exc  # the counts announced for later files hold this one's games
            self.recorded.update(idx)
            self.tally.add_all(results)
            self._unsure = False

    def _close_out(self) -> None:
        """Once every write handed over has run, write the record's plain totals (recounted
        from the files in place if an interrupt or a failed write left them unsure)."""
        self._writer.submit(lambda: None).result()  # the writer runs its jobs in order
        if self._unsure:
            games = recorded_games(self.data_dir, self.batch_id)
            tally = Tally(self.tally.swap)
            for gi in sorted(games):
                tally.add(gi, games[gi])
            self.recorded, self.tally = set(games), tally
            self._projected = copy.deepcopy(tally)
            self._unsure = False
        self.on_recorded(self._fields([]))

    def close(self) -> None:
        """Stop the writer thread once the writes handed to it are done."""
        self._writer.shutdown(wait=True)
