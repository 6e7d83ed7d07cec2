"""The one way to run batches: :func:`run_batches`, used by ``dsq simulate``, the dashboard
(through a detached ``dsq simulate``), the tests and scripts.

Python API::

    from sim.batch import launch_detached, make_spec, run_batches, spawn_detached

    spec = make_spec("standard", "random", "greedy", games=1000, seed=1, swap=True)
    [record] = run_batches([spec], "data", workers=2)  # blocks; returns the final records
    specs = [make_spec(r, "greedy", "random", 400, seed=7) for r in ("standard", "yeshou")]
    records = run_batches(specs, "data", batch_id="cmp", sprt="elo0=0,elo1=50")  # cmp-1, cmp-2
    [record] = run_batches(data_dir="data", resume=record["batch_id"])  # the missing games
    pid = launch_detached([spec], "data", batch_id="d2", launch_file="d2.launch")  # as data

:func:`run_batches` owns everything around the driver: the backend (created and closed),
the data folder, the batch records, the stop check each batch's record asks for, and the
batches still queued when one fails or is cancelled (marked ``cancelled``) or interrupted
(marked ``interrupted``), with ``error = "not started"``. Scripts using ``workers > 1``
must guard the call with ``if __name__ == "__main__":`` (worker processes are spawned).

Ctrl-C (``KeyboardInterrupt``) is handled here: the running batch records what was played
and says ``interrupted``, the rest are not started, the backend is closed without waiting,
and the interrupt propagates. SIGTERM is not: ``dsq simulate`` turns it into a
``KeyboardInterrupt`` while it runs; other callers install such a handler if they want one.
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.batch.backends import Backend, make_backend
from sim.batch.chunks import engine_version
from sim.batch.driver import BatchDriver, BatchFailed
from sim.batch.progress import BatchProgress
from sim.batch.spec import BatchSpec, RunOptions, make_spec
from sim.core.tally import StopCheck, Tally
from sim.storage.batchrecord import BatchRecord
from sim.storage.locks import LOCK_NAME, BatchBusy, BatchLock
from sim.storage.paths import (
    batch_ids,
    batch_path,
    check_batch_id,
    games_dir,
    new_batch_id,
    resolve_data_dir,
)
from sim.storage.records import (
    create_batch_record,
    hostname,
    now_iso,
    read_batch_record,
    read_spec_for_resume,
    write_batch_record,
)
from sim.storage.repeats import set_aside
from sim.storage.schema import SCHEMA_VERSION


def run_batches(
    specs: Sequence[BatchSpec] = (),
    data_dir: str | os.PathLike[str] | None = None,
    *,
    resume: str | Sequence[str] | None = None,
    label: str | None = None,
    batch_id: str | None = None,
    sprt: str | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    options: RunOptions | None = None,
    progress: BatchProgress | None = None,
    stop_check: StopCheck | None = None,
    ids: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Create a batch per spec and play them in turn, or resume one batch; return the final
    records of the batches played, in order, each with ``seconds`` (its wall time, not
    stored).

    New batches (``specs``, usually one match under several rule sets with the same seed)
    share the group id ``batch_id`` (default: a fresh id); with one spec the batch id is
    the group id, with several ``ID-1``, ``ID-2``, ... ``label`` and the canonical
    ``sprt`` spec are stored in each record; ``ids`` (one per spec) names the batches
    instead of ``ID-1``, ``ID-2``, ... and ``labels`` (one per spec) label each batch in
    place of ``label`` (a study's cells). ``resume`` names an existing batch instead
    (or several, played in turn on the same workers): exactly its missing games are
    played, with the options it was created with.

    Each batch stops early when its check says so: ``stop_check`` if given (used for every
    batch), else the SPRT its record's ``sprt`` asks for (see :func:`build_stop_check`).
    After a cancelled batch the ones still queued are not started.

    Every batch is owned by this process while it plays (:class:`BatchLock`, taken before
    anything recorded is read; a batch to resume that another process owns is refused).

    Raises ``DsqError`` before anything is written for bad arguments (unknown batch to
    resume, one owned by another process, a taken batch id, a bad ``sprt`` spec or label, a
    missing or mismatched evaluation, a bad backend, an unwritable data folder);
    :class:`BatchFailed` when a batch fails, with ``records`` (the failed one last);
    ``KeyboardInterrupt`` after recording what was played.
    """
    if sprt is not None and stop_check is not None:
        raise ValueError("give sprt (stored with the batches) or stop_check, not both")
    if label is not None:
        label = check_label(label)
    if labels is not None:
        if label is not None or len(labels) != len(specs):
            raise ValueError("give one label per spec, or label")
        labels = [check_label(x) for x in labels]
    if resume is not None:
        if (
            specs
            or label is not None
            or labels is not None
            or batch_id is not None
            or sprt is not None
        ):
            raise DsqError("resume replays a recorded batch: give no specs, label, id or sprt")
        group, ids = None, [resume] if isinstance(resume, str) else list(resume)
        for bid in ids:
            check_batch_id(bid)
            read_spec_for_resume(resolve_data_dir(data_dir), bid)  # before any worker starts
    else:
        if not specs:
            raise DsqError("no batch to run: give at least one spec, or a batch to resume")
        sprt = canonical_sprt(sprt)
        group = check_batch_id(batch_id) if batch_id is not None else new_batch_id()
        if ids is None:
            ids = batch_ids(group, len(specs))
        elif len(ids) != len(specs):
            raise ValueError("give one batch id per spec")
        ids = [check_batch_id(bid) for bid in ids]
        for bid in ids:
            check_new_batch(resolve_data_dir(data_dir), bid)
        from sim.bots.pinning import check_evaluations  # lazy: start-up time (numpy)

        for spec in specs:  # an evaluation named that is missing or fits other rules
            check_evaluations((spec.red, spec.blue), spec.rules, resolve_data_dir(data_dir))

    backend = make_backend(workers, scheduler)
    interrupted = False
    created: list[str] = []
    locks: dict[str, BatchLock] = {}
    d: Path | None = None
    try:
        d = prepare_data_dir(data_dir)
        if group is None:
            # Own the batch before reading anything it holds: a second driver stops here.
            for bid in ids:
                locks[bid] = BatchLock(d, bid).acquire()
                check_resumable(d, bid)
        else:
            for i, (bid, spec) in enumerate(zip(ids, specs, strict=True)):
                # Locked before its record exists: no reader ever sees it unowned.
                try:
                    locks[bid] = BatchLock(d, bid).acquire(wait=0)
                except BatchBusy:
                    raise DsqError(f"batch {bid!r} already exists in {d}") from None
                own = label if labels is None else labels[i]
                create_batch(d, spec, label=own, group=group, batch_id=bid, sprt=sprt)
                created.append(bid)
        return _play_all(d, ids, backend, options, progress, stop_check, locks)
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        try:
            if d is not None:
                cancel_queued(d, created, "interrupted" if interrupted else "cancelled")
        finally:
            for lock in locks.values():
                lock.release()
            backend.close(cancel=interrupted)


