"""Where chunks run: in the driver, on a local process pool, or on a Dask cluster.

Every backend is a ``concurrent.futures.Executor`` (a thread of the driver for one worker)
plus a number of ``slots`` (how many
chunks to keep in flight) and a way to recover from a lost worker.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.batch.lifeline import follow_parent

if TYPE_CHECKING:
    from sim.batch.chunks import ChunkJob

SCHEDULER_RE = re.compile(r"^(tcp|tls)://[^\s:/]+:\d{1,5}$")


def inline_executor(name: str = "dsq-worker") -> Executor:
    """A one-thread executor of the driver's process. ``--workers 1`` has two: the worker,
    which plays the chunks one at a time in the order they come, and the encoder, which
    writes and verifies the games file of each played chunk while the worker plays the
    next one (the compiled game loop and parquet encoding both release the GIL); the
    driver keeps the next chunk queued and records the previous one meanwhile."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)


class Backend:
    """Runs :class:`ChunkJob` s; subclasses choose where.

    Workers of a backend that ``spools`` run on the driver's machine: they write each
    chunk's games file themselves into the folder the driver names with
    :meth:`spool_to` (the driver then only commits it, see :mod:`sim.storage.spool`).
    """

    name = "inline"
    slots = 2  # one chunk playing, the next one queued behind it (still one worker)
    generation = 0
    spools = True
    spool = ""

    def __init__(self) -> None:
        self.executor: Executor = inline_executor()
        self.encoder: Executor | None = inline_executor("dsq-encoder")

    def spool_to(self, folder: str) -> None:
        """Have the workers write their games files into ``folder`` (if they can; "": have
        them return their games)."""
        self.spool = folder if self.spools else ""

    def submit(self, job: ChunkJob) -> Future:
        """Start a chunk; the future's result is a :class:`sim.batch.chunks.ChunkResult`."""
        # lazy: start-up time (pyarrow; `dsq simulate --help` reads max_workers from here)
        from sim.batch.chunks import play_chunk

        if self.spool and not job.spool:
            job = replace(job, spool=self.spool)
        encoder = getattr(self, "encoder", None)
        if encoder is None or not job.spool:
            return self.executor.submit(play_chunk, job)
        return _pipelined(self.executor.submit(play_chunk, replace(job, spool="")), encoder, job)

    def lost_worker(self, exc: BaseException) -> bool:
        """Whether ``exc`` means the chunk's worker died (the chunk should be replayed)."""
        return False

    def recover(self, generation: int) -> None:
        """Make the backend usable again after a lost worker seen at ``generation``."""

    def close(self, cancel: bool = False) -> None:
        """Release the backend; with ``cancel``, drop queued chunks without waiting."""
        self.executor.shutdown(wait=not cancel, cancel_futures=cancel)
        encoder = getattr(self, "encoder", None)
        if encoder is not None:
            encoder.shutdown(wait=not cancel, cancel_futures=cancel)


def _pipelined(played: Future, encoder: Executor, job: ChunkJob) -> Future:
    """The future of a chunk ``played`` on the worker whose games file the ``encoder``
    then writes into ``job.spool`` (the chunk's result as :func:`play_chunk` gives it with
    that folder). Cancelling it before its file is begun drops the chunk; once begun, the
    file is written and the result delivered (the driver drops what it does not collect)."""
    # lazy: start-up time (pyarrow; as in Backend.submit)
    from sim.batch.chunks import spool_result

    done: Future = Future()

    def encode(result: Any) -> None:
        if not done.set_running_or_notify_cancel():
            return
        try:
            done.set_result(spool_result(result, job))
        except BaseException as exc:  # noqa: BLE001 - delivered through the future
            done.set_exception(exc)

    def hand_on(fut: Future) -> None:
        if fut.cancelled():
            done.cancel()
        elif fut.exception() is not None:
            if done.set_running_or_notify_cancel():
                done.set_exception(fut.exception())
        elif not done.cancelled():
            try:
                encoder.submit(encode, fut.result())
            except RuntimeError:  # the backend is closed: the chunk is not collected
                done.cancel()

    done.add_done_callback(lambda d: d.cancelled() and played.cancel())
    played.add_done_callback(hand_on)
    return done


class PoolBackend(Backend):
    """A local process pool of ``workers`` processes (spawned, so no fork-with-threads);
    each worker dies with the driver (:mod:`sim.batch.lifeline`)."""

    name = "pool"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.slots = workers * 2
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=follow_parent,
            initargs=(os.getpid(),),
        )

    def lost_worker(self, exc: BaseException) -> bool:
        return isinstance(exc, BrokenProcessPool)

    def recover(self, generation: int) -> None:
        if generation == self.generation:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new()
            self.generation += 1


class DaskBackend(Backend):
    """An existing Dask cluster; Dask itself recomputes chunks of a worker that died. Its
    workers may run on other machines: they return their games to the driver, which
    writes them."""

    name = "dask"
    spools = False

    def __init__(self, address: str, timeout: float = 5.0) -> None:
        if not SCHEDULER_RE.match(address):
            raise DsqError(f"bad scheduler address {address!r} (expected tcp://HOST:PORT)")
        try:
            # lazy: optional dependency (the dask extra)
            from distributed import Client
        except ImportError:
            raise DsqError(
                "--scheduler needs dask and distributed: pip install -e '.[dask]'"
            ) from None
        try:
            self.client = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ...
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise DsqError(f"cannot connect to Dask scheduler {address}: {msg}") from None
        try:  # close the workers' engine processes when they end (see sim.external.pool)
            # lazy: optional dependency (the dask extra)
            from sim.external.dask_plugin import CloseEngines

            self.client.register_plugin(CloseEngines())
        except Exception:  # noqa: BLE001 - atexit and end of input close them anyway
            pass
        nthreads = sum(self.client.nthreads().values())
        self.slots = max(2, 2 * nthreads)
        self.executor = self.client.get_executor(pure=False)

    def lost_worker(self, exc: BaseException) -> bool:
        try:
            # lazy: optional dependency (the dask extra)
            from distributed.scheduler import KilledWorker
        except ImportError:  # pragma: no cover
            return False
        return isinstance(exc, KilledWorker)

    def close(self, cancel: bool = False) -> None:
        try:
            self.executor.shutdown(wait=False)
        finally:
            self.client.close()


def max_workers() -> int:
    """The most local worker processes a batch may ask for: 4 per CPU, at least 8 (each
    worker holds its own compiled engine, about 200 MB)."""
    return min(1024, max(8, 4 * (os.cpu_count() or 1)))


def make_backend(workers: int = 1, scheduler: str | None = None) -> Backend:
    """The backend for ``--workers`` / ``--scheduler`` (``DsqError`` on bad values)."""
    if scheduler:
        return DaskBackend(scheduler)
    if not isinstance(workers, int) or not 1 <= workers <= max_workers():
        raise DsqError(f"--workers must be between 1 and {max_workers()}, got {workers}")
    if workers == 1:
        return Backend()
    return PoolBackend(workers)
