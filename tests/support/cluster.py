"""A real Dask ``LocalCluster`` for tests: two single-thread worker processes, listening on
127.0.0.1 only, its dashboard on a free port there (``dashboard_address=None`` would serve
it on every interface at 8787, where a second cluster of the run finds it taken)."""

from __future__ import annotations

from typing import Any

import pytest


def local_cluster(n_workers: int = 2) -> Any:
    """A started ``distributed.LocalCluster`` (close it, or use it in a ``with``); the test
    is skipped where dask's ``distributed`` is not installed."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(
        n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    )  # fmt: skip