def _play_all(
    data_dir: Path,
    ids: list[str],
    backend: Backend,
    options: RunOptions | None,
    progress: BatchProgress | None,
    stop_check: StopCheck | None,
    locks: dict[str, BatchLock],
) -> list[dict[str, Any]]:
    """Play the batches ``ids`` in turn until one ends other than ``done``; each batch's
    lock is released as soon as its final record is written."""
    records: list[dict[str, Any]] = []
    for bid in ids:
        start = time.monotonic()
        check = stop_check or build_stop_check(read_batch_record(data_dir, bid).get("sprt"))
        try:
            rec = BatchDriver(data_dir, bid, backend, options, progress, check).run()
        except BatchFailed as exc:
            rec = _final_record(data_dir, bid, exc)
            records.append(dict(rec, seconds=round(time.monotonic() - start, 3)))
            exc.records = records
            raise
        finally:
            locks.pop(bid).release()
        records.append(dict(rec, seconds=round(time.monotonic() - start, 3)))
        if rec["status"] != "done":
            break
    return records


def _final_record(data_dir: Path, batch_id: str, exc: BatchFailed) -> dict[str, Any]:
    """The record of a batch that failed, as written; the driver's copy when the disk
    refused to take it."""
    try:
        return read_batch_record(data_dir, batch_id)
    except DsqError:
        return exc.record or {"batch_id": batch_id, "status": "failed", "error": str(exc)}


def run_batch(
    spec: BatchSpec,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    label: str | None = None,
    batch_id: str | None = None,
    sprt: str | None = None,
    progress: BatchProgress | None = None,
    stop_check: StopCheck | None = None,
    options: RunOptions | None = None,
) -> dict[str, Any]:
    """:func:`run_batches` for one spec: create the batch, play it, return its record."""
    return run_batches(
        [spec], data_dir, label=label, batch_id=batch_id, sprt=sprt, workers=workers,
        scheduler=scheduler, options=options, progress=progress, stop_check=stop_check,
    )[0]  # fmt: skip


def resume_batch(
    batch_id: str,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: BatchProgress | None = None,
    stop_check: StopCheck | None = None,
    options: RunOptions | None = None,
) -> dict[str, Any]:
    """:func:`run_batches` with ``resume``: play exactly the missing games of a batch."""
    return run_batches(
        data_dir=data_dir, resume=batch_id, workers=workers, scheduler=scheduler,
        options=options, progress=progress, stop_check=stop_check,
    )[0]  # fmt: skip


