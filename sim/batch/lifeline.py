"""Pool workers die with their driver.

A local pool worker is started with :func:`follow_parent` as its initializer: on Linux the
kernel sends it SIGTERM when its parent dies (``prctl(PR_SET_PDEATHSIG)``), and on every
system a watchdog thread polls the parent's pid and exits the worker within
:data:`POLL_SECONDS` once the parent is gone (re-parented). So a ``kill -9`` of the driver
leaves no worker computing games nobody will record; multiprocessing's resource tracker,
whose pipe the workers held open, then sees end of file and exits too.

SIGTERM, not SIGKILL: a worker that runs no engine dies of it at once all the same, and
one that does ends its engines first, with every process they started, even daemons
(:mod:`sim.external.reaper` handles SIGTERM there); the watchdog does the same before it
exits.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

from sim.external import reaper

POLL_SECONDS = 0.5
PR_SET_PDEATHSIG = 1


def _set_parent_death_signal() -> None:
    """Ask the Linux kernel to SIGTERM this process when its parent dies (best effort)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _watch(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            reaper.stop_engines()
            os._exit(1)
        time.sleep(POLL_SECONDS)


def follow_parent(parent: int) -> None:
    """Pool initializer: end this worker as soon as process ``parent`` (the driver) is gone."""
    _set_parent_death_signal()
    if os.getppid() != parent:  # the driver died before the death signal was armed
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="dsq-lifeline", daemon=True).start()
