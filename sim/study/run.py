"""Playing a study: each cell's rounds as ordinary batches, resumable, with one progress
line for the whole study.

Rounds are played round by round over the cells (every cell's first batch, then the second
batch of the cells whose first-move interval is still too wide, ...), so an interrupted
study already holds a first look at every cell. A batch already ``done`` is kept, one
interrupted (or killed) is resumed with exactly its missing games, so running the study
again after any stop ends with the same games as an uninterrupted run.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from engine.errors import DsqError
from sim.batch.plan import NewSpec, plan_batches, plan_changes, recorded
from sim.batch.progress import BatchProgress, fmt_eta
from sim.storage.atomic import atomic_write_bytes, json_bytes
from sim.storage.paths import resolve_data_dir
from sim.storage.records import now_iso
from sim.study.record import MAX_RECORD_BYTES, read_study_record
from sim.study.spec import Cell, Study

STUDIES_DIR = "studies"


def study_path(data_dir: Path, name: str) -> Path:
    """Where a study's plan is kept: ``DATA/studies/NAME.json``."""
    return Path(data_dir) / STUDIES_DIR / f"{name}.json"


def register_study(data_dir: Path, study: Study, *, recorded_pins: bool = False) -> Study:
    """Record the study's plan in the data folder, or check it is the one recorded:
    ``DsqError`` naming what changed when the file was edited after the study started, or
    when a bot's evaluation pinned then is no longer today's. With ``recorded_pins`` the
    study continues with the bots pinned when it started. Returns the study to play."""
    path = study_path(data_dir, study.name)
    plan = study.plan()
    if path.exists():
        old_plan = read_study_record(path).plan
        if old_plan.pins is None:  # recorded before bots were pinned: as it was then
            plan.pop("pins", None)
        elif recorded_pins:
            study = replace(study, pins=dict(old_plan.pins))
            plan = study.plan()
        changes = plan_changes(old_plan.as_dict(), plan)
        if changes:
            pins_only = all(c.startswith("pins.") for c in changes)
            hint = (
                "; run it with --recorded-bots to continue with the bots it started with"
                if pins_only
                else ". Give the study a new name, or use another data folder"
            )
            raise DsqError(
                f"{Path(study.path).name}: the study {study.name!r} was started with another "
                f"plan ({path}); changed: {', '.join(changes)}{hint}"
            )
        return study
    record = json_bytes({
        "name": study.name, "title": study.title, "file": study.path,
        "created_at": now_iso(), "plan": plan, "study": study_dict(study),
    })  # fmt: skip
    if len(record) > MAX_RECORD_BYTES:  # never written where it could not be read back
        raise DsqError(
            f"{Path(study.path).name}: the study's record would take {len(record):,} bytes, "
            f"more than the {MAX_RECORD_BYTES:,} it may (fewer cells, or shorter specs)"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, record)
    return study


def study_dict(study: Study) -> dict[str, Any]:
    """The study as the report reads it back (``dsq study report NAME``)."""
    return {
        "name": study.name,
        "title": study.title,
        "seed": study.seed,
        "ply_cap": study.ply_cap,
        "opening_plies": study.opening_plies,
        "base": study.base,
        "design": study.design,
        "grid": study.grid,
        "interactions": study.interactions,
        "bots": study.bots,
        "pairings": study.pairings,
        "games": study.games.__dict__,
        "cells": [c.__dict__ for c in study.cells],
        "families": [f.__dict__ for f in study.families],
        "protocols": [p.__dict__ for p in study.protocols.values()],
        "seeds": study.seeds,
        "pins": study.pins,
        "openings": study.openings,
        "openings_order": study.openings_order,
    }


def recorded_studies(data_dir: Path) -> list[str]:
    """The names of the studies recorded in ``data_dir`` (sorted)."""
    folder = Path(data_dir) / STUDIES_DIR
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def recorded_study(data_dir: Path, name: str) -> Study:
    """The study ``name`` as recorded when it started (no need of its file); its record
    checked in full (:func:`sim.study.record.read_study_record`)."""
    return read_study_record(study_path(data_dir, name)).study


def _counts(rec: dict[str, Any]) -> tuple[int, int, int]:
    c = rec.get("counts", {})
    return int(c.get("red", 0)), int(c.get("draw", 0)), int(c.get("blue", 0))


def cell_done(study: Study, data_dir: Path, cell: Cell, rounds: int) -> bool:
    """Whether ``cell`` needs no round after its first ``rounds``: every round planned is
    played, or the first player's score interval is within the target."""
    g = study.games_for(cell)
    if rounds >= g.rounds():
        return True
    if g.target is None:
        return False
    # lazy: start-up time (scipy)
    from sim.stats import score_estimate

    red = draw = blue = 0
    for k in range(rounds):
        rec = recorded(data_dir, study.batch_id(cell, k))
        if rec is None:
            return False
        r, d, b = _counts(rec)
        red, draw, blue = red + r, draw + d, blue + b
    if red + draw + blue == 0:
        return False
    est = score_estimate(red, draw, blue)
    return (est.high - est.low) / 2 <= g.target


