"""Batches launched from the browser: validate within limits, start a detached
``dsq simulate``, find every batch on disk, cancel one, resume one that stopped.

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
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

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
from sim.batch.progress import eta_seconds, games_rate
from sim.batch.run import check_label
from sim.bots.spec import HUMAN
from sim.core.batchspec import SPEC_DEFAULTS
from sim.storage.atomic import atomic_write_json
from sim.storage.batchrecord import BatchRecord
from sim.storage.paths import BATCH_ID_RE
from sim.storage.records import (
    effective_status,
    list_batches,
    now_iso,
    request_cancel,
    unlisted_batches,
)
from sim.storage.writing import pid_alive

JOBS_DIR = Path(".dashboard") / "jobs"
ACTIVE = ("starting", "queued", "running")
RESUMABLE = ("cancelled", "interrupted", "failed")
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


@dataclass
class JobView:
    """One batch as the Simulate page shows it."""

    batch_id: str
    status: str
    rules: str
    red: str
    blue: str
    games_done: int
    games_planned: int
    counts: dict[str, int] = field(default_factory=dict)
    created_at: str = ""
    finished_at: str | None = None
    error: str | None = None
    from_dashboard: bool = False
    group: str | None = None
    label: str | None = None
    started_at: str | None = None
    updated_at: str | None = None
    pid: int | None = None
    rate: float | None = None  # games per second of the running run, as its driver measured

    @property
    def played_by_person(self) -> bool:
        """Whether this is a game a person played (a one-game batch saved by the Play page)."""
        return HUMAN in (self.red, self.blue)

    @property
    def active(self) -> bool:
        """Whether the batch may still make progress."""
        return self.status in ACTIVE

    @property
    def resumable(self) -> bool:
        """Whether the batch stopped before its end (cancelled, interrupted, failed) and
        ``dsq simulate --resume`` can play its missing games."""
        return (
            self.status in RESUMABLE
            and 0 < self.games_planned
            and self.games_done < self.games_planned
            and not self.played_by_person
        )

    @property
    def fraction(self) -> float:
        """Share of the planned games recorded, 0..1."""
        return min(1.0, self.games_done / self.games_planned) if self.games_planned else 0.0


# The first record seen of each run of a batch (batch id, pid) -> (updated_at, games done):
# the rate of a run is measured from there, so a resumed batch's earlier games do not count.
_FIRST_SEEN: dict[tuple[str, int | None], tuple[float, int]] = {}


def _seconds(stamp: str | None) -> float | None:
    try:
        return datetime.fromisoformat(stamp).timestamp() if stamp else None
    except (TypeError, ValueError):
        return None


def job_speed(job: JobView) -> tuple[float, float | None] | None:
    """A running batch's games per second and seconds to go (None: not yet known), by
    :mod:`sim.batch.progress`'s rules: the rate its driver measured from the run's first
    games on (``rate`` in the record: the start-up, loading bots and kernels, is not
    counted); for a record without one, between the first record with games the
    dashboard saw of this run and the latest one. None for a batch not running, or before
    two chunks."""
    updated = _seconds(job.updated_at)
    if job.status != "running" or updated is None:
        return None
    rate = job.rate
    if rate is None:
        if job.games_done <= 0:
            return None  # a run's record before its first games: loading takes its time
        first = _FIRST_SEEN.setdefault((job.batch_id, job.pid), (updated, job.games_done))
        if updated <= first[0] or job.games_done <= first[1]:
            return None
        rate = games_rate(job.games_done, first[1], updated - first[0])
    if rate <= 0:
        return None
    return rate, eta_seconds(job.games_planned, job.games_done, rate)


def jobs_dir(data_dir: Path) -> Path:
    """Where the dashboard keeps its launch records and logs."""
    return Path(data_dir) / JOBS_DIR


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


def running_count(data_dir: Path) -> int:
    """Batches in the data folder that are still starting, queued or running."""
    return sum(1 for j in list_jobs(data_dir) if j.active)


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


def _launch_records(data_dir: Path) -> list[dict[str, Any]]:
    folder = jobs_dir(data_dir)
    out: list[dict[str, Any]] = []
    if not folder.is_dir():
        return out
    for p in sorted(folder.glob("*.json")):
        try:
            rec = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("batch_ids"), list):
            out.append(rec)
    return out


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def log_tail(data_dir: Path, group: str, lines: int = 5) -> str:
    """The last lines of a launch's log (what ``dsq simulate`` printed), or ''."""
    if not isinstance(group, str) or not BATCH_ID_RE.fullmatch(group):
        return ""
    p = jobs_dir(data_dir) / f"{group}.log"
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.strip().splitlines()[-lines:])


