"""Batch records (``DIR/batches/<batch_id>.json``), cancel requests, and what a batch holds.

A record is a JSON object::

    {"batch_id", "group", "label", "spec": {rules, red, blue, games, seed, swap,
     opening_plies, ply_cap}, "status", "games_planned", "games_done",
     "counts": {"red", "blue", "draw"}, "created_at", "started_at", "updated_at",
     "finished_at", "host", "pid", "engine_version", "schema_version", "error"}

``status`` is one of :data:`STATUSES`. A record that says ``running`` but whose process is
gone (same host, pid dead) is reported as ``interrupted`` by :func:`effective_status`.
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
from sim.storage.paths import batch_path, batches_dir, cancel_path, games_dir
from sim.storage.reading import check_games_file, load_batch_records
from sim.storage.writing import atomic_write_json, pid_alive

STATUSES = ("queued", "running", "done", "failed", "cancelled")


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


def read_batch_record(data_dir: Path, batch_id: str) -> dict[str, Any]:
    """The record of ``batch_id``; ``DsqError`` if there is none or it is unreadable."""
    p = batch_path(Path(data_dir), batch_id)
    try:
        rec = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DsqError(f"no batch {batch_id!r} in {data_dir}") from None
    except (OSError, ValueError) as exc:
        raise DsqError(f"batch record {p} is unreadable: {exc}") from None
    if not isinstance(rec, dict) or rec.get("batch_id") != batch_id:
        raise DsqError(f"batch record {p} is not a valid batch record")
    return rec


def list_batches(data_dir: Path) -> list[dict[str, Any]]:
    """Every readable batch record in the data folder, oldest first."""
    return load_batch_records(Path(data_dir))[0]


def effective_status(record: dict[str, Any]) -> str:
    """The record's status, or ``interrupted`` when it says running/queued but its process
    on this host is gone."""
    status = str(record.get("status", "?"))
    if status in ("running", "queued") and record.get("host") == hostname():
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
    """``{game_index: winner}`` of the games already recorded for ``batch_id`` in valid files.

    Reads only two columns of the batch's parquet files; invalid files are ignored (their
    games count as missing).
    """
    out: dict[int, str] = {}
    folder = games_dir(Path(data_dir), batch_id)
    if not folder.is_dir():
        return out
    for p in sorted(folder.glob("*.parquet")):
        if p.name.startswith(".") or check_games_file(p) is not None:
            continue
        try:
            t = pq.read_table(p, columns=["game_index", "winner", "batch_id"])
        except Exception:  # noqa: BLE001 - a damaged data page: treat as missing games
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
