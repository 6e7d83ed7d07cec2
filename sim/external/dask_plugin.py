"""A Dask worker plugin that closes the worker's engine processes when the worker ends.

Engines are started by the chunks a worker plays and kept for its next chunks
(:mod:`sim.external.pool`); this plugin's ``teardown`` closes them when the worker shuts
down (``atexit`` and the engines' end of input are the fallbacks).
"""

from __future__ import annotations

import sys
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin


class CloseEngines(WorkerPlugin):
    """Close every engine of the worker's process at teardown."""

    name = "dsq-close-engines"

    def teardown(self, worker: Any) -> None:
        """Called by Dask when the worker closes."""
        pool = sys.modules.get("sim.external.pool")
        if pool is not None:
            pool.close_all()
