"""The scores and the arrays of the alpha-beta search (:mod:`sim.bots.search`).

Scores are for the side to move, a win ``p`` plies from the root ``MATE - p`` (beyond
``MATE_BOUND``), within ``±INF``. The search works in few arrays (numba passes each array
as a wide struct to every recursive call): ``tt`` (``int64[entries, 2]``: key, packed
data), ``ml`` (``int32[ply, 2 * MAX_MOVES]``: moves, then their ordering scores), ``pv``
(triangular table, length first) and ``ws`` (``int64``: control words ``C_*``, the animal
values at ``V_OFF``, history, killers, more control words ``X_*`` and the ring of position
hashes; a tuned evaluation's weights follow at ``EVAL_OFF``). :func:`new_workspace`
makes them.
"""

from __future__ import annotations

import mmap

import numpy as np

from engine import core
from engine.board import NSQ
from sim.bots.evaluate import EVAL_END, EVAL_OFF, V_OFF, params_array

MATE = 30000
MATE_BOUND = MATE - 1000
INF = 32000
MAX_PLY = 96
MM = core.MAX_MOVES

# Control words of ``ws`` (``V_OFF`` = 8 of them at most).
C_NODES, C_LIMIT, C_DEADLINE, C_ABORT, C_SALT, C_NOISE, C_SELDEPTH, C_BUDGET = range(8)
HIST_OFF = V_OFF + 8  # history scores by history_slot (HIST_USED of the 4096 reserved)
HIST_USED = NSQ * 8
KILL_OFF = HIST_OFF + 4096  # two killers per ply
X_OFF = KILL_OFF + 2 * (MAX_PLY + 2)  # more control words
X_ROOT_SIDE, X_CONTEMPT, X_LMR = X_OFF, X_OFF + 1, X_OFF + 2
REP_RING = 256  # hashes of the last positions, by ply number modulo REP_RING
REP_OFF = X_OFF + 8
REP_LOOKBACK = 120
assert REP_OFF + REP_RING <= EVAL_OFF  # a tuned evaluation's block follows
WS_SIZE = EVAL_END


HUGE_PAGE = 1 << 21  # the size of a huge page on x86-64 and most arm64 kernels


def table_memory(entries: int) -> np.ndarray:
    """An ``int64[entries, 2]`` array of zeros for the transposition table, in anonymous
    memory aligned to a huge page, which the kernel is asked to back with huge pages
    (transparent huge pages, where the system allows them): each probe of a table of many
    megabytes lands on a random page, and with 4 KiB pages most probes miss the TLB."""
    size = entries * 16
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None or size < HUGE_PAGE:
        return np.zeros((entries, 2), dtype=np.int64)
    try:
        area = mmap.mmap(-1, size + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except OSError:  # no room (an address-space limit): numpy's MemoryError says so
        return np.zeros((entries, 2), dtype=np.int64)
    raw = np.frombuffer(area, dtype=np.uint8)
    start = -raw.ctypes.data % HUGE_PAGE
    try:
        area.madvise(advice, start, size)
    except OSError:
        pass  # not allowed here: ordinary pages
    return raw[start : start + size].view(np.int64).reshape(entries, 2)


def new_workspace(
    tt_entries: int, values: np.ndarray, block: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """The arrays one search needs (``tt_entries`` a power of two; ``block``: a tuned
    evaluation's weights, see :func:`sim.bots.evaluate.params_array`)."""
    ws = params_array(values, block, WS_SIZE)
    return {
        "tt": table_memory(tt_entries),
        "ml": np.zeros((MAX_PLY + 2, 2 * MM), dtype=np.int32),
        "pv": np.zeros((MAX_PLY + 2, MAX_PLY + 2), dtype=np.int32),
        "ws": ws,
    }
