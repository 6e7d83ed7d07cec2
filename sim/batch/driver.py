"""The batch driver: play the missing games of one batch on a backend and record them safely.

:class:`BatchDriver` is the loop behind :func:`sim.batch.run.run_batches` (the one entry
point; use that, not the driver directly; its loop over chunks is
:class:`~sim.batch.chunk_loop.ChunkLoop`). Only the driver, which owns the batch, puts
files into the dataset. It keeps every recorded game index of the batch, hands chunks of
missing indices to the backend (lost workers' chunks are replayed, a chunk's unplayed tail
is queued again), drops any result it already holds, and records the games through a
:class:`~sim.batch.recorder.GameRecorder`: a game counts as recorded, in memory and in the
batch record, only once its file is in place. In a batch between fast bots, workers on the
driver's machine write each chunk's file themselves under a hidden temporary name
(:mod:`sim.storage.spool`), which the driver commits; otherwise, and on Dask, workers
return their games, which the driver writes. A run's first chunk is small
(:func:`~sim.batch.progress.first_small`), so the first progress, and the run's rate
(``rate`` in the record: the start-up is not counted), come within a second or two.

Between results it polls the batch's cancel request. A stop check (an SPRT) runs on the
games in game-index order, after every game or colour-swapped pair
(:class:`~sim.core.tally.SequentialCheck`): the batch decides at the exact game count where
the test first says stop, whatever the order chunks finish in. While it runs, chunks are
small (:data:`CHECK_CHUNK` games, :data:`CHECK_SECONDS`), come back to the driver and
none starts a slot's worth of chunks past the lowest game not counted, so at most the
chunks in flight then are played past the decision; those already collected are recorded
too (``games_done``), the record's ``decided_at`` says where the test decided and its
``stop_check`` holds the test on the games ``0..decided_at-1``.

A cancel request or the time limit sets ``cancelled``; ``KeyboardInterrupt`` (also a
SIGTERM the CLI turns into one) records what was played, sets ``interrupted`` and
propagates; any error records what was played, sets ``failed`` and raises
:class:`BatchFailed`. Every one of them is resumable.
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from sim.batch.backends import Backend
from sim.batch.chunk_loop import ChunkLoop
from sim.batch.chunks import DEFAULT_PLAY_FN, ChunkJob
from sim.batch.failures import BatchFailed, MissingIndices, describe, interrupted, is_resource
from sim.batch.progress import BatchProgress, games_rate
from sim.batch.recorder import GameRecorder
from sim.batch.spec import BatchSpec, RunOptions
from sim.bots.registry import fast_kinds
from sim.bots.spec import parse_bot
from sim.core.tally import SequentialCheck, StopCheck, Tally
from sim.storage.locks import BatchLock
from sim.storage.paths import batch_path, games_dir
from sim.storage.records import (
    clear_cancel,
    hostname,
    now_iso,
    read_batch_record,
    recorded_games,
    write_batch_record,
)
from sim.storage.spool import discard_spooled
from sim.storage.writing import remove_stale_temp_files

SPOOL_CHUNK = 1000  # fewest games per chunk (and file) a worker writes itself
CHECK_CHUNK = 64  # most games per chunk while a stop check is undecided (even: whole pairs)
CHECK_SECONDS = 0.25  # and the longest a chunk plays then (slow bots)


def _fast_bots(*specs: str) -> bool:
    """Whether every bot spec is one the compiled game loop plays (``random``, ``greedy``)."""
    kinds = fast_kinds()
    return all(parse_bot(s).name in kinds for s in specs)


def _drop_file(fut: Future) -> None:
    """Remove the file a chunk that will not be collected has written (a lost one: none)."""
    file = None if fut.exception() is not None else fut.result().file
    if file is not None:
        discard_spooled(file)


class BatchDriver(ChunkLoop):
    """Plays every game of one batch not yet recorded, on ``backend``.

    ``stop_check(counts)`` is called after each game (each pair with colour swapping) with
    the :meth:`Tally.counts <sim.core.tally.Tally.counts>` of games ``0..n-1``; when it
    returns true the batch stops early with status ``done``, ``stopped_early = true`` and
    ``decided_at = n``. A cancel request
    (:func:`sim.storage.records.request_cancel`) stops it with status ``cancelled``.
    """

    def __init__(
        self,
        data_dir: Path,
        batch_id: str,
        backend: Backend,
        options: RunOptions | None = None,
        progress: BatchProgress | None = None,
        stop_check: StopCheck | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.batch_id = batch_id
        self.backend = backend
        self.options = options or RunOptions()
        self.progress = progress
        self.stop_check = stop_check
        self.sequential = SequentialCheck(stop_check, False) if stop_check else None
        self.record = read_batch_record(data_dir, batch_id)
        self.spec = BatchSpec.from_dict(self.record["spec"])
        self.tally = Tally(self.spec.swap)
        self.missing = MissingIndices(0, set())
        self.deadline: float | None = None
        self.stop_reason: str | None = None
        self.retry: deque[tuple[int, ...]] = deque()
        self.inflight: dict[Future, tuple[ChunkJob, int]] = {}
        self.chunk_size = 1
        self.submitted = 0  # chunks of missing games handed out in this run (first_small)
        self.collected = 0  # games accepted in this run
        self.first_collected: tuple[float, int] | None = None  # when, and how many, first
        self.first_rate: float | None = None  # the first chunk's own pace (chunk_rate)
        self.chunk_seconds = 1.0
        self.lost_workers = 0
        self.recorder: GameRecorder | None = None

    def run(self) -> dict[str, Any]:
        """Play the batch to its end; return the final record (also written to disk).

        Raises :class:`BatchFailed` (record ``failed``) or ``KeyboardInterrupt`` (record
        ``interrupted``), in both cases after recording the games played.
        """
        with BatchLock(self.data_dir, self.batch_id):
            self.record = read_batch_record(self.data_dir, self.batch_id)  # now it is ours
            return self._run()

    def _run(self) -> dict[str, Any]:
        try:
            recorder = self._start()
        except OSError as exc:
            raise BatchFailed(describe(exc), self.batch_id, is_resource(exc)) from None
        try:
            status = self._play()
            recorder.flush()
        except KeyboardInterrupt:
            self._abort("interrupted", None)
            raise
        except BaseException as exc:
            if interrupted(exc):
                self._abort("interrupted", None)
                raise KeyboardInterrupt from exc
            msg = str(exc) if isinstance(exc, BatchFailed) else describe(exc)
            msg = self._abort("failed", msg) or msg
            failed = BatchFailed(msg, self.batch_id, resource=is_resource(exc))
            failed.record = dict(self.record)
            raise failed from None
        finally:
            recorder.close()
        return self._finish(status)

    # -- start and end ---------------------------------------------------------------

    def _start(self) -> GameRecorder:
        """Clean up after a previous driver, count what is recorded, mark the batch running."""
        d, bid, spec, rec = self.data_dir, self.batch_id, self.spec, self.record
        clear_cancel(d, bid)
        remove_stale_temp_files(games_dir(d, bid))
        remove_stale_temp_files(batch_path(d, bid).parent)
        done_games = {gi: w for gi, w in recorded_games(d, bid).items() if 0 <= gi < spec.games}
        recorded = Tally(spec.swap)
        if self.stop_check is not None:
            self.sequential = SequentialCheck(self.stop_check, spec.swap)
        for gi, w in done_games.items():
            self.tally.add(gi, w)
            recorded.add(gi, w)
        if self.sequential is not None:
            self.sequential.add(done_games.items())
        checking = self.sequential is not None and self.sequential.decided_at is None
        self.chunk_seconds = min(self.options.chunk_seconds, self.options.flush_seconds)
        if checking:
            self.chunk_seconds = min(self.chunk_seconds, CHECK_SECONDS)
        self.missing = MissingIndices(spec.games, set(done_games))
        # Games between fast bots are cheap: encoding them is a sizeable part of the work, so
        # local workers write their chunks' files themselves (the driver would be the
        # bottleneck), in chunks of at least SPOOL_CHUNK games. Costlier games come back to
        # the driver, which gathers them into files of up to flush_games games. So do all
        # games while a stop check runs: its chunks are small, a file each would be too many.
        spooling = (
            not checking
            and self.options.play_fn == DEFAULT_PLAY_FN
            and _fast_bots(spec.red, spec.blue)
        )
        self.backend.spool_to(str(games_dir(d, bid)) if spooling else "")
        balanced = math.ceil(self.missing.remaining / (self.backend.slots * 4) or 1)
        if spooling:
            balanced = max(balanced, SPOOL_CHUNK)
        self.chunk_size = max(
            1,
            min(
                self.options.chunk_games,
                self.options.flush_games,  # a chunk a worker writes is one file
                balanced,
                CHECK_CHUNK if checking else balanced,
            ),
        )
        if self.options.max_seconds is not None:
            self.deadline = time.monotonic() + self.options.max_seconds
        rec.update(
            status="running",
            pid=os.getpid(),
            host=hostname(),
            started_at=rec.get("started_at") or now_iso(),
            finished_at=None,
            games_done=len(done_games),
            counts=recorded.record_counts(),
            error=None,
        )
        rec.pop("stopped_early", None)
        rec.pop("decided_at", None)
        rec.pop("rate", None)  # measured again in each run
        write_batch_record(d, rec)
        if self.progress:
            self.progress.start(
                f"{bid} {spec.rules}", spec.games, len(done_games), self.tally.colours()
            )
        self.recorder = GameRecorder(
            d,
            bid,
            done_games,
            recorded,
            self._record_progress,
            flush_games=self.options.flush_games,
            flush_seconds=self.options.flush_seconds,
        )
        return self.recorder

    def _record_progress(self, fields: dict[str, Any]) -> None:
        """Write the recorder's counts to the batch record (``OnRecorded`` of the recorder),
        with the run's rate once it is known (:meth:`run_rate`)."""
        self.record.update(fields)
        rate = self.run_rate()
        if rate is not None:
            self.record["rate"] = round(rate, 4)
        write_batch_record(self.data_dir, self.record)

    def run_rate(self) -> float | None:
        """Games per second of this run: from its first collected chunk to now once a
        second one is in, before that the first chunk's own pace (its playing time, all
        workers alike); loading bots and kernels never counts. None before any chunk."""
        first = self.first_collected
        if first is None or self.collected <= first[1]:
            return self.first_rate
        rate = games_rate(self.collected, first[1], time.monotonic() - first[0])
        return rate if rate > 0 else self.first_rate

    def _finish(self, status: str) -> dict[str, Any]:
        """Write the final record of a batch that ended without an error and return it."""
        self._cancel_inflight()
        rec = self.record
        recorded = len(self._recorder.recorded)
        if status == "done" and recorded < self.spec.games and not rec.get("stopped_early"):
            status = "failed"
            rec["error"] = f"only {recorded} of {self.spec.games} games recorded"
        if self.sequential is not None and self.sequential.decided_at is not None:
            rec["decided_at"] = self.sequential.decided_at
        last = getattr(self.stop_check, "last", None)
        if last is not None and hasattr(last, "to_dict"):
            rec["stop_check"] = last.to_dict()
        if status == "cancelled" and self.stop_reason:
            rec["error"] = self.stop_reason
        rec.update(status=status, finished_at=now_iso())
        write_batch_record(self.data_dir, rec)
        clear_cancel(self.data_dir, self.batch_id)
        if self.progress:
            self.progress.finish(rec)
        if status == "failed":
            raise BatchFailed(rec["error"], self.batch_id)
        return rec

    def _abort(self, status: str, error: str | None) -> str | None:
        """Record the games played so far, then the final ``status`` and ``error``; return
        the error, completed with what could not be written (a full disk refuses the last
        games or the record itself: what is on disk stays right, and a resume recounts)."""
        self._cancel_inflight()
        try:
            self._recorder.flush()
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # noqa: BLE001 - reported in the record and the error
            if error is None or describe(exc) not in error:
                error = f"{error + '; ' if error else ''}unwritten games: {describe(exc)}"
        self.record.update(status=status, error=error, finished_at=now_iso())
        try:
            write_batch_record(self.data_dir, self.record)
        except OSError as exc:
            error = f"{error + '; ' if error else ''}the record was not updated: {describe(exc)}"
        if self.progress:
            self.progress.finish(self.record)
        return error

    def _cancel_inflight(self) -> None:
        """Cancel the chunks not collected; drop the files of those already written."""
        for fut in self.inflight:
            if not fut.cancel():  # done, or still running: its file is dropped once written
                fut.add_done_callback(_drop_file)
