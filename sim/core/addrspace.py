"""Thread pools sized to an address-space limit (``ulimit -v``, ``RLIMIT_AS``).

Under such a limit every reserved range counts, used or not: glibc's malloc reserves
64 MiB for each thread that allocates (up to 8 per CPU), Arrow's mimalloc pool reserves
its arenas by the gigabyte, each thread's stack counts, and DuckDB sizes its memory by the
machine's RAM. So a 2 GiB limit once made ``dsq stats`` fail while its resident size was
about 200 MB (glibc aborting with "cannot allocate memory for thread-local data").

:func:`fit_to_address_space` (run by ``dsq`` before any command, and inherited by the
processes it starts through the environment) does, only when a limit is in force: at most
:data:`MALLOC_ARENAS` malloc arenas, Arrow's system allocator, the CPU and I/O thread
pools of Arrow, numba's threads and :func:`duckdb_config`'s threads sized by
:func:`pool_threads`, and DuckDB's memory limit a share of the limit.
:func:`check_address_space` says in one line when the limit is below :data:`FLOOR`, what
dsq needs at the least. Without a limit nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import sys

from engine.errors import DsqError

FLOOR = 768 << 20  # the least address space dsq needs (bytes; `dsq stats` ran from 600 MB)
BASE = 1 << 30  # what the libraries themselves reserve before any thread (bytes)
PER_THREAD = 128 << 20  # what one more worker thread may reserve (stack, buffers)
MALLOC_ARENAS = 2
DUCKDB_SHARE = 0.4  # of the limit, DuckDB's memory limit
M_ARENA_MAX = -8  # mallopt's parameter (glibc)

THREAD_VARS = ("OMP_NUM_THREADS", "ARROW_IO_THREADS", "NUMBA_NUM_THREADS")


def address_space_limit() -> int | None:
    """The soft ``RLIMIT_AS`` in bytes, or None when there is none."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (OSError, ValueError, AttributeError):
        return None
    return None if soft == resource.RLIM_INFINITY or soft < 0 else int(soft)


def pool_threads(limit: int | None = None) -> int:
    """How many threads a pool may start: the CPU count, fewer under a limit (at least 1)."""
    cpus = os.cpu_count() or 1
    limit = address_space_limit() if limit is None else limit
    if limit is None:
        return cpus
    return max(1, min(cpus, (limit - BASE) // PER_THREAD))


def duckdb_config() -> dict[str, str | bool | int | float | list[str]]:
    """The ``config`` of every DuckDB connection: empty without a limit; under one, the
    threads of :func:`pool_threads` and a memory limit of :data:`DUCKDB_SHARE` of it."""
    limit = address_space_limit()
    if limit is None:
        return {}
    mib = max(64, int(limit * DUCKDB_SHARE) >> 20)
    return {"threads": pool_threads(limit), "memory_limit": f"{mib}MB"}


def _gib(n: int) -> str:
    return f"{n / (1 << 30):.1f} GiB"


def check_address_space(floor: int = FLOOR) -> None:
    """DsqError, naming the limit and what is needed, when the address-space limit in force
    is below ``floor``."""
    limit = address_space_limit()
    if limit is not None and limit < floor:
        raise DsqError(
            f"the address-space limit (ulimit -v {limit >> 10}) is too low: {_gib(limit)}, "
            f"and dsq needs at least {_gib(floor)} (ulimit -v {floor >> 10})"
        )


def out_of_memory() -> str:
    """The message of an allocation that failed: naming the address-space limit when one
    is in force."""
    limit = address_space_limit()
    if limit is None:
        return "out of memory (ask for less, or free some memory)"
    return (
        f"out of memory under the address-space limit (ulimit -v {limit >> 10}, "
        f"{_gib(limit)}): ask for less, or raise the limit"
    )


def fit_to_address_space() -> int | None:
    """Size the thread pools and allocators of this process and of those it starts to the
    address-space limit in force (see the module docstring); the limit, or None (then
    nothing is changed). A variable the environment sets already is left as it is."""
    limit = address_space_limit()
    if limit is None:
        return None
    threads = str(pool_threads(limit))
    for var in THREAD_VARS:
        os.environ.setdefault(var, threads)
    os.environ.setdefault("MALLOC_ARENA_MAX", str(MALLOC_ARENAS))  # the processes started
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    if sys.platform.startswith("linux"):  # this process (its environment was read already)
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
            libc.mallopt(M_ARENA_MAX, int(os.environ["MALLOC_ARENA_MAX"]))
        except (OSError, AttributeError, ValueError):
            pass
    pa = sys.modules.get("pyarrow")
    if pa is not None:  # already loaded: its pools were sized by then
        pa.set_cpu_count(int(threads))
        pa.set_io_thread_count(int(threads))
    return limit
