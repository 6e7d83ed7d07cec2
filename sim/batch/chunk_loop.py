"""The batch driver's loop (:class:`ChunkLoop`, the base of
:class:`sim.batch.driver.BatchDriver`): keep the backend's slots busy with chunks of
missing games, within the stop check's window; collect what comes back (a lost worker's
chunk is replayed, a chunk's unplayed tail is queued again); stop when every game is
played, a cancel request arrives, the time limit passes or the stop check decides.
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path
from typing import Any

from sim.batch.backends import Backend
from sim.batch.chunks import ChunkJob, ChunkResult
from sim.batch.failures import BatchFailed, MissingIndices, describe, is_resource
from sim.batch.progress import BatchProgress, chunk_rate, first_small
from sim.batch.recorder import GameRecorder
from sim.batch.spec import BatchSpec, RunOptions
from sim.core.tally import SequentialCheck, Tally
from sim.storage.paths import dsq_line
from sim.storage.records import cancel_requested
from sim.tablebase.store import tables_root

MAX_LOST_WORKERS = 20
POLL_SECONDS = 0.5  # longest wait for a chunk before polling the cancel request again


class ChunkLoop:
    """The loop that plays a batch's missing games in chunks on ``backend``. The driver
    (:class:`~sim.batch.driver.BatchDriver`) sets up the state below and records what
    the loop collects through its ``recorder``."""

    data_dir: Path
    batch_id: str
    backend: Backend
    options: RunOptions
    progress: BatchProgress | None
    record: dict[str, Any]
    spec: BatchSpec
    tally: Tally
    sequential: SequentialCheck | None
    missing: MissingIndices
    deadline: float | None
    stop_reason: str | None
    retry: deque[tuple[int, ...]]
    inflight: dict[Future, tuple[ChunkJob, int]]
    chunk_size: int
    chunk_seconds: float
    submitted: int
    collected: int
    first_collected: tuple[float, int] | None
    first_rate: float | None
    lost_workers: int
    recorder: GameRecorder | None

    @property
    def _recorder(self) -> GameRecorder:
        assert self.recorder is not None, "the driver has not started"
        return self.recorder

    def _play(self) -> str:
        """Keep the backend busy until every game is played, a cancel request arrives or
        the stop check says stop; return the status (``done`` or ``cancelled``)."""
        recorder = self._recorder
        while True:
            if self._decided():
                return "done"
            self._submit_jobs()
            if not self.inflight:
                return "done"
            finished, _ = wait(
                list(self.inflight), timeout=POLL_SECONDS, return_when=FIRST_COMPLETED
            )
            for fut in finished:
                self._collect(fut)
            if self._decided():
                return "done"
            if finished and self.progress:
                self.progress.update(recorder.held, self.tally.colours())
            if recorder.flush_due():
                recorder.flush(wait=False)
            recorder.settle(block=False)
            if cancel_requested(self.data_dir, self.batch_id):
                return "cancelled"
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.stop_reason = (
                    f"stopped at its time limit of {self.options.max_seconds:g} s; "
                    f"{dsq_line('simulate', '--resume', self.batch_id, data=self.data_dir)} "
                    "plays the rest"
                )
                return "cancelled"

    def _decided(self) -> bool:
        """Whether the stop check has decided (the batch then stops early)."""
        if self.sequential is None or self.sequential.decided_at is None:
            return False
        self.record["stopped_early"] = True
        return True

    def _submit_jobs(self) -> None:
        """Fill the backend's free slots with the next chunks (within the stop check's
        window: a straggler must not let the other slots play far past the decision)."""
        while len(self.inflight) < self.backend.slots:
            if self.inflight and not self.retry and self._too_far_ahead():
                return
            job = self._next_job()
            if job is None:
                return
            self.inflight[self.backend.submit(job)] = (job, self.backend.generation)

    def _too_far_ahead(self) -> bool:
        """Whether the next chunk ends a slot's worth of chunks past the lowest uncounted game."""
        seq = self.sequential
        if seq is None or seq.decided_at is not None:
            return False
        window = self.backend.slots * self.chunk_size
        return self.missing.next + self.chunk_size > seq.frontier + window

    def _next_job(self) -> ChunkJob | None:
        """The next chunk: one to replay first, else the next run of missing indices."""
        if self.retry:
            idx = self.retry.popleft()
        elif self.missing.remaining:
            # small first chunks: the first progress, and a rate, come quickly
            idx = self.missing.take(first_small(self.chunk_size, self.submitted))
            self.submitted += 1
        else:
            return None
        return ChunkJob(
            batch_id=self.batch_id,
            spec=self.spec,
            indices=idx,
            max_seconds=self.chunk_seconds,
            play_fn=self.options.play_fn,
            tables=str(tables_root(self.data_dir)),
            engines=self.options.engines,
        )

    def _collect(self, fut: Future) -> None:
        """Take a finished chunk: accept its games, or replay it if its worker died."""
        job, generation = self.inflight.pop(fut)
        exc = fut.exception()
        if exc is None:
            self._accept(fut.result())
        elif self.backend.lost_worker(exc):
            self.lost_workers += 1
            if self.lost_workers > MAX_LOST_WORKERS:
                raise BatchFailed(
                    f"worker processes died {self.lost_workers} times ({exc}); a script "
                    "calling run_batches with workers > 1 must guard it with "
                    "if __name__ == '__main__'",
                    self.batch_id,
                )
            self.backend.recover(generation)
            self.retry.appendleft(job.indices)
        else:
            raise BatchFailed(describe(exc), self.batch_id, is_resource(exc)) from exc

    def _accept(self, res: ChunkResult) -> None:
        """Keep a chunk's new games (its file, or its table) and queue the indices it had
        no time for."""
        recorder = self._recorder
        if self.first_rate is None:  # before the commit: its record carries the rate
            parallel = self.backend.slots // 2  # each worker: one chunk playing, one queued
            self.first_rate = chunk_rate(len(res.played), res.seconds or 0.0, parallel)
        games = recorder.commit(res.file) if res.file is not None else recorder.add(res.table)
        self.collected += len(games)
        if self.first_collected is None and games:
            self.first_collected = (time.monotonic(), len(games))
        self.tally.add_all(games)
        if self.sequential is not None:
            self.sequential.add(games)
        rest = res.job.indices[len(res.played) :]
        if rest:
            self.retry.appendleft(rest)
