"""Batches of games: what a batch plays (:mod:`~sim.batch.spec`), the one entry point that
runs them (:mod:`~sim.batch.run`), the driver that plays and records one
(:mod:`~sim.batch.driver`, :mod:`~sim.batch.recorder`, :mod:`~sim.core.tally`), where chunks
run (:mod:`~sim.batch.backends`, :mod:`~sim.batch.chunks`), the progress display and the
detached launch (:mod:`~sim.batch.detached`).

The public names below are importable from ``sim.batch`` directly; they are loaded on first
use, so a worker process that only needs :mod:`sim.batch.chunks` does not import the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.batch.detached import launch_detached, spawn_detached
    from sim.batch.driver import BatchDriver, BatchFailed
    from sim.batch.plan import Plan, new_batch_id, plan_batches  # new_batch_id: sim.storage.paths
    from sim.batch.progress import BatchProgress
    from sim.batch.run import (
        check_resumable,
        create_batch,
        prepare_data_dir,
        resume_batch,
        run_batch,
        run_batches,
    )
    from sim.batch.spec import BatchSpec, RunOptions, make_spec
    from sim.core.tally import StopCheck

_EXPORTS = {
    "BatchDriver": "driver",
    "BatchFailed": "driver",
    "BatchSpec": "spec",
    "BatchProgress": "progress",
    "RunOptions": "spec",
    "StopCheck": "tally",
    "check_resumable": "run",
    "launch_detached": "detached",
    "create_batch": "run",
    "make_spec": "spec",
    "new_batch_id": "plan",
    "Plan": "plan",
    "plan_batches": "plan",
    "prepare_data_dir": "run",
    "resume_batch": "run",
    "run_batch": "run",
    "run_batches": "run",
    "spawn_detached": "detached",
}

__all__ = [
    "BatchDriver",
    "BatchFailed",
    "BatchSpec",
    "BatchProgress",
    "RunOptions",
    "StopCheck",
    "check_resumable",
    "create_batch",
    "launch_detached",
    "Plan",
    "make_spec",
    "new_batch_id",
    "plan_batches",
    "prepare_data_dir",
    "resume_batch",
    "run_batch",
    "run_batches",
    "spawn_detached",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sim.batch' has no attribute {name!r}")
    return getattr(importlib.import_module(f"sim.batch.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
