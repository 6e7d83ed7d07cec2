"""What a study will cost before it is played: ``dsq study plan``.

Every cell's games (fixed, or up to a cap in rounds), its CPU seconds per game (measured:
:mod:`sim.study.costs`), its CPU-hours at most and expected, the total, and the wall time
on local workers and on Dask clusters of given sizes. The wall time counts the playing
only: a study plays its batches in turn, each on every worker, so a batch of ``g`` games
takes ``ceil(g / workers)`` games' time.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.core.batchspec import BatchSpec
from sim.study.costs import COSTS_FILE, Cost, cost_key, cpu_model, measure_costs
from sim.study.spec import Cell, Games, Study

DASK_WORKERS = (8, 32)  # the cluster sizes shown when none are asked for
PRIOR = 1  # pseudo-games of each result added to the measured outcomes (expected games)


@dataclass(frozen=True)
class CellPlan:
    """A cell's games and cost: ``rounds_most`` and ``rounds_expected`` batches of its
    games; ``cost`` per game."""

    cell: Cell
    games: Games
    cost: Cost
    rounds_most: int
    rounds_expected: int

    def played(self, expected: bool) -> int:
        """The games of the cell at most, or expected."""
        rounds = self.rounds_expected if expected else self.rounds_most
        return sum(self.games.round_games(k) for k in range(rounds))

    def cpu_hours(self, expected: bool) -> float:
        """The cell's CPU-hours at most, or expected."""
        return self.played(expected) * self.cost.seconds / 3600

    def wall_seconds(self, workers: int, expected: bool) -> float:
        """The cell's playing time on ``workers`` workers (its batches in turn)."""
        rounds = self.rounds_expected if expected else self.rounds_most
        per_batch = (math.ceil(self.games.round_games(k) / workers) for k in range(rounds))
        return sum(per_batch) * self.cost.seconds


@dataclass(frozen=True)
class Plan:
    """A study's cells with their costs; ``workers`` local workers on ``cores`` cores, the
    ``dask`` cluster sizes, the CPU of this machine, and the games played to calibrate."""

    study: Study
    cells: list[CellPlan]
    workers: int
    cores: int
    dask: tuple[int, ...]
    cpu: str
    calibration_games: int
    cache: Path | None

    def cpu_hours(self, expected: bool) -> float:
        """The study's CPU-hours at most, or expected."""
        return sum(c.cpu_hours(expected) for c in self.cells)

    def wall_seconds(self, workers: int, expected: bool) -> float:
        """The study's playing time on ``workers`` workers."""
        return sum(c.wall_seconds(workers, expected) for c in self.cells)

    @property
    def local_workers(self) -> int:
        """The workers that play at once on this machine (no more than its cores)."""
        return min(self.workers, self.cores)


def cell_spec(study: Study, cell: Cell, k: int) -> BatchSpec:
    """The batch spec of round ``k`` of ``cell`` (as ``dsq study run`` makes it)."""
    own = getattr(study, "batch_spec", None)
    if own is not None:
        return own(cell, k)
    # lazy: start-up time (the batch package)
    from sim.batch import make_spec

    return make_spec(
        cell.rules, cell.red, cell.blue, study.games_for(cell).round_games(k),
        seed=study.batch_seed(cell, k), swap=cell.red != cell.blue,
        opening_plies=study.opening_plies, ply_cap=study.ply_cap,
        openings=study.openings, openings_order=study.openings_order,
    )  # fmt: skip


def expected_rounds(games: Games, outcomes: tuple[int, int, int]) -> int:
    """The rounds a cell is expected to play: with a target, the first after which the
    first player's score interval is within it at the rates of ``outcomes`` (red, draw,
    blue; :data:`PRIOR` pseudo-games of each added), as ``dsq study run`` checks it."""
    if games.target is None:
        return games.rounds()
    # lazy: start-up time (scipy)
    from sim.stats import score_estimate

    rates = [x + PRIOR for x in outcomes]
    total = sum(rates)
    n = 0
    for k in range(games.rounds()):
        n += games.round_games(k)
        red, draw, blue = (round(x * n / total) for x in rates)
        est = score_estimate(red, draw, blue)
        if (est.high - est.low) / 2 <= games.target:
            return k + 1
    return games.rounds()


def plan_study(
    study: Study,
    data_dir: Path,
    *,
    workers: int | None = None,
    dask: tuple[int, ...] = DASK_WORKERS,
    calibrate: int = 4,
    calibrate_seconds: float = 20.0,
    cache: bool = True,
) -> Plan:
    """The plan of ``study``: each cell's cost measured from ``data_dir``'s finished
    batches, its cached calibrations or ``calibrate`` games played now (0: none; the rough
    model then); ``cache`` keeps new calibrations in the data folder."""
    # lazy: start-up time (the tables' folder is only named to the calibration games)
    from sim.tablebase.store import tables_root

    workers = workers or study.workers
    specs = {c.index: cell_spec(study, c, 0) for c in study.cells}
    by_key = {cost_key(s): s for s in specs.values()}
    costs, played = measure_costs(
        by_key, Path(data_dir), games=calibrate, cap=calibrate_seconds,
        workers=min(workers, os.cpu_count() or 1), cache=cache,
        tables=str(tables_root(data_dir)),
    )  # fmt: skip
    cells = []
    for c in study.cells:
        g = study.games_for(c)
        cost = costs[cost_key(specs[c.index])]
        cells.append(CellPlan(c, g, cost, g.rounds(), expected_rounds(g, cost.outcomes)))
    return Plan(
        study, cells, workers, os.cpu_count() or 1, tuple(dask), cpu_model(), played,
        Path(data_dir) / COSTS_FILE if cache else None,
    )  # fmt: skip


