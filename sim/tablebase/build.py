"""Building tables: retrograde analysis of one material, and the plan that builds a set of
materials with everything they need (the materials reached by captures first).

:func:`solve` runs the compiled passes of :mod:`sim.tablebase.kernels` and
:mod:`sim.tablebase.levels` on one material, given the tables one capture away.
:func:`build_tables` builds what is missing under a tables folder, in order of piece
count, with a table's colour-swapped twin derived from it instead of solved again,
optionally on several processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import DsqError
from engine.rules import Ruleset
from sim.tablebase import kernels as K
from sim.tablebase import levels as L
from sim.tablebase.material import Material, parse_material
from sim.tablebase.outcomes import MAX_LOSS, MAX_WIN
from sim.tablebase.store import TableError, load_table, rules_key, table_ruleset, write_table
from sim.tablebase.table_passes import side_counts, swap_colours


@dataclass(frozen=True)
class Built:
    """What happened to one material: ``how`` is ``solved``, ``swapped`` (derived from
    its colour-swapped twin), ``present`` (a good file was there) or ``replaced`` (a damaged
    file was solved again); ``positions`` and ``seconds`` of the work done."""

    material: Material
    how: str
    positions: int
    seconds: float
    levels: int = 0


BuildProgress = Callable[[Built], None]


def sub_arrays(material: Material, subs: dict[Material, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The sub-tables of ``material`` concatenated, with the offsets, halves and strides
    the kernels use to index them (see :func:`sim.tablebase.kernels.first_pass`)."""
    n = material.pieces
    sub_off = np.full(n, -1, dtype=np.int64)
    sub_half = np.zeros(n, dtype=np.int64)
    sub_strides = np.zeros((n, n), dtype=np.int64)
    parts: list[np.ndarray] = []
    offset = 0
    for j in range(n):
        sub = material.without(j)
        if sub is None:
            continue
        values = subs[sub]
        parts.append(values)
        sub_off[j] = offset
        offset += values.size
        sub_half[j] = sub.half
        rest = [i for i in range(n) if i != j]
        for pos, i in enumerate(rest):
            sub_strides[j, i] = sub.strides[pos]
    data = np.concatenate(parts) if parts else np.zeros(1, dtype=np.uint8)
    return data, sub_off, sub_half, sub_strides


def solve(
    rules: Ruleset | str,
    material: Material,
    subs: dict[Material, np.ndarray],
    on_level: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, int]:
    """The table of ``material`` (one byte per index entry) and its number of levels.

    ``subs`` holds the tables of the materials one capture away; ``on_level(level,
    decided)`` is called after each level of the propagation.
    """
    ra = table_ruleset(rules).as_array()
    m = material
    codes, kinds, strides = m.codes, m.kinds, m.strides
    sub, sub_off, sub_half, sub_strides = sub_arrays(m, subs)
    val = np.zeros(m.size, dtype=np.uint8)
    cnt = np.zeros(m.size, dtype=np.uint8)
    cap = np.zeros(m.size, dtype=np.uint8)
    top = int(
        K.first_pass(
            codes, kinds, strides, m.half, ra, sub, sub_off, sub_half, sub_strides, val, cnt, cap
        )
    )
    if top > MAX_WIN or (top % 2 == 0 and top > MAX_LOSS):
        raise DsqError(f"{m.name}: a distance of {top} plies does not fit a table byte")
    level = 0
    while True:
        decided = int(L.level_pass(codes, kinds, strides, m.half, ra, val, cnt, cap, level))
        if on_level is not None:
            on_level(level, decided)
        if decided == 0 and level >= top:
            break
        level += 1
        if level > MAX_WIN:
            raise DsqError(f"{m.name}: distances beyond {MAX_WIN} plies do not fit a table byte")
    return val, level


def swap_table(material: Material, twin_values: np.ndarray) -> np.ndarray:
    """The table of ``material`` from the table of its colour-swapped twin."""
    src = material.swapped()
    out = np.empty(material.size, dtype=np.uint8)
    swap_colours(
        material.kinds,
        material.strides,
        material.half,
        src.strides,
        src.half,
        len(src.red),
        twin_values,
        out,
    )
    return out


def counts(material: Material, values: np.ndarray) -> dict[str, Any]:
    """The ``stats`` figures of a table: per side to move, who wins how many positions."""
    rows = side_counts(material.half, values)
    out: dict[str, Any] = {}
    for side, name, other in ((0, "red", "blue"), (1, "blue", "red")):
        wins, losses, draws, positions, longest = (int(x) for x in rows[side])
        by = {name: wins, other: losses}
        out[f"{name}_to_move"] = {
            "red": by["red"],
            "blue": by["blue"],
            "draw": draws,
            "positions": positions,
            "longest_win": longest,
        }
    return out