def _from_record(rec: BatchRecord, launched: set[str], data_dir: Path) -> JobView:
    spec = rec.spec
    return JobView(
        batch_id=rec.batch_id,
        status=effective_status(rec.to_dict(), data_dir),
        rules=spec.rules,
        red=spec.red,
        blue=spec.blue,
        games_done=rec.games_done,
        games_planned=rec.games_planned or spec.games,
        counts=dict(rec.counts),
        created_at=rec.created_at or "",
        finished_at=rec.finished_at,
        error=rec.error,
        from_dashboard=rec.batch_id in launched,
        group=rec.group,
        label=rec.label,
        started_at=rec.started_at,
        updated_at=rec.updated_at,
        pid=rec.pid,
        rate=_rate(rec.extra.get("rate")),
    )


def _rate(value: Any) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    return float(value) if ok else None


def list_jobs(data_dir: Path) -> list[JobView]:
    """Every batch in the data folder, newest first, plus launches whose process has not
    written its batch record yet (``starting``) or died before it could (``failed``), and
    batches whose record is unreadable (``unreadable``, with the reason: their games are
    still counted)."""
    data_dir = Path(data_dir)
    launches = _launch_records(data_dir)
    launched = {bid for rec in launches for bid in rec["batch_ids"] if isinstance(bid, str)}
    records = [BatchRecord.from_dict(rec) for rec in list_batches(data_dir)]
    views = [_from_record(rec, launched, data_dir) for rec in records]
    for bid, reason in unlisted_batches(data_dir):
        views.append(
            JobView(batch_id=bid, status="unreadable", rules="?", red="?", blue="?",
                    games_done=0, games_planned=0, error=reason,
                    from_dashboard=bid in launched)
        )  # fmt: skip
    _mark_resuming(views, launches)
    known = {v.batch_id for v in views}
    for rec in launches:
        specs = [s if isinstance(s, dict) else {} for s in rec.get("specs") or [{}]]
        spec0 = specs[0] if specs else {}
        for bid, spec in zip(rec["batch_ids"], specs, strict=False):
            if bid in known or not isinstance(bid, str):
                continue
            pid = rec.get("pid")
            alive = isinstance(pid, int) and pid_alive(pid)
            error = rec.get("error")
            if not alive and not error:
                error = log_tail(data_dir, rec["group"]) or "the simulator stopped before starting"
            views.append(
                JobView(
                    batch_id=bid,
                    status="starting" if alive else "failed",
                    rules=str(spec.get("rules", "?")),
                    red=str(spec0.get("red", "?")),
                    blue=str(spec0.get("blue", "?")),
                    games_done=0,
                    games_planned=_count(spec.get("games")),
                    created_at=str(rec.get("launched_at") or ""),
                    error=error,
                    from_dashboard=True,
                    group=rec.get("group"),
                )
            )
    views.sort(key=lambda v: (v.created_at, v.batch_id), reverse=True)
    return views


def _mark_resuming(views: list[JobView], launches: list[dict[str, Any]]) -> None:
    """A stopped batch whose resume this dashboard started, still alive, is ``starting``
    until its simulator marks it running."""
    for rec in launches:
        bid, pid, at = rec.get("resume"), rec.get("pid"), str(rec.get("launched_at") or "")
        if not isinstance(bid, str) or not isinstance(pid, int) or not pid_alive(pid):
            continue
        for v in views:
            if v.batch_id == bid and v.status in RESUMABLE and (v.finished_at or "") <= at:
                v.status = "starting"


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