def cell_batches(study: Study, data_dir: Path, cell: Cell) -> list[str]:
    """The batch ids recorded for ``cell``, in round order."""
    out = []
    for k in range(study.games_for(cell).rounds()):
        bid = study.batch_id(cell, k)
        if recorded(data_dir, bid) is None:
            break
        out.append(bid)
    return out


class StudyProgress(BatchProgress):
    """One line for the whole study: cells done, games, rate and ETA (at the current rate,
    over the games still planned; with a target the most games a cell may take)."""

    def __init__(
        self,
        study: Study,
        stream: TextIO | None = None,
        interval: float = 10.0,
        quiet: bool = False,
    ) -> None:
        super().__init__(stream, mode="quiet" if quiet else "plain", interval=interval)
        self.study = study
        self.cells_done = 0
        self.games_before = 0  # games recorded in finished batches
        self.planned = sum(study.games_for(c).most() for c in study.cells)
        self.played = 0  # games played by this process
        self.t_study = time.monotonic()
        self.last_line = 0.0
        self.batch_start = 0
        self.last_rounds = {study.batch_id(c, study.games_for(c).rounds() - 1) for c in study.cells}

    def start(self, name: str, total: int, done: int, counts: dict[str, int]) -> None:
        self.name, self.total, self.done, self.counts = name, total, done, dict(counts)
        self.batch_start = done

    def update(self, done: int, counts: dict[str, int]) -> None:
        self.done, self.counts = done, dict(counts)
        if time.monotonic() - self.last_line >= self.interval:
            self.line()

    def finish(self, record: dict[str, Any]) -> None:
        self.played += self.done - self.batch_start
        self.games_before += self.done
        self.done = self.batch_start = 0
        if record.get("status") == "done" and record.get("batch_id") in self.last_rounds:
            self.cells_done += 1  # a cell's last possible round: the cell is done

    def line(self, final: bool = False) -> None:
        """Print the study's progress line."""
        if self.mode == "quiet":
            return
        self.last_line = time.monotonic()
        current = self.done - self.batch_start
        games = self.games_before + self.done
        elapsed = time.monotonic() - self.t_study
        rate = (self.played + current) / elapsed if elapsed > 0 else 0.0
        left = max(0, self.planned - games)
        eta = fmt_eta(0 if final else left / rate if rate > 0 else None)
        self.stream.write(
            f"study {self.study.name}: cells {self.cells_done}/{len(self.study.cells)} done, "
            f"{games:,} games (at most {self.planned:,}), {rate:.1f} games/s, ETA {eta}\n"
        )
        self.stream.flush()


def run_study(
    study: Study,
    data_dir: str | Path | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    stream: TextIO | None = None,
    quiet: bool = False,
    recorded_pins: bool = False,
) -> dict[str, Any]:
    """Play (or resume) every cell of ``study``; return ``{"seconds", "games", "batches"}``
    of this run. ``DsqError`` if the study file changed since it started (or a bot's
    pinned evaluation did, unless ``recorded_pins``: then play with the recorded bots)."""
    d = resolve_data_dir(data_dir)
    d.mkdir(parents=True, exist_ok=True)
    study = register_study(d, study, recorded_pins=recorded_pins)
    workers = workers or study.workers
    scheduler = scheduler or study.scheduler
    progress = StudyProgress(study, stream or sys.stderr, quiet=quiet)
    t0 = time.monotonic()
    batches = 0
    done_cells: set[int] = set()
    for k in range(max(study.games_for(c).rounds() for c in study.cells)):
        cells = []
        for cell in study.cells:
            if cell.index in done_cells:
                continue
            if cell_done(study, d, cell, k):
                done_cells.add(cell.index)
                continue
            cells.append(cell)

        def new(i: int, cells: list[Cell] = cells, k: int = k) -> NewSpec:
            return study.batch_spec(cells[i], k), study.label(cells[i])

        plan = plan_batches(d, [study.batch_id(c, k) for c in cells], new)
        progress.games_before += sum(int(r.get("games_done", 0)) for r in plan.done)
        progress.cells_done = len(done_cells)
        # One plan per round: the workers are started once for all of its batches.
        plan.run(
            d, group=f"{study.name}-r{k:02d}", workers=workers, scheduler=scheduler,
            progress=progress,
        )  # fmt: skip
        batches += len(plan.resume) + len(plan.create)
        progress.line()
    for cell in study.cells:
        if cell.index not in done_cells and cell_done(
            study, d, cell, study.games_for(cell).rounds()
        ):
            done_cells.add(cell.index)
    progress.cells_done = len(done_cells)
    progress.line(final=True)
    return {
        "seconds": round(time.monotonic() - t0, 3),
        "games": progress.played,
        "batches": batches,
    }