def plan(materials: Iterable[Material | str]) -> list[Material]:
    """Every material the given ones need (themselves and those reached by captures),
    fewest pieces first."""
    seen: set[Material] = set()
    for m in materials:
        seen.update(parse_material(m).closure())
    return sorted(seen, key=lambda m: (m.pieces, m.name))


def _load_ok(path: Path, key: str, material: Material) -> np.ndarray | None:
    """The values of a good table file, or None when it is missing or damaged."""
    if not path.is_file():
        return None
    try:
        return load_table(path, key, material).values
    except TableError:
        return None


def _solve_and_write(
    key: str, material: Material, root: Path, subs: dict[Material, np.ndarray], want_twin: bool
) -> tuple[list[Built], np.ndarray, np.ndarray | None]:
    """Solve one material, write it, and (``want_twin``) derive and write its twin."""
    path = root / key / f"{material.file_stem}.dsqtb"
    replaced = path.exists()
    t0 = time.perf_counter()
    values, levels = solve(key, material, subs)
    write_table(path, key, material, values, counts(material, values))
    done = [
        Built(
            material,
            "replaced" if replaced else "solved",
            2 * material.positions_per_side,
            time.perf_counter() - t0,
            levels,
        )
    ]
    twin_values = None
    if want_twin:
        twin = material.swapped()
        t1 = time.perf_counter()
        twin_values = swap_table(twin, values)
        write_table(
            root / key / f"{twin.file_stem}.dsqtb",
            key,
            twin,
            twin_values,
            counts(twin, twin_values),
        )
        done.append(Built(twin, "swapped", 2 * twin.positions_per_side, time.perf_counter() - t1))
    return done, values, twin_values


def _worker(key: str, material: Material, root: str, want_twin: bool) -> list[Built]:
    """A pool worker: load the sub-tables from disk, solve, write."""
    subs: dict[Material, np.ndarray] = {}
    for sub in material.sub_materials():
        path = Path(root) / key / f"{sub.file_stem}.dsqtb"
        subs[sub] = load_table(path, key, sub).values
    done, _, _ = _solve_and_write(key, material, Path(root), subs, want_twin)
    return done


def build_tables(
    rules: Ruleset | str,
    materials: Iterable[Material | str],
    root: Path,
    progress: BuildProgress | None = None,
    jobs: int = 1,
) -> list[Built]:
    """Build every table the given materials need that is not on disk (or is damaged)
    under ``root``; return what was done for each, in order. ``jobs > 1`` solves the
    materials of one piece count on that many processes."""
    key = rules_key(rules)
    root = Path(root)
    todo = plan(materials)
    report: list[Built] = []
    memo: dict[Material, np.ndarray] = {}
    top = max((m.pieces for m in todo), default=0)

    def note(b: Built) -> None:
        report.append(b)
        if progress is not None:
            progress(b)

    missing: list[Material] = []
    for m in todo:
        values = _load_ok(root / key / f"{m.file_stem}.dsqtb", key, m)
        if values is None:
            missing.append(m)
        else:
            if m.pieces < top:
                memo[m] = values
            note(Built(m, "present", 0, 0.0))
    wanted = set(missing)
    for pieces in sorted({m.pieces for m in missing}):
        layer = [m for m in missing if m.pieces == pieces]
        firsts: list[tuple[Material, bool]] = []
        claimed: set[Material] = set()
        for m in layer:
            if m in claimed:
                continue
            twin = m.swapped()
            want_twin = twin != m and twin in wanted
            claimed.update((m, twin))
            firsts.append((m, want_twin))
        if jobs > 1 and len(firsts) > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = [pool.submit(_worker, key, m, str(root), w) for m, w in firsts]
                for fut in futures:
                    for b in fut.result():
                        note(b)
            if pieces < top:
                for m, w in firsts:
                    for x in (m, m.swapped()) if w else (m,):
                        memo[x] = load_table(root / key / f"{x.file_stem}.dsqtb", key, x).values
            continue
        for m, want_twin in firsts:
            subs = {
                s: memo[s] if s in memo else _must_load(root, key, s) for s in m.sub_materials()
            }
            done, values, twin_values = _solve_and_write(key, m, root, subs, want_twin)
            if pieces < top:
                memo[m] = values
                if twin_values is not None:
                    memo[m.swapped()] = twin_values
            for b in done:
                note(b)
    return report


def _must_load(root: Path, key: str, material: Material) -> np.ndarray:
    return load_table(root / key / f"{material.file_stem}.dsqtb", key, material).values
