"""Recording a batch's games: buffer the results, write parquet files on a background thread,
and count a game as recorded only once its file is in place.

Files are written on a background thread (pyarrow releases the GIL while it encodes and
compresses), so the driver keeps feeding the workers during a write. The recorder drops
every game it already holds (recorded, being written or buffered): a chunk recomputed by
Dask or replayed after a lost worker is never recorded twice.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa

from sim.batch.tally import Tally
from sim.storage.writing import write_games_chunk

OnRecorded = Callable[[int, dict[str, Any]], None]
"""Called after each file is in place with the number of games recorded and their counts
(:meth:`sim.batch.tally.Tally.record_counts`)."""

MAX_PENDING_WRITES = 2  # a flush waits for the writer when more files than this are queued


class GameRecorder:
    """Buffers a batch's games and writes them as parquet files on one writer thread.

    ``recorded`` and ``tally`` (the counts of :class:`~sim.batch.tally.Tally`) describe the
    games already on disk; ``on_recorded`` is called after every file written. A file is
    written when :meth:`flush_due` says so (the caller asks) or on :meth:`flush`.
    :meth:`close` stops the writer thread.
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
        self._writing: deque[tuple[Future, list[int], list[tuple[int, str]]]] = deque()
        self._in_writing: set[int] = set()
        self._last_flush = time.monotonic()
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

    def flush_due(self) -> bool:
        """Whether ``flush_games`` games are buffered or ``flush_seconds`` have passed."""
        return len(self._buffered) >= self.flush_games or bool(
            self._buffer and time.monotonic() - self._last_flush >= self.flush_seconds
        )

    def flush(self, wait: bool = True) -> None:
        """Hand the buffered games to the writer; with ``wait``, until all are on disk."""
        self._last_flush = time.monotonic()
        if self._buffer:
            # Each chunk holds ascending game indices, and chunks are disjoint runs of
            # them: ordering the chunks by their first index orders the rows without a sort.
            self._buffer.sort(key=lambda t: t.column("game_index")[0].as_py())
            table = pa.concat_tables(self._buffer)
            fut = self._writer.submit(write_games_chunk, self.data_dir, self.batch_id, table)
            self._writing.append((fut, sorted(self._buffered), self._buffered_results))
            self._in_writing.update(self._buffered)
            self._buffer = []
            self._buffered = set()
            self._buffered_results = []
        self.settle(block=wait or len(self._writing) > MAX_PENDING_WRITES)

    def settle(self, block: bool) -> None:
        """Count the games of every finished write as recorded (oldest first); with
        ``block``, wait for all writes. A failed write raises here."""
        while self._writing and (block or self._writing[0][0].done()):
            fut, idx, results = self._writing.popleft()
            self._in_writing.difference_update(idx)
            fut.result()
            self.recorded.update(idx)
            for gi, w in results:
                self.tally.add(gi, w)
            self.on_recorded(len(self.recorded), self.tally.record_counts())

    def close(self) -> None:
        """Stop the writer thread once the writes handed to it are done."""
        self._writer.shutdown(wait=True)
