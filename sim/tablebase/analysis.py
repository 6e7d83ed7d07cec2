"""What one table says as a whole: its counts (``dsq tablebase stats``), a check of every
position against its successors (``dsq tablebase verify``), and the share of won
positions with one piece on each square (the dashboard's heatmap)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.core import new_state
from engine.errors import DsqError
from engine.fen import format_fen
from engine.rules import Ruleset, parse_rules
from engine.state import P_SQ, S_SIDE
from sim.tablebase.build import BuildProgress, Built, build_tables, counts, sub_arrays
from sim.tablebase.material import Material, parse_material, squares_of
from sim.tablebase.store import TableCache, TableError, cache_for, rules_key, table_ruleset
from sim.tablebase.table_passes import square_shares, verify_pass


def ensure_table(
    rules: Ruleset | str,
    material: Material | str,
    root: Path | str | None = None,
    progress: BuildProgress | None = None,
) -> list[Built]:
    """Build the table of ``material`` (and what it needs) when it is missing or damaged."""
    cache = cache_for(root)
    return build_tables(rules, [parse_material(material)], cache.root, progress)


def table_stats(
    rules: Ruleset | str, material: Material | str, root: Path | str | None = None
) -> dict[str, Any]:
    """``{"rules", "material", "red_to_move": {...}, "blue_to_move": {...}}`` of a table on
    disk (``rules`` is the canonical spec of the given rule set)."""
    ruleset = parse_rules(rules)
    m = parse_material(material)
    table = _get(cache_for(root), rules_key(ruleset), m)
    figures = counts(m, table.values)
    return {"rules": ruleset.spec, "material": m.name, **figures}


def _get(cache: TableCache, key: str, material: Material):  # noqa: ANN202 - a store.Table
    table = cache.get(key, material)
    if table is None:
        raise TableError(f"no table {material.name} for rules {key} in {cache.root}")
    return table


@dataclass(frozen=True)
class Verified:
    """The result of checking a table: positions checked and how many are wrong (with the
    FEN of the first wrong one)."""

    material: Material
    checked: int
    wrong: int
    first_wrong: str | None


def verify_table(
    rules: Ruleset | str, material: Material | str, root: Path | str | None = None
) -> Verified:
    """Check every position of a stored table: its value must be the best over its moves,
    read from the table itself and the tables one capture away (all read from disk)."""
    ruleset = parse_rules(rules)
    key = rules_key(ruleset)
    m = parse_material(material)
    cache = cache_for(root)
    table = _get(cache, key, m)
    subs = {s: _get(cache, key, s).values for s in m.sub_materials()}
    sub, sub_off, sub_half, sub_strides = sub_arrays(m, subs)
    ra = table_ruleset(ruleset).as_array()
    checked, wrong, first = verify_pass(
        m.codes, m.kinds, m.strides, m.half, ra, sub, sub_off, sub_half, sub_strides, table.values
    )
    return Verified(m, int(checked), int(wrong), fen_of(m, int(first)) if first >= 0 else None)


def fen_of(material: Material, index: int) -> str:
    """The FEN of a table index (clock 0, move 1)."""

    squares, side = squares_of(material, index)
    st = new_state(1)
    for code, sq in zip(material.codes, squares, strict=True):
        st[int(sq)] = int(code)
        st[P_SQ + int(code)] = int(sq)
    st[S_SIDE] = side
    return format_fen(st)


def square_heatmap(
    rules: Ruleset | str,
    material: Material | str,
    piece: int,
    side: int,
    root: Path | str | None = None,
) -> np.ndarray:
    """For piece ``piece`` (index order) and ``side`` to move: an array (63, 4) holding per
    square the positions with that piece there, and how many the side to move wins, loses
    and draws (rows of squares where the piece cannot stand are zero)."""
    m = parse_material(material)
    if not 0 <= piece < m.pieces or side not in (0, 1):
        raise DsqError(f"{m.name} has pieces 0..{m.pieces - 1} and sides 0, 1")
    table = _get(cache_for(root), rules_key(rules), m)
    return square_shares(m.kinds, m.strides, m.half, table.values, piece, side)
