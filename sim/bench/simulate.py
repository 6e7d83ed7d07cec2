"""Recorded-simulation speed: ``dsq simulate`` (random vs random, parquet files written and
verified) end to end, in games per second, on 1 and on 2 workers, recording every move
(``--record moves``) or the outcomes only (``--record outcomes``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from sim.batch import make_spec, run_batches

WARM_GAMES = 1000  # games per worker of the batch that starts the workers (each gets a chunk)


def usable_cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def recorded_rate(
    games: int,
    workers: int,
    data: Path | str | None = None,
    rules: str = "standard",
    batch_id: str | None = None,
    record: str = "moves",
) -> dict[str, Any]:
    """Games/s of a ``random`` vs ``random`` batch of ``games`` games recorded on
    ``workers`` workers into ``data`` (by default a temporary folder, removed after),
    storing ``record`` of each game (``moves``: everything, or ``outcomes``).

    A small batch first starts the workers (processes, compiled kernels) on the same
    backend, so ``games_per_s`` is the rate of a running simulation; ``start_seconds`` is
    the wall time of that first batch, start-up included.
    """

    specs = [
        make_spec(rules, "random", "random", WARM_GAMES * workers, seed=2, record=record),
        make_spec(rules, "random", "random", games, seed=1, record=record),
    ]
    with tempfile.TemporaryDirectory(prefix="dsq-bench-") as tmp:
        folder = Path(data) if data is not None else Path(tmp)
        warm, rec = run_batches(specs, folder, workers=workers, batch_id=batch_id)
    if rec["status"] != "done":
        raise RuntimeError(f"the benchmark batch ended {rec['status']}: {rec.get('error')}")
    return {
        "rules": rules,
        "workers": workers,
        "record": record,
        "games": games,
        "seconds": rec["seconds"],
        "games_per_s": games / rec["seconds"],
        "start_seconds": warm["seconds"],
        "batch_id": rec["batch_id"],
    }