# -- the steps around the driver ---------------------------------------------------------


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


def check_new_batch(data_dir: Path, batch_id: str) -> None:
    """``DsqError`` if ``batch_id`` already has a record or games in ``data_dir`` (a games
    folder holding nothing but the batch's lock file does not count)."""
    folder = games_dir(data_dir, batch_id)
    used = folder.is_dir() and any(p.name != LOCK_NAME for p in folder.iterdir())
    if batch_path(data_dir, batch_id).exists() or used or folder.is_file():
        raise DsqError(f"batch {batch_id!r} already exists in {data_dir}")


MAX_LABEL = 200


def check_label(label: str) -> str:
    """``label`` if it is printable text of at most 200 characters (a label is shown on
    one line everywhere), else ``DsqError``."""
    if not isinstance(label, str):
        raise DsqError("a label must be text")
    if len(label) > MAX_LABEL:
        raise DsqError(f"the label is {len(label)} characters long; at most {MAX_LABEL}")
    if not label.isprintable():
        raise DsqError(f"the label {label!r} holds a control character (newline, tab, ...)")
    return label


def create_batch(
    data_dir: Path,
    spec: BatchSpec,
    label: str | None = None,
    group: str | None = None,
    batch_id: str | None = None,
    sprt: str | None = None,
) -> dict[str, Any]:
    """Write the record of a new batch (status ``queued``) and return it.

    Atomic: of several processes creating the same id at once, exactly one succeeds; the
    others get ``DsqError`` and write nothing. ``sprt`` is the canonical ``--sprt`` spec of
    a sequential test that may stop the batch early; it is stored so a resumed batch keeps
    testing.
    """
    batch_id = check_batch_id(batch_id or new_batch_id())
    check_new_batch(data_dir, batch_id)
    record = BatchRecord(
        batch_id=batch_id,
        spec=spec,
        group=group or batch_id,
        label=check_label(label) if label is not None else None,
        counts=Tally(spec.swap).record_counts(),
        created_at=now_iso(),
        host=hostname(),
        pid=os.getpid(),
        engine_version=engine_version(),
        schema_version=SCHEMA_VERSION,
        sprt=sprt,
    ).to_dict()
    if not create_batch_record(data_dir, record):
        raise DsqError(f"batch {batch_id!r} already exists in {data_dir}")
    return record


def check_resumable(data_dir: Path, batch_id: str) -> dict[str, Any]:
    """The record of ``batch_id`` to resume from; ``DsqError`` if there is none, if its spec
    is unusable, or if another live process owns the batch.

    Whoever holds the batch's lock owns it: a record saying ``running`` whose lock is free
    (its driver died, on this host or another) is resumable. A record that does not follow
    the schema is rebuilt from its spec (see
    :func:`sim.storage.records.read_spec_for_resume`) and written back.
    """
    with BatchLock(data_dir, batch_id):
        rec = read_spec_for_resume(data_dir, batch_id)
        try:
            make_spec(**BatchSpec.from_dict(rec["spec"]).to_dict())
        except DsqError as exc:
            raise DsqError(
                f"batch {batch_id} cannot be resumed: its spec is unusable: {exc}"
            ) from None
        if "repaired" in rec:
            write_batch_record(data_dir, rec)
        for note in set_aside(data_dir, batch_id):  # files that repeat games, links, ...
            print(f"dsq simulate: {note}", file=sys.stderr)
    return rec


def canonical_sprt(sprt: str | None) -> str | None:
    """The canonical form of an ``--sprt`` spec, or None (``DsqError`` if invalid)."""
    if sprt is None:
        return None
    # lazy: start-up time (scipy)
    from sim.stats.sprt import parse_sprt

    return parse_sprt(sprt).spec


def build_stop_check(sprt: str | None) -> StopCheck | None:
    """The early-stopping check of a batch whose record says ``sprt``, or None.

    A fresh :func:`sim.stats.sprt.make_stop_check` is built for each batch, also when it is
    resumed; the driver calls it with :meth:`sim.core.tally.Tally.counts` and stores its
    last result in the record as ``stop_check``.
    """
    if not sprt:
        return None
    # lazy: start-up time (scipy)
    from sim.stats.sprt import make_stop_check

    return make_stop_check(sprt)


def cancel_queued(data_dir: Path, ids: Sequence[str], status: str = "cancelled") -> None:
    """Mark those of ``ids`` still ``queued`` with ``status`` (``cancelled``, or
    ``interrupted`` after Ctrl-C) and ``error = "not started"``."""
    for bid in ids:
        try:
            rec = read_batch_record(data_dir, bid)
        except DsqError:
            continue
        if rec.get("status") == "queued":
            rec.update(status=status, finished_at=now_iso(), error="not started")
            write_batch_record(data_dir, rec)
