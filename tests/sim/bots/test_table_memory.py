"""The transposition table's memory: zeros, the shape the search reads, aligned to a huge
page, and backed by huge pages where the kernel's transparent huge pages allow it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from engine import Position
from engine.rng import seed_state
from sim.bots import make_bot
from sim.bots.search_layout import HUGE_PAGE, table_memory

THP = Path("/sys/kernel/mm/transparent_hugepage")


def _setting(name: str) -> str:
    """The kernel's chosen value of a transparent huge pages setting ("never" without one)."""
    path = THP / name
    found = re.search(r"\[([\w+]+)\]", path.read_text()) if path.exists() else None
    return found.group(1) if found else "never"


def _huge_kib(address: int) -> int:
    """AnonHugePages of the mapping of this process holding ``address``, as the kernel
    reports it in /proc/self/smaps."""
    lines = Path("/proc/self/smaps").read_text().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"([0-9a-f]+)-([0-9a-f]+) ", line)
        if m and int(m.group(1), 16) <= address < int(m.group(2), 16):
            for field in lines[i + 1 :]:
                if re.match(r"[0-9a-f]+-[0-9a-f]+ ", field):
                    break
                if field.startswith("AnonHugePages:"):
                    return int(field.split()[1])
    raise AssertionError(f"no mapping holds {address:#x}")


@pytest.mark.parametrize("entries", [1 << 10, 1 << 20])
def test_a_table_is_zeros_of_the_shape_the_search_reads(entries):
    table = table_memory(entries)
    assert table.shape == (entries, 2)
    assert table.dtype == np.int64
    assert table.flags["C_CONTIGUOUS"] and table.flags["WRITEABLE"]
    assert not table.any()
    table[entries - 1, 1] = -1
    table[0, 0] = 7
    assert table.sum() == 6


def test_a_table_of_a_huge_page_or_more_starts_on_a_huge_page():
    for entries in (HUGE_PAGE // 16, 1 << 20, 1 << 22):
        assert table_memory(entries).ctypes.data % HUGE_PAGE == 0


def test_a_bots_table_is_backed_by_huge_pages_where_the_kernel_allows_them():
    mode = _setting("enabled")
    bot = make_bot("alphabeta:depth=2,tt_mb=16", Position().rules, seed_state(1))
    table = bot.ws["tt"]
    assert table.nbytes == 16 << 20
    huge = _huge_kib(table.ctypes.data)
    if mode == "never":  # the kernel maps none: ordinary pages, and the bot still plays
        assert huge == 0
        assert bot.choose(Position().st) >= 0
    elif _setting("defrag") in ("always", "defer+madvise", "madvise"):
        # "always" or "madvise", and an advised fault may compact memory: huge pages
        assert huge > 0
    else:  # huge pages only if some are free at once: whichever, the bot plays
        assert bot.choose(Position().st) >= 0
