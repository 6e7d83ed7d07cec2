"""Batch records (``DIR/batches/<batch_id>.json``), cancel requests, and what a batch holds.

A record is the JSON object of a :class:`~sim.storage.batchrecord.BatchRecord` (its
``spec`` the fields of :class:`~sim.core.batchspec.BatchSpec`), e.g. ``batch_id``,
``group``, ``label``, ``spec``, ``status``, ``games_planned``, ``games_done``, ``counts``
(``red``, ``blue``, ``draw``, and by bot), the times and the host and pid of its driver.

``status`` is one of :data:`STATUSES`: ``cancelled`` after a cancel request or the time
limit, ``interrupted`` after Ctrl-C or SIGTERM. Every read checks the record against its schema
(:mod:`sim.storage.recordcheck`) and counts the files it announced as being committed that
are in place (:mod:`sim.storage.committing`). A record that says ``running`` or ``queued`` while no
process holds its batch's lock (:mod:`sim.storage.locks`) is reported as ``interrupted``
by :func:`effective_status`.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from engine.errors import DsqError
from sim.core.batchspec import BatchSpec
from sim.storage.atomic import atomic_write_json, create_json_exclusive
from sim.storage.batchrecord import BatchRecord
from sim.storage.committing import resolve_committing
from sim.storage.importing import pending_batches
from sim.storage.locks import batch_locked
from sim.storage.paths import (
    GAMES_DIR,
    batch_path,
    batches_dir,
    cancel_path,
    games_dir,
    read_bounded,
)
from sim.storage.reading import load_batch_records
from sim.storage.recordcheck import STATUSES, RecordError, check_record, check_spec
from sim.storage.verify import verify_files
from sim.storage.writing import pid_alive

__all__ = [
    "STATUSES",
    "cancel_requested",
    "clear_cancel",
    "create_batch_record",
    "effective_status",
    "list_batches",
    "read_batch_record",
    "read_record",
    "read_spec_for_resume",
    "recorded_games",
    "request_cancel",
    "unlisted_batches",
    "write_batch_record",
]


def now_iso() -> str:
    """The current UTC time as an ISO-8601 string with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def hostname() -> str:
    """This machine's host name."""
    return socket.gethostname()


def write_batch_record(data_dir: Path, record: dict[str, Any]) -> None:
    """Write (create or replace) a batch record atomically; sets ``updated_at``."""
    record["updated_at"] = now_iso()
    bdir = batches_dir(Path(data_dir))
    bdir.mkdir(parents=True, exist_ok=True)
    atomic_write_json(batch_path(Path(data_dir), record["batch_id"]), record)


def create_batch_record(data_dir: Path, record: dict[str, Any]) -> bool:
    """Write the record of a new batch only if its id is free; return whether it was.

    Atomic among processes (see :func:`sim.storage.atomic.create_json_exclusive`).
    """
    record["updated_at"] = now_iso()
    batches_dir(Path(data_dir)).mkdir(parents=True, exist_ok=True)
    return create_json_exclusive(batch_path(Path(data_dir), record["batch_id"]), record)


