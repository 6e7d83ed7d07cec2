"""The launch budget of a study: no cell may be expected to run longer than a day."""

from __future__ import annotations

from dataclasses import replace

from engine.errors import DsqError
from sim.study.spec import Study

CELL_BUDGET_S = 24 * 3600.0  # the dashboard's launch limit: no batch estimated over a day


def check_budget(study: Study, workers: int) -> None:
    """``DsqError`` naming the file and the cell whose most games would take longer than
    the budget (the rough per-move costs of ``sim.batch.budget``)."""
    # lazy: start-up time (the bot catalogue, read only to check a launch)
    from sim.batch.budget import duration_text, estimate_seconds

    key = "games.per_cell" if study.games.target is None else "games.cap"
    for c in study.cells:
        spec = replace(study.batch_spec(c, 0), games=study.games_for(c).most())
        seconds = estimate_seconds([spec], workers)
        if seconds > CELL_BUDGET_S:
            raise DsqError(
                f"{study.path}: {key}: cell {c.index} ({c.rules}, {c.pairing}) would take "
                f"about {duration_text(seconds)} on {workers} workers, beyond the launch "
                f"budget of {duration_text(CELL_BUDGET_S)}"
            )
