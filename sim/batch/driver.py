"""The batch driver: expand a spec into games, run them on a backend, record them safely.

Python API::

    spec = make_spec("jungle", "random", "greedy", games=1000, seed=1, swap=True)
    record = run_batch(spec, data_dir="data", workers=2)      # blocks; returns the record
    record = resume_batch(record["batch_id"], data_dir="data")  # plays the missing games
    pid = spawn_detached(["--rules", "jungle", ...])            # `dsq simulate` detached

Only the driver writes. It keeps every recorded game index of the batch, drops any result
it already has (a chunk recomputed by Dask, a resumed batch), buffers results and writes a
parquet file when the buffer holds ``flush_games`` games or ``flush_seconds`` have passed.
"""

from __future__ import annotations

import math
import os
import secrets
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from engine.errors import DsqError
from sim.batch.backends import Backend, make_backend
from sim.batch.chunks import DEFAULT_PLAY_FN, ChunkJob, ChunkResult, engine_version
from sim.batch.progress import Progress
from sim.play.seeds import MAX_SEED, new_batch_seed
from sim.storage.paths import batch_path, games_dir, resolve_data_dir
from sim.storage.records import (
    cancel_requested,
    clear_cancel,
    effective_status,
    hostname,
    now_iso,
    read_batch_record,
    recorded_games,
    write_batch_record,
)
from sim.storage.schema import SCHEMA_VERSION
from sim.storage.writing import remove_stale_temp_files, write_games_chunk

StopCheck = Callable[[dict[str, int]], bool]
MAX_GAMES = 2**31 - 1
MAX_LOST_WORKERS = 20


class BatchFailed(Exception):
    """A batch stopped because a game raised an error (the record says ``failed``)."""