def games_text(games: Games) -> str:
    """A cell's games in words: ``200``, or ``up to 1600 in rounds of 400``."""
    if games.target is None:
        return f"{games.most():,}"
    return f"up to {games.cap:,} in rounds of {games.step:,}"


def duration_text(seconds: float) -> str:
    """A duration in words: seconds, minutes, hours or days."""
    if seconds < 1:
        return "under 1 s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def hours_text(hours: float) -> str:
    """CPU-hours with the digits that matter."""
    if hours >= 10:
        return f"{hours:,.0f}"
    if hours >= 0.1:
        return f"{hours:.2f}"
    return f"{hours:.3f}" if hours >= 0.0005 or hours == 0 else "<0.001"


def _condition(cell: Cell) -> str:
    return str(getattr(cell, "condition", cell.pairing))


def _targets(plan: Plan) -> bool:
    return any(c.games.target is not None for c in plan.cells)


EXPECTED_TEXT = (
    "expected: a cell with a target stops at the first round after which the first "
    "player's score is known to within it, at the outcome rates of the games its cost was "
    f"measured on ({PRIOR} pseudo-game of each result added); 'at most': every round"
)


def _walls(plan: Plan) -> list[dict[str, Any]]:
    rows = [("local", plan.local_workers)] + [("dask", n) for n in plan.dask]
    return [
        {
            "where": where,
            "workers": n,
            "hours_most": plan.wall_seconds(n, False) / 3600,
            "hours_expected": plan.wall_seconds(n, True) / 3600,
        }
        for where, n in rows
    ]


def plan_json(plan: Plan) -> dict[str, Any]:
    """The plan as one JSON object."""
    s = plan.study
    return {
        "study": s.name,
        "file": s.path,
        "cpu": plan.cpu,
        "calibration_games": plan.calibration_games,
        "cache": None if plan.cache is None else str(plan.cache),
        "expected": EXPECTED_TEXT,
        "cells": [
            {
                "index": c.cell.index,
                "rules": c.cell.rules,
                "red": c.cell.red,
                "blue": c.cell.blue,
                "condition": _condition(c.cell),
                "games": games_text(c.games),
                "games_most": c.played(False),
                "games_expected": c.played(True),
                "rounds_most": c.rounds_most,
                "rounds_expected": c.rounds_expected,
                "cpu_hours_most": c.cpu_hours(False),
                "cpu_hours_expected": c.cpu_hours(True),
                "cpu_seconds_per_game": c.cost.seconds,
                "cost": c.cost.to_dict(),
            }
            for c in plan.cells
        ],
        "total": {
            "cpu_hours_most": plan.cpu_hours(False),
            "cpu_hours_expected": plan.cpu_hours(True),
        },
        "local": {"workers": plan.workers, "cores": plan.cores},
        "wall": _walls(plan),
    }


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            v.rjust(w) if i in right else v.ljust(w)
            for i, (v, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def plan_text(plan: Plan) -> str:
    """The plan as text: a line per cell, the totals and the wall times."""
    s = plan.study
    axes = any(_condition(c.cell) != c.cell.pairing for c in plan.cells)
    rows = [["cell", "rules", "condition" if axes else "pairing", "games", "CPU s/game"]]
    rows[0].append("CPU-h most")
    rows[0] += ["CPU-h expected", "cost"] if _targets(plan) else ["cost"]
    for c in plan.cells:
        row = [str(c.cell.index), c.cell.rules, _condition(c.cell), games_text(c.games)]
        row += [f"{c.cost.seconds:.3g}", hours_text(c.cpu_hours(False))]
        row += [hours_text(c.cpu_hours(True))] if _targets(plan) else []
        rows.append([*row, c.cost.text()])
    lines = [f"study {s.name}: {len(plan.cells)} cells ({s.path})"]
    cpus = sorted({c.cost.cpu for c in plan.cells if c.cost.source == "measured"})
    if cpus:
        lines.append(
            f"costs measured on {', '.join(cpus)}: bots limited by depth, nodes or playouts "
            "play the same games on any CPU, so their costs scale with its speed"
        )
    lines += _table(rows, {0, 4, 5, 6} if _targets(plan) else {0, 4, 5})
    most, exp = plan.cpu_hours(False), plan.cpu_hours(True)
    total = f"total: {hours_text(most)} CPU-hours at most"
    lines.append(total + (f", {hours_text(exp)} expected" if _targets(plan) else ""))
    if _targets(plan):
        lines.append(EXPECTED_TEXT)
    for w in _walls(plan):
        where = (
            f"{w['workers']} local worker{'s' if w['workers'] > 1 else ''}"
            if w["where"] == "local"
            else f"a Dask cluster of {w['workers']} workers"
        )
        text = f"wall time on {where}: {duration_text(w['hours_most'] * 3600)} at most"
        if _targets(plan):
            text += f", {duration_text(w['hours_expected'] * 3600)} expected"
        lines.append(text)
    note = "wall times count the playing only (one thread a worker, CPUs as fast as the above)"
    if plan.workers > plan.cores:
        note += f"; {plan.workers} workers on {plan.cores} cores play {plan.cores} at a time"
    lines.append(note)
    if plan.calibration_games:
        where = (
            f", kept in {plan.cache}"
            if plan.cache
            else " (not kept: the bundled sample is written to only when --data names it)"
        )
        lines.append(f"calibration: {plan.calibration_games:,} games played{where}")
    return "\n".join(lines) + "\n"
