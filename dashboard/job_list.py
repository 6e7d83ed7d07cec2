"""Every batch of the data folder as the Simulate page lists it: the batch records
(``DIR/batches/*.json``) and the dashboard's own launch records
(``DIR/.dashboard/jobs/<group>.json``, written by :mod:`dashboard.jobs`), read on every
run, so a reload or a second browser tab sees the same jobs; a running batch's speed,
and the tail of a launch's log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sim.batch.progress import eta_seconds, games_rate
from sim.bots.spec import HUMAN
from sim.storage.batchrecord import BatchRecord
from sim.storage.paths import BATCH_ID_RE
from sim.storage.records import effective_status, list_batches, unlisted_batches
from sim.storage.writing import pid_alive

JOBS_DIR = Path(".dashboard") / "jobs"
ACTIVE = ("starting", "queued", "running")
RESUMABLE = ("cancelled", "interrupted", "failed")


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


def running_count(data_dir: Path) -> int:
    """Batches in the data folder that are still starting, queued or running."""
    return sum(1 for j in list_jobs(data_dir) if j.active)


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