@dataclass(frozen=True)
class BatchSpec:
    """What a batch plays: canonical rules and bot specs, games, seed and options."""

    rules: str
    red: str
    blue: str
    games: int
    seed: int
    swap: bool = False
    opening_plies: int = 0
    ply_cap: int = 1000

    def to_dict(self) -> dict[str, Any]:
        """The spec as stored in the batch record."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BatchSpec:
        """The spec of a batch record."""
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class RunOptions:
    """How a batch runs (nothing here changes the recorded games)."""

    chunk_games: int = 1000
    chunk_seconds: float = 1.0
    flush_games: int = 20_000
    flush_seconds: float = 10.0
    play_fn: str = DEFAULT_PLAY_FN


def canonical_rules(spec: str) -> str:
    """The canonical form of a rules spec (``DsqError`` if unknown)."""
    from engine import parse_rules

    return parse_rules(spec.strip()).spec


def canonical_bot(spec: str) -> str:
    """The canonical form of a bot spec (``DsqError`` if invalid)."""
    from sim.bots import parse_bot

    return parse_bot(spec.strip()).canonical


def make_spec(
    rules: str,
    red: str,
    blue: str,
    games: int,
    seed: int | None = None,
    swap: bool = False,
    opening_plies: int = 0,
    ply_cap: int = 1000,
) -> BatchSpec:
    """A validated :class:`BatchSpec` with canonical specs; ``DsqError`` on any bad value."""
    if not isinstance(games, int) or games <= 0:
        raise DsqError(f"--games must be a positive integer, got {games}")
    if games > MAX_GAMES:
        raise DsqError(f"--games must be at most {MAX_GAMES}, got {games}")
    if swap and games % 2:
        raise DsqError(f"--swap plays games in pairs: --games must be even, got {games}")
    if seed is None:
        seed = new_batch_seed()
    if not 0 <= seed <= MAX_SEED:
        raise DsqError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if not 0 <= opening_plies <= 200:
        raise DsqError(f"--opening-plies must be between 0 and 200, got {opening_plies}")
    if not 1 <= ply_cap <= 65535:
        raise DsqError(f"--ply-cap must be between 1 and 65535, got {ply_cap}")
    if opening_plies >= ply_cap:
        raise DsqError(f"--opening-plies ({opening_plies}) must be below --ply-cap ({ply_cap})")
    return BatchSpec(
        rules=canonical_rules(rules),
        red=canonical_bot(red),
        blue=canonical_bot(blue),
        games=games,
        seed=seed,
        swap=swap,
        opening_plies=opening_plies,
        ply_cap=ply_cap,
    )


def new_batch_id() -> str:
    """A fresh batch id: UTC time and 6 random hex digits, e.g. ``20260101-120000-a1b2c3``."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def prepare_data_dir(data_dir: str | os.PathLike[str] | None) -> Path:
    """Resolve the data folder, create it and check it is writable (``DsqError`` if not)."""
    d = resolve_data_dir(data_dir)
    try:
        for sub in ("games", "batches"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        probe = d / "batches" / f".write-probe-{os.getpid()}-{secrets.token_hex(3)}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise DsqError(f"data folder {d} is not writable: {exc.strerror or exc}") from None
    return d


def create_batch(
    data_dir: Path,
    spec: BatchSpec,
    label: str | None = None,
    group: str | None = None,
    batch_id: str | None = None,
    sprt: str | None = None,
) -> dict[str, Any]:
    """Write the record of a new batch (status ``queued``) and return it.

    ``sprt`` is the canonical ``--sprt`` spec of a sequential test that may stop the batch
    early; it is stored so a resumed batch keeps testing.
    """
    batch_id = batch_id or new_batch_id()
    if batch_path(data_dir, batch_id).exists() or games_dir(data_dir, batch_id).exists():
        raise DsqError(f"batch {batch_id!r} already exists in {data_dir}")
    record: dict[str, Any] = {
        "batch_id": batch_id,
        "group": group or batch_id,
        "label": label,
        "spec": spec.to_dict(),
        "status": "queued",
        "games_planned": spec.games,
        "games_done": 0,
        "counts": {"red": 0, "blue": 0, "draw": 0},
        "created_at": now_iso(),
        "started_at": None,
        "finished_at": None,
        "host": hostname(),
        "pid": os.getpid(),
        "engine_version": engine_version(),
        "schema_version": SCHEMA_VERSION,
        "error": None,
        "sprt": sprt,
    }
    write_batch_record(data_dir, record)
    return record


class _Tally:
    """Running counts of a batch's games, by colour and by bot (``a`` = the ``--red`` bot).

    :meth:`counts` gives ``games``, ``red``, ``blue``, ``draw``, ``a_wins``, ``b_wins``,
    and from bot a's side ``wins``, ``draws``, ``losses``; with colour swapping also
    ``pentanomial`` = ``[LL, LD, DD+WL, WD, WW]`` over the pairs with both games played.
    """

    def __init__(self, swap: bool) -> None:
        self.swap = swap
        self.c = {"games": 0, "red": 0, "blue": 0, "draw": 0, "a_wins": 0, "b_wins": 0}
        self.penta = [0, 0, 0, 0, 0]
        self.half_pairs: dict[int, int] = {}  # pair -> bot a's points (x2) in the first game

    def add(self, game_index: int, winner: str) -> None:
        self.c["games"] += 1
        if winner in ("red", "blue", "draw"):
            self.c[winner] += 1
        a_is_red = not (self.swap and game_index % 2 == 1)
        a_points = 1
        if winner in ("red", "blue"):
            a_won = (winner == "red") == a_is_red
            self.c["a_wins" if a_won else "b_wins"] += 1
            a_points = 2 if a_won else 0
        if self.swap:
            pair = game_index // 2
            if pair in self.half_pairs:
                self.penta[self.half_pairs.pop(pair) + a_points] += 1
            else:
                self.half_pairs[pair] = a_points

    def colours(self) -> dict[str, int]:
        return {k: self.c[k] for k in ("red", "blue", "draw")}

    def counts(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.c)
        out.update(wins=self.c["a_wins"], draws=self.c["draw"], losses=self.c["b_wins"])
        if self.swap:
            out["pentanomial"] = list(self.penta)
        return out


def execute_batch(
    data_dir: Path,
    batch_id: str,
    backend: Backend,
    options: RunOptions | None = None,
    progress: Progress | None = None,
    stop_check: StopCheck | None = None,
) -> dict[str, Any]:
    """Play every game of the batch not yet recorded, on ``backend``; return the final record.

    ``stop_check(counts)`` is called between chunks with ``games``, ``red``, ``blue``,
    ``draw``, ``a_wins``, ``b_wins``, and ``wins``/``draws``/``losses`` of bot ``a`` (the
    ``--red`` bot, whatever its colour in a game), plus ``pentanomial`` with ``swap`` (see
    :class:`_Tally`); when it returns true the batch stops early with status ``done`` and
    ``stopped_early = true``. A cancel request (:func:`sim.storage.records.request_cancel`)
    stops it with status ``cancelled``. ``KeyboardInterrupt`` records what was played,
    sets ``cancelled`` and propagates; a failing game sets ``failed`` and raises
    :class:`BatchFailed`.
    """
    opts = options or RunOptions()
    rec = read_batch_record(data_dir, batch_id)
    spec = BatchSpec.from_dict(rec["spec"])
    clear_cancel(data_dir, batch_id)
    remove_stale_temp_files(games_dir(data_dir, batch_id))
    remove_stale_temp_files(batch_path(data_dir, batch_id).parent)
    done_games = recorded_games(data_dir, batch_id)
    tally = _Tally(spec.swap)
    for gi, w in done_games.items():
        tally.add(gi, w)
    recorded = set(done_games)
    missing = deque(i for i in range(spec.games) if i not in recorded)
    rec.update(
        status="running",
        pid=os.getpid(),
        host=hostname(),
        started_at=rec.get("started_at") or now_iso(),
        finished_at=None,
        games_done=len(recorded),
        counts=tally.colours(),
        error=None,
    )
    rec.pop("stopped_early", None)
    write_batch_record(data_dir, rec)
    if progress:
        progress.start(f"{batch_id} {spec.rules}", spec.games, len(recorded), tally.colours())

    size = max(1, min(opts.chunk_games, math.ceil(len(missing) / (backend.slots * 4) or 1)))
    retry: deque[tuple[int, ...]] = deque()
    inflight: dict[Future, tuple[ChunkJob, int]] = {}
    buffer: list[pa.Table] = []
    buffered: set[int] = set()
    disk_colours = tally.colours()
    pending_winners: list[tuple[int, str]] = []
    last_flush = time.monotonic()
    lost = 0

    # Files are written on a background thread (pyarrow releases the GIL while it encodes
    # and compresses), so the loop keeps feeding the workers during a write. A game counts
    # as recorded, in memory and in the batch record, only once its file is in place.
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dsq-writer")
    writing: deque[tuple[Future, list[int], list[tuple[int, str]]]] = deque()
    in_writing: set[int] = set()

    def settle_writes(block: bool) -> None:
        while writing and (block or writing[0][0].done()):
            fut, idx, winners = writing.popleft()
            in_writing.difference_update(idx)
            fut.result()  # a failed write raises here
            recorded.update(idx)
            for _gi, w in winners:
                disk_colours[w] = disk_colours.get(w, 0) + 1
            rec.update(games_done=len(recorded), counts=dict(disk_colours))
            write_batch_record(data_dir, rec)

    def flush(wait: bool = True) -> None:
        """Hand the buffered games to the writer; with ``wait``, until all are on disk."""
        nonlocal last_flush
        last_flush = time.monotonic()
        if buffer:
            # Each chunk holds ascending game indices, and chunks are disjoint runs of
            # them: ordering the chunks by their first index orders the rows without a sort.
            buffer.sort(key=lambda t: t.column("game_index")[0].as_py())
            table = pa.concat_tables(buffer)
            fut = writer.submit(write_games_chunk, data_dir, batch_id, table)
            writing.append((fut, sorted(buffered), list(pending_winners)))
            in_writing.update(buffered)
            buffer.clear()
            buffered.clear()
            pending_winners.clear()
        settle_writes(block=wait or len(writing) > 2)

    def next_job() -> ChunkJob | None:
        if retry:
            idx = retry.popleft()
        elif missing:
            idx = tuple(missing.popleft() for _ in range(min(size, len(missing))))
        else:
            return None
        return ChunkJob(
            batch_id=batch_id,
            rules=spec.rules,
            bot_a=spec.red,
            bot_b=spec.blue,
            batch_seed=spec.seed,
            swap=spec.swap,
            opening_plies=spec.opening_plies,
            ply_cap=spec.ply_cap,
            indices=idx,
            max_seconds=opts.chunk_seconds,
            play_fn=opts.play_fn,
        )

    def accept(res: ChunkResult) -> None:
        t = res.table
        idx = t.column("game_index").to_pylist()
        keep = [i not in recorded and i not in buffered and i not in in_writing for i in idx]
        if not all(keep):
            t = t.filter(pa.array(keep))
            idx = [i for i, k in zip(idx, keep, strict=True) if k]
        if t.num_rows:
            buffer.append(t)
            buffered.update(idx)
            for gi, w in zip(idx, t.column("winner").to_pylist(), strict=True):
                tally.add(gi, w)
                pending_winners.append((gi, w))
        rest = res.job.indices[len(res.played) :]
        if rest:
            retry.appendleft(rest)

    status = "done"
    try:
        while True:
            while len(inflight) < backend.slots:
                job = next_job()
                if job is None:
                    break
                inflight[backend.submit(job)] = (job, backend.generation)
            if not inflight:
                break
            finished, _ = wait(list(inflight), timeout=0.5, return_when=FIRST_COMPLETED)
            for fut in finished:
                job, gen = inflight.pop(fut)
                exc = fut.exception()
                if exc is None:
                    accept(fut.result())
                elif backend.lost_worker(exc):
                    lost += 1
                    if lost > MAX_LOST_WORKERS:
                        raise BatchFailed(
                            f"worker processes died {lost} times ({exc}); a script calling "
                            "run_batch with workers > 1 must guard it with "
                            "if __name__ == '__main__'"
                        )
                    backend.recover(gen)
                    retry.appendleft(job.indices)
                else:
                    raise BatchFailed(f"{type(exc).__name__}: {exc}") from exc
            if finished and progress:
                progress.update(len(recorded) + len(in_writing) + len(buffered), tally.colours())
            if len(buffered) >= opts.flush_games or (
                buffer and time.monotonic() - last_flush >= opts.flush_seconds
            ):
                flush(wait=False)
            settle_writes(block=False)
            if cancel_requested(data_dir, batch_id):
                status = "cancelled"
                break
            if finished and stop_check is not None and stop_check(tally.counts()):
                rec["stopped_early"] = True
                break
        flush()
    except KeyboardInterrupt:
        _finish(data_dir, rec, flush, "cancelled", None, inflight)
        if progress:
            progress.finish(rec)
        raise
    except BaseException as exc:
        if _interrupted(exc):
            _finish(data_dir, rec, flush, "cancelled", None, inflight)
            if progress:
                progress.finish(rec)
            raise KeyboardInterrupt from exc
        msg = str(exc) if isinstance(exc, BatchFailed) else f"{type(exc).__name__}: {exc}"
        _finish(data_dir, rec, flush, "failed", msg, inflight)
        if progress:
            progress.finish(rec)
        if isinstance(exc, BatchFailed):
            raise
        raise BatchFailed(msg) from exc
    finally:
        writer.shutdown(wait=True)
    for fut in inflight:
        fut.cancel()
    if status == "done" and len(recorded) < spec.games and not rec.get("stopped_early"):
        status = "failed"
        rec["error"] = f"only {len(recorded)} of {spec.games} games recorded"
    last = getattr(stop_check, "last", None)
    if last is not None and hasattr(last, "to_dict"):
        rec["stop_check"] = last.to_dict()
    rec.update(status=status, finished_at=now_iso())
    write_batch_record(data_dir, rec)
    clear_cancel(data_dir, batch_id)
    if progress:
        progress.finish(rec)
    return rec


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C or SIGTERM that struck inside compiled code.

    A KeyboardInterrupt raised by a signal handler while a numba kernel returns surfaces as
    ``SystemError: ... returned a result with an exception set``, caused by the interrupt.
    """
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _finish(
    data_dir: Path,
    rec: dict[str, Any],
    flush: Callable[[], None],
    status: str,
    error: str | None,
    inflight: dict[Future, Any],
) -> None:
    for fut in inflight:
        fut.cancel()
    try:
        flush()
    finally:
        rec.update(status=status, error=error, finished_at=now_iso())
        write_batch_record(data_dir, rec)


def run_batch(
    spec: BatchSpec,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    label: str | None = None,
    batch_id: str | None = None,
    progress: Progress | None = None,
    stop_check: StopCheck | None = None,
    options: RunOptions | None = None,
) -> dict[str, Any]:
    """Create a batch for ``spec`` (see :func:`make_spec`) and play it; return its record."""
    backend = make_backend(workers, scheduler)
    cancelled = False
    try:
        d = prepare_data_dir(data_dir)
        rec = create_batch(d, spec, label=label, batch_id=batch_id)
        return execute_batch(d, rec["batch_id"], backend, options, progress, stop_check)
    except KeyboardInterrupt:
        cancelled = True
        raise
    finally:
        backend.close(cancel=cancelled)


def resume_batch(
    batch_id: str,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    stop_check: StopCheck | None = None,
    options: RunOptions | None = None,
) -> dict[str, Any]:
    """Play exactly the missing games of an existing batch; return its record.

    ``DsqError`` if the batch does not exist or its driver is still running.
    """
    d = resolve_data_dir(data_dir)
    check_resumable(d, batch_id)
    backend = make_backend(workers, scheduler)
    cancelled = False
    try:
        d = prepare_data_dir(d)
        return execute_batch(d, batch_id, backend, options, progress, stop_check)
    except KeyboardInterrupt:
        cancelled = True
        raise
    finally:
        backend.close(cancel=cancelled)


def check_resumable(data_dir: Path, batch_id: str) -> dict[str, Any]:
    """The record of ``batch_id`` if it can be resumed, else ``DsqError``."""
    rec = read_batch_record(data_dir, batch_id)
    status = effective_status(rec)
    if status in ("running", "queued") and rec.get("pid") != os.getpid():
        where = f"pid {rec.get('pid')} on {rec.get('host')}"
        raise DsqError(f"batch {batch_id} is still {status} ({where})")
    return rec


def spawn_detached(
    argv: list[str], log_path: str | os.PathLike[str] | None = None, cwd: str | None = None
) -> int:
    """Start ``dsq simulate ARGV...`` as a detached process (own session, no stdin); return
    its pid. Output goes to ``log_path`` (or is discarded). The batch writes its status to
    its record; pass ``--batch-id`` to know where to look."""
    from sim.storage.paths import project_root

    cmd = [sys.executable, "-m", "sim.cli", "simulate", *argv]
    env = dict(os.environ)
    root = str(project_root())
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT if log_path else subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd=cwd or root,
            env=env,
        )
    finally:
        if log_path:
            out.close()  # type: ignore[union-attr]
    return proc.pid


__all__ = [
    "BatchFailed",
    "BatchSpec",
    "RunOptions",
    "check_resumable",
    "create_batch",
    "execute_batch",
    "make_spec",
    "new_batch_id",
    "prepare_data_dir",
    "resume_batch",
    "run_batch",
    "spawn_detached",
]
