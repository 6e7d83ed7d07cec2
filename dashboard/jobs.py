"""Batches launched from the browser: validate within limits, start a detached
``dsq simulate``, cancel one, resume one that stopped (:mod:`dashboard.job_list` finds
every batch on disk).

A launch writes ``DIR/.dashboard/jobs/<group>.json`` (what was asked, the pid, the log
file) and hands the specs to a ``dsq simulate`` in its own session as data
(:func:`sim.batch.launch_detached`, which writes them to ``<group>.launch``), so it
outlives the Streamlit session and the server.
The simulator writes its progress to its batch records (``DIR/batches/*.json``); pages
read those on every run, so a reload or a second browser tab sees the same jobs. The
``.dashboard`` folder is hidden, so dataset readers never look inside it, and everything
the dashboard writes stays inside the data folder.

Launches are bounded: "count what runs, then start" happens under a lock
(``DIR/.dashboard/launch.lock``), so launches released together never exceed
``max_running``; a request whose estimated work (:func:`estimate_seconds`) exceeds the
budget of ``max_hours`` is refused, and every launched batch is stopped after that long
(``RunOptions.max_seconds``: status cancelled, resumable).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from dashboard.job_list import jobs_dir, list_jobs, running_count
from dashboard.limits import LimitError, check_bot_limits
from dashboard.settings import Limits
from engine.errors import DsqError
from sim.batch import (
    BatchSpec,
    RunOptions,
    launch_detached,
    make_spec,
    new_batch_id,
    prepare_data_dir,
    spawn_detached,
)
from sim.batch.budget import duration_text, estimate_seconds
from sim.batch.run import check_label
from sim.core.batchspec import SPEC_DEFAULTS
from sim.storage.atomic import atomic_write_json
from sim.storage.records import now_iso, request_cancel

LAUNCH_SUFFIX = ".launch"  # the specs handed to the simulator (sim.batch.launch_detached)


@dataclass(frozen=True)
class LaunchRequest:
    """What the Simulate form asks for (one batch per rules spec)."""

    rules: tuple[str, ...]
    red: str
    blue: str
    games: int
    seed: int | None = None
    swap: bool = False
    opening_plies: int = 0
    ply_cap: int = 1000
    workers: int = 1
    label: str | None = None
    record: str = "moves"

    def spec_options(self) -> dict[str, Any]:
        """The request's values of the spec's options (``make_spec``'s keyword arguments);
        those the form does not ask for take the spec's defaults."""
        return {k: getattr(self, k) for k in SPEC_DEFAULTS if hasattr(self, k)}


def validate(request: LaunchRequest, limits: Limits) -> list[BatchSpec]:
    """The batch specs of a launch request, or DsqError with a readable message: the
    spec's own checks (:func:`sim.batch.make_spec`) and this dashboard's limits (games per
    batch, workers, bot parameters, work budget)."""
    if not request.rules:
        raise LimitError("no_rules", "choose at least one rules spec")
    if request.label is not None:
        try:
            check_label(request.label)
        except DsqError as exc:
            raise LimitError("label", str(exc), reason=str(exc)) from None
    if request.games > limits.max_games:
        raise LimitError(
            "games_limit",
            f"{request.games} games is above this dashboard's limit of {limits.max_games} "
            "per batch (use `dsq simulate` for more)",
            games=request.games,
            limit=limits.max_games,
        )
    if not 1 <= request.workers <= limits.max_workers:
        raise LimitError(
            "workers",
            f"workers must be between 1 and {limits.max_workers}",
            limit=limits.max_workers,
        )
    red = check_bot_limits(request.red, limits)
    blue = check_bot_limits(request.blue, limits)
    specs = [
        make_spec(r, red, blue, request.games, seed=request.seed, **request.spec_options())
        for r in request.rules
    ]
    canon = [s.rules for s in specs]
    if len(set(canon)) != len(canon):
        raise LimitError(
            "rules_twice",
            f"the same rules are chosen twice: {', '.join(canon)}",
            rules=", ".join(canon),
        )
    need = estimate_seconds(specs, request.workers)
    if need > limits.max_seconds:
        raise LimitError(
            "budget",
            f"this batch would take about {duration_text(need)} on {request.workers} worker(s); "
            f"this dashboard allows {limits.max_hours} hours per batch (fewer games, weaker "
            "bots, a lower ply cap or more workers; or `dsq simulate`)",
            hours=max(1, round(need / 3600)),
            workers=request.workers,
            limit=limits.max_hours,
        )
    return specs


@contextlib.contextmanager
def launch_lock(data_dir: Path) -> Iterator[None]:
    """Hold the data folder's launch lock (blocking): one launch at a time counts the
    running batches and starts its own, in every process and browser session."""
    folder = jobs_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder.parent / "launch.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def check_room(data_dir: Path, limits: Limits) -> None:
    """LimitError when ``max_running`` batches run already (call under the launch lock)."""
    if running_count(data_dir) >= limits.max_running:
        raise LimitError(
            "too_many_running",
            f"{limits.max_running} batches are already running; wait for one to finish "
            "or cancel one",
            limit=limits.max_running,
        )


def launch(data_dir: Path, request: LaunchRequest, limits: Limits) -> list[str]:
    """Validate and start a detached ``dsq simulate``; return the batch ids it will write.

    Raises DsqError (nothing started, nothing written) when the request is invalid, above
    the limits, or too many batches are already running.
    """
    specs = validate(request, limits)
    data_dir = prepare_data_dir(data_dir)
    with launch_lock(data_dir):
        check_room(data_dir, limits)
        return _start(data_dir, request, limits, specs)


def _start(
    data_dir: Path, request: LaunchRequest, limits: Limits, specs: list[BatchSpec]
) -> list[str]:
    """Write the launch record and start the detached simulator (under the launch lock:
    the record, with the pid, is in place before the next launch counts)."""
    group = new_batch_id()
    ids = [group] if len(specs) == 1 else [f"{group}-{k + 1}" for k in range(len(specs))]
    folder = jobs_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"{group}.log"
    record: dict[str, Any] = {
        "group": group,
        "batch_ids": ids,
        "request": asdict(request) | {"seed": specs[0].seed},
        "specs": [s.to_dict() for s in specs],
        "launch_file": f"{group}{LAUNCH_SUFFIX}",
        "max_seconds": limits.max_seconds,
        "launched_at": now_iso(),
        "log": log.name,
        "pid": None,
    }
    atomic_write_json(folder / f"{group}.json", record)
    try:
        record["pid"] = launch_detached(
            specs,
            data_dir,
            batch_id=group,
            launch_file=folder / record["launch_file"],
            label=request.label,
            workers=request.workers,
            options=RunOptions(max_seconds=limits.max_seconds),
            log_path=log,
        )
    except OSError as exc:
        record["error"] = f"could not start dsq simulate: {exc}"
        atomic_write_json(folder / f"{group}.json", record)
        raise DsqError(record["error"]) from None
    atomic_write_json(folder / f"{group}.json", record)
    return ids


def resume(data_dir: Path, batch_id: str, limits: Limits) -> None:
    """Start ``dsq simulate --resume BATCH_ID`` detached (the missing games, with the
    batch's own spec; stopped after ``max_hours`` as a launch is). DsqError when the
    batch cannot be resumed now or too many batches run already."""
    data_dir = Path(data_dir)
    with launch_lock(data_dir):
        job = next((j for j in list_jobs(data_dir) if j.batch_id == batch_id), None)
        if job is None or not job.resumable:
            raise LimitError("not_resumable", f"batch {batch_id} has nothing to resume now",
                             batch=batch_id)  # fmt: skip
        check_room(data_dir, limits)
        group = new_batch_id()
        folder = jobs_dir(data_dir)
        log = folder / f"{group}.log"
        record: dict[str, Any] = {
            "group": group,
            "batch_ids": [batch_id],
            "resume": batch_id,
            "launched_at": now_iso(),
            "log": log.name,
            "pid": None,
        }
        atomic_write_json(folder / f"{group}.json", record)
        argv = ["--resume", batch_id, "--data", str(data_dir), "--quiet",
                "--max-seconds", str(limits.max_seconds)]  # fmt: skip
        try:
            record["pid"] = spawn_detached(argv, log)
        except OSError as exc:
            record["error"] = f"could not start dsq simulate: {exc}"
            atomic_write_json(folder / f"{group}.json", record)
            raise DsqError(record["error"]) from None
        atomic_write_json(folder / f"{group}.json", record)


def cancel(data_dir: Path, batch_id: str) -> None:
    """Ask a running batch to stop after the games in flight (DsqError if unknown)."""
    request_cancel(data_dir, batch_id)
