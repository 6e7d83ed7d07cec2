"""The rule sets of a study file (its ``[rules]`` table): named specs, and a grid of
options over a base in a full, half-fraction or one-at-a-time design."""

from __future__ import annotations

import itertools
import math
from typing import Any

from engine import parse_rules
from engine.errors import DsqError
from engine.rules import OPTION_NAMES
from sim.study.axes import MAX_CELLS
from sim.study.errors import err as _err
from sim.study.games import _unknown

DESIGNS = ("full", "one_at_a_time", "half")
RULES_KEYS = {"specs", "base", "grid", "design", "interactions"}


def rules_spec(path: str, key: str, spec: Any) -> str:
    """The canonical spec of rules text ``spec`` (StudyError naming the key otherwise)."""
    if not isinstance(spec, str):
        raise _err(path, key, f"must be a rules spec (text), got {spec!r}")
    try:
        return parse_rules(spec).spec
    except DsqError as exc:
        raise _err(path, key, str(exc)) from None


def _levels(base: str, grid: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Each grid option's levels: the base's value first, then the others given."""
    base_rules = parse_rules(base)
    return {
        o: [getattr(base_rules, o)] + [v for v in vs if v != getattr(base_rules, o)]
        for o, vs in grid.items()
    }


def grid_size(levels: dict[str, list[Any]], design: str) -> int:
    """How many rule sets a grid of ``levels`` makes in ``design``, counted without making
    them (a product of level counts can be millions)."""
    if design == "one_at_a_time":
        return 1 + sum(len(vs) - 1 for vs in levels.values())
    full = math.prod(len(vs) for vs in levels.values())
    return full // 2 if design == "half" and levels else full


def _grid_sets(base: str, grid: dict[str, list[Any]], design: str) -> list[dict]:
    """The grid's option settings (dicts option -> value; the base's values left out)."""
    base_rules = parse_rules(base)
    levels = _levels(base, grid)
    names = list(levels)
    sets: list[dict[str, Any]]
    if design == "one_at_a_time":
        sets = [{}] + [{o: v} for o in names for v in levels[o][1:]]
    else:
        sets = []
        for combo in itertools.product(*(levels[o] for o in names)):
            chosen = {
                o: v for o, v in zip(names, combo, strict=True) if v != getattr(base_rules, o)
            }
            if design == "half" and len(chosen) % 2:
                continue  # the half fraction I = AB...K: an even number of options changed
            sets.append(chosen)
    return sets


def _spec_of(base: str, options: dict[str, Any]) -> str:
    parts = [base]
    for o, v in options.items():
        parts.append(f"{o}={str(v).lower() if isinstance(v, bool) else v}")
    return "+".join(parts)


def read_rules(
    path: str, table: Any, cells_each: int = 1, exact: bool = False
) -> tuple[list[tuple[str, dict]], dict, str | None, str | None, bool]:
    """The rule sets of the ``[rules]`` table (canonical spec and grid options each), the
    grid, its base and design, and whether interactions are estimated. Each rule set makes
    ``cells_each`` cells (``exact``: without ``[[block]]`` tables; else at least one): a
    grid that would make more than :data:`sim.study.axes.MAX_CELLS` cells is refused with
    their number before any rule set is made."""
    t = _unknown(path, "rules", table, RULES_KEYS)
    out: list[tuple[str, dict]] = []
    specs = t.get("specs", [])
    if not isinstance(specs, list):
        raise _err(path, "rules.specs", "must be a list of rules specs")
    grid = t.get("grid", {})
    base = t.get("base")
    design = t.get("design")
    if grid:
        if base is None:
            raise _err(path, "rules.base", "a grid needs a base rules spec")
        base = rules_spec(path, "rules.base", base)
        _unknown(path, "rules.grid", grid, set(OPTION_NAMES))
        for o, vs in grid.items():
            if not isinstance(vs, list) or not vs:
                raise _err(path, f"rules.grid.{o}", "must be a non-empty list of values")
            for i, v in enumerate(vs):
                rules_spec(path, f"rules.grid.{o}[{i}]", _spec_of(base, {o: v}))
        design = design or "full"
        if design not in DESIGNS:
            raise _err(path, "rules.design", f"must be one of {', '.join(DESIGNS)}, got {design!r}")
        levels = _levels(base, grid)
        if design == "half" and any(len(v) != 2 for v in levels.values()):
            raise _err(path, "rules.design", "'half' needs exactly two levels of every option")
        sets = grid_size(levels, design)
        if sets * cells_each > MAX_CELLS:
            made = f"{sets * cells_each:,} cells" if exact else f"{sets:,} rule sets"
            raise _err(path, "rules.grid", f"would make {made}, more than the {MAX_CELLS:,} "
                       "cells a study may have")  # fmt: skip
        for opts in _grid_sets(base, grid, design):
            out.append((rules_spec(path, "rules.grid", _spec_of(base, opts)), opts))
    elif "grid" in t:
        raise _err(path, "rules.grid", "the grid is empty")
    elif design is not None or base is not None:
        raise _err(path, "rules.design" if design is not None else "rules.base", "needs a grid")
    for i, s in enumerate(specs):
        spec = rules_spec(path, f"rules.specs[{i}]", s)
        if spec not in [r for r, _ in out]:
            out.append((spec, {}))
    if not out:
        raise _err(path, "rules", "no rule set: give specs, or a base and a grid")
    interactions = t.get("interactions", False)
    if not isinstance(interactions, bool):
        raise _err(path, "rules.interactions", "must be true or false")
    return out, grid, base, design, interactions