def _load(data_dir: Path, batch_id: str) -> Any:
    p = batch_path(Path(data_dir), batch_id)
    try:
        return json.loads(read_bounded(p).decode("utf-8"))
    except FileNotFoundError:
        raise DsqError(f"no batch {batch_id!r} in {data_dir}") from None
    except (OSError, ValueError, RecursionError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else str(exc).splitlines()[0]
        raise DsqError(f"batch record {p} is unreadable: {reason}") from None


def read_batch_record(data_dir: Path, batch_id: str) -> dict[str, Any]:
    """The record of ``batch_id``; ``DsqError`` if there is none or it is unreadable (not
    JSON, or not following the record schema)."""
    rec = _load(data_dir, batch_id)
    try:
        return resolve_committing(check_record(rec, batch_id), data_dir)
    except RecordError as exc:
        p = batch_path(Path(data_dir), batch_id)
        raise DsqError(f"batch record {p} is unreadable: {exc}") from None


def read_spec_for_resume(data_dir: Path, batch_id: str) -> dict[str, Any]:
    """The record to resume ``batch_id`` from: the record itself when it is readable, else
    a record rebuilt around its intact ``spec`` (counts and status are recomputed from the
    files by the driver). ``DsqError`` when not even the spec can be trusted."""
    rec = _load(data_dir, batch_id)
    try:
        return resolve_committing(check_record(rec, batch_id), data_dir)
    except RecordError as exc:
        problem = str(exc)
    spec = rec.get("spec") if isinstance(rec, dict) else None
    try:
        check_spec(spec)
    except RecordError as exc:
        raise DsqError(
            f"batch {batch_id} cannot be resumed: its record is unreadable ({exc}); its "
            "recorded games are still counted by dsq stats"
        ) from None
    assert isinstance(rec, dict) and isinstance(spec, dict)
    keep = {k: rec.get(k) for k in ("group", "label", "created_at", "sprt")}
    keep = {k: v for k, v in keep.items() if isinstance(v, str)}
    rebuilt = BatchRecord(
        batch_id=batch_id,
        spec=BatchSpec.from_dict(spec),
        group=keep.get("group", batch_id),
        label=keep.get("label"),
        created_at=keep.get("created_at", now_iso()),
        sprt=keep.get("sprt"),
        repaired=f"the record was rebuilt from its spec ({problem})",
    )
    return {**rebuilt.to_dict(), "spec": spec}  # the spec exactly as it was recorded


def read_record(data_dir: Path, batch_id: str) -> BatchRecord:
    """:func:`read_batch_record` as a typed :class:`BatchRecord`."""
    return BatchRecord.from_dict(read_batch_record(data_dir, batch_id))


def list_batches(data_dir: Path) -> list[dict[str, Any]]:
    """Every readable batch record in the data folder, oldest first."""
    return load_batch_records(Path(data_dir))[0]


def unlisted_batches(data_dir: Path) -> list[tuple[str, str]]:
    """``(batch_id or path, why)`` of what ``list_batches`` leaves out although it may hold
    games: unreadable records, and games folders without any record."""
    data_dir = Path(data_dir)
    records, bad = load_batch_records(data_dir)
    out = [(Path(p).stem, reason) for p, reason in bad]
    known = {r["batch_id"] for r in records} | {b for b, _ in out} | pending_batches(data_dir)
    gdir = data_dir / GAMES_DIR
    if gdir.is_dir():
        for folder in sorted(gdir.iterdir()):
            if folder.is_dir() and not folder.name.startswith(".") and folder.name not in known:
                if any(folder.glob("*.parquet")):
                    out.append((folder.name, "games without a batch record"))
    return out


def effective_status(record: dict[str, Any], data_dir: Path | None = None) -> str:
    """The record's status, or ``interrupted`` when it says running/queued but no live
    process owns the batch: with ``data_dir``, nobody holds the batch's lock (any host);
    without it, the record's pid on this host is gone (older callers)."""
    status = str(record.get("status", "?"))
    if status not in ("running", "queued"):
        return status
    if data_dir is not None:
        return status if batch_locked(Path(data_dir), str(record["batch_id"])) else "interrupted"
    if record.get("host") == hostname():
        pid = record.get("pid")
        if isinstance(pid, int) and not pid_alive(pid):
            return "interrupted"
    return status


def request_cancel(data_dir: str | os.PathLike[str], batch_id: str) -> None:
    """Ask the driver running ``batch_id`` to stop after the games in flight.

    Writes ``DIR/batches/<batch_id>.cancel``; the driver polls it between chunks, records
    what it has, and sets the status to ``cancelled``. ``DsqError`` if there is no such batch.
    """
    data_dir = Path(data_dir)
    read_batch_record(data_dir, batch_id)
    atomic_write_json(cancel_path(data_dir, batch_id), {"requested_at": now_iso()})


def cancel_requested(data_dir: Path, batch_id: str) -> bool:
    """Whether a cancel request exists for ``batch_id``."""
    return cancel_path(Path(data_dir), batch_id).exists()


def clear_cancel(data_dir: Path, batch_id: str) -> None:
    """Remove a cancel request (used when a batch is resumed)."""
    cancel_path(Path(data_dir), batch_id).unlink(missing_ok=True)


def recorded_games(data_dir: Path, batch_id: str) -> dict[int, str]:
    """``{game_index: winner}`` of the games recorded for ``batch_id`` in verified files.

    Every file is verified in full (cached, :mod:`sim.storage.verify`) before its games
    count: the games of a damaged or foreign file count as missing, so a resume replays
    them. Reads two columns of each verified file.
    """
    out: dict[int, str] = {}
    folder = games_dir(Path(data_dir), batch_id)
    if not folder.is_dir():
        return out
    files = [p for p in sorted(folder.glob("*.parquet")) if not p.name.startswith(".")]
    for p, verdict in verify_files(files).items():
        if verdict is not None:
            continue
        try:
            t = pq.read_table(p, columns=["game_index", "winner", "batch_id"])
        except Exception:  # noqa: BLE001 - changed since verified: treat as missing games
            continue
        for gi, w, b in zip(
            t.column("game_index").to_pylist(),
            t.column("winner").to_pylist(),
            t.column("batch_id").to_pylist(),
            strict=True,
        ):
            if b == batch_id:
                out[int(gi)] = w
    return out
