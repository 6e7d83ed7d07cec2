"""A study file (TOML) read into a :class:`Study`: its rule sets, ladder, pairings and games.

Every error names the file and the key (``atlas.toml: ladder.bots[2]: unknown bot kind
'alphabta'``); see docs/studies.md for the format.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine import parse_rules
from engine.errors import DsqError
from engine.rules import OPTION_NAMES
from sim.storage.recordcheck import MAX_OPENING_PLIES, MAX_PLY_CAP
from sim.storage.textfiles import read_named_toml
from sim.study.errors import StudyError
from sim.study.errors import err as _err
from sim.study.suite import read_openings

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,59}")
DESIGNS = ("full", "one_at_a_time", "half")
PAIRINGS = ("self", "mixed", "both")
TOP_KEYS = {
    "name",
    "title",
    "seed",
    "ply_cap",
    "opening_plies",
    "openings",
    "openings_order",
    "rules",
    "ladder",
    "games",
    "run",
    "quick",
}
RULES_KEYS = {"specs", "base", "grid", "design", "interactions"}
LADDER_KEYS = {"bots", "pairings"}
GAMES_KEYS = {"per_cell", "target", "cap", "step", "mixed_per_cell"}
RUN_KEYS = {"workers", "scheduler"}
QUICK_KEYS = {"per_cell", "bots", "rules"}


@dataclass(frozen=True)
class Cell:
    """One cell of a study: a rule set and a pairing (``red`` and ``blue`` bot specs,
    canonical), with the batches that play it. ``rung`` is the ladder index of a self-play
    pairing, None for a mixed one."""

    index: int
    rules: str
    red: str
    blue: str
    rung: int | None
    options: dict[str, Any] = field(default_factory=dict)  # grid option -> value (grid cells)

    @property
    def pairing(self) -> str:
        """``BOT`` for self-play, ``RED vs BLUE`` for a mixed pairing (short specs)."""
        # lazy: start-up time (the bot catalogue)
        from sim.bots.spec import short_spec

        red, blue = short_spec(self.red), short_spec(self.blue)
        return red if self.red == self.blue else f"{red} vs {blue}"


@dataclass(frozen=True)
class Games:
    """How many games a cell plays: ``per_cell``, or rounds of ``step`` games until the
    first player's score interval is at most ``±target`` wide or ``cap`` games are played."""

    per_cell: int | None = None
    target: float | None = None
    cap: int | None = None
    step: int | None = None
    mixed_per_cell: int | None = None  # the games of a mixed pairing, when not the above

    def rounds(self) -> int:
        """The most batches a cell can take."""
        if self.target is None:
            return 1
        assert self.cap is not None and self.step is not None
        return -(-self.cap // self.step)

    def round_games(self, k: int) -> int:
        """The games of round ``k`` (0-based)."""
        if self.target is None:
            assert self.per_cell is not None
            return self.per_cell
        assert self.cap is not None and self.step is not None
        return min(self.step, self.cap - k * self.step)

    def most(self) -> int:
        """The most games a cell can play."""
        return self.per_cell if self.target is None else int(self.cap or 0)  # type: ignore[return-value]


@dataclass(frozen=True)
class Study:
    """A study file, read and checked (canonical specs). ``plan()`` is what must not change
    once the study has started; ``run`` (workers, scheduler) may."""

    name: str
    title: str
    path: str
    seed: int
    ply_cap: int
    opening_plies: int
    base: str | None
    design: str | None
    grid: dict[str, list[Any]]
    interactions: bool
    bots: list[str]
    pairings: str
    games: Games
    cells: list[Cell]
    workers: int = 1
    scheduler: str | None = None
    quick: bool = False
    openings: str = ""  # the opening suite's canonical text (sim.play.openings); "": none
    openings_order: str = "sequential"

    def games_for(self, cell: Cell) -> Games:
        """The games of ``cell``: ``games.mixed_per_cell`` for a mixed pairing if given."""
        if cell.rung is None and self.games.mixed_per_cell is not None:
            return Games(per_cell=self.games.mixed_per_cell)
        return self.games

    def plan(self) -> dict[str, Any]:
        """Everything that decides the games played (compared when a study is resumed)."""
        return {
            "name": self.name,
            "seed": self.seed,
            "ply_cap": self.ply_cap,
            "opening_plies": self.opening_plies,
            "games": asdict(self.games),
            "cells": [[c.rules, c.red, c.blue] for c in self.cells],
            **self._suite_plan(),
        }

    def _suite_plan(self) -> dict[str, Any]:
        """The opening suite's part of the plan: its content's hash and order (none
        without a suite, so plans recorded before the key existed still compare)."""
        if not self.openings:
            return {}
        digest = hashlib.sha256(self.openings.encode("utf-8")).hexdigest()
        return {"openings": digest, "openings_order": self.openings_order}

    def batch_id(self, cell: Cell, k: int) -> str:
        """The batch of round ``k`` of ``cell``: ``NAME-CELL-ROUND``."""
        return f"{self.name}-c{cell.index:03d}-r{k:02d}"

    def batch_seed(self, cell: Cell, k: int) -> int:
        """Round ``k``'s batch seed: the same for every rule set of a pairing (the rule
        sets are compared on the same seeds)."""
        text = f"{self.seed}:{cell.red}:{cell.blue}:{k}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:6], "big") % (2**31)

    def label(self, cell: Cell) -> str:
        """The label of a cell's batches (``study NAME cell N: RULES, PAIRING``)."""
        return f"study {self.name} cell {cell.index}: {cell.rules}, {cell.pairing}"[:200]


def _int(path: str, key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _err(path, key, f"must be an integer from {low:,} to {high:,}, got {value!r}")
    return value


def _unknown(path: str, prefix: str, table: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _err(path, prefix, "must be a table")
    for key in table:
        if key not in allowed:
            where = f"{prefix}.{key}" if prefix else key
            raise _err(path, where, f"unknown key (known: {', '.join(sorted(allowed))})")
    return table


def _rules(path: str, key: str, spec: Any) -> str:
    if not isinstance(spec, str):
        raise _err(path, key, f"must be a rules spec (text), got {spec!r}")
    try:
        return parse_rules(spec).spec
    except DsqError as exc:
        raise _err(path, key, str(exc)) from None


def _bot(path: str, key: str, spec: Any) -> str:
    # lazy: start-up time (the bot catalogue)
    from sim.bots import parse_bot

    if not isinstance(spec, str):
        raise _err(path, key, f"must be a bot spec (text), got {spec!r}")
    try:
        return parse_bot(spec).canonical
    except DsqError as exc:
        raise _err(path, key, str(exc)) from None


def _grid_sets(path: str, base: str, grid: dict[str, list[Any]], design: str) -> list[dict]:
    """The grid's option settings (dicts option -> value; the base's values left out)."""
    base_rules = parse_rules(base)
    levels = {
        o: [getattr(base_rules, o)] + [v for v in vs if v != getattr(base_rules, o)]
        for o, vs in grid.items()
    }
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
    if design == "half" and any(len(v) != 2 for v in levels.values()):
        raise _err(path, "rules.design", "'half' needs exactly two levels of every option")
    return sets


def _spec_of(base: str, options: dict[str, Any]) -> str:
    parts = [base]
    for o, v in options.items():
        parts.append(f"{o}={str(v).lower() if isinstance(v, bool) else v}")
    return "+".join(parts)


def _read_rules(
    path: str, table: Any
) -> tuple[list[tuple[str, dict]], dict, str | None, str | None, bool]:
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
        base = _rules(path, "rules.base", base)
        _unknown(path, "rules.grid", grid, set(OPTION_NAMES))
        for o, vs in grid.items():
            if not isinstance(vs, list) or not vs:
                raise _err(path, f"rules.grid.{o}", "must be a non-empty list of values")
            for i, v in enumerate(vs):
                _rules(path, f"rules.grid.{o}[{i}]", _spec_of(base, {o: v}))
        design = design or "full"
        if design not in DESIGNS:
            raise _err(path, "rules.design", f"must be one of {', '.join(DESIGNS)}, got {design!r}")
        for opts in _grid_sets(path, base, grid, design):
            out.append((_rules(path, "rules.grid", _spec_of(base, opts)), opts))
    elif "grid" in t:
        raise _err(path, "rules.grid", "the grid is empty")
    elif design is not None or base is not None:
        raise _err(path, "rules.design" if design is not None else "rules.base", "needs a grid")
    for i, s in enumerate(specs):
        spec = _rules(path, f"rules.specs[{i}]", s)
        if spec not in [r for r, _ in out]:
            out.append((spec, {}))
    if not out:
        raise _err(path, "rules", "no rule set: give specs, or a base and a grid")
    interactions = t.get("interactions", False)
    if not isinstance(interactions, bool):
        raise _err(path, "rules.interactions", "must be true or false")
    return out, grid, base, design, interactions


def _read_games(path: str, table: Any, prefix: str = "games") -> Games:
    # lazy: start-up time (the batch package)
    from sim.batch.spec import MAX_GAMES

    g = dict(_unknown(path, prefix, table, GAMES_KEYS))
    mixed = g.pop("mixed_per_cell", None)
    if mixed is not None:
        mixed = _int(path, f"{prefix}.mixed_per_cell", mixed, 2, MAX_GAMES)
        if mixed % 2:
            raise _err(path, f"{prefix}.mixed_per_cell", "mixed pairings swap colours: even")
        inner = _read_games(path, g, prefix)
        return Games(inner.per_cell, inner.target, inner.cap, inner.step, mixed)
    if "per_cell" in g:
        if {"target", "cap", "step"} & set(g):
            raise _err(path, prefix, "give per_cell, or target with cap and step, not both")
        return Games(per_cell=_int(path, f"{prefix}.per_cell", g["per_cell"], 2, MAX_GAMES))
    if "target" not in g:
        raise _err(path, prefix, "give per_cell, or target (with cap and step)")
    target = g["target"]
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 0.5:
        raise _err(
            path, f"{prefix}.target", f"must be a half-width between 0 and 0.5, got {target!r}"
        )
    cap = _int(path, f"{prefix}.cap", g.get("cap"), 2, MAX_GAMES)
    step = _int(path, f"{prefix}.step", g.get("step", min(cap, 200)), 2, cap)
    return Games(target=float(target), cap=cap, step=step)


def _pairings(bots: list[str], mode: str) -> list[tuple[str, str, int | None]]:
    out: list[tuple[str, str, int | None]] = []
    if mode in ("self", "both"):
        out += [(b, b, i) for i, b in enumerate(bots)]
    if mode in ("mixed", "both"):
        out += [(a, b, None) for a, b in itertools.pairwise(bots)]
    return out


MAX_STUDY_FILE_BYTES = 1 << 20  # a study file is a page of TOML


def load_study(file: str | Path, quick: bool = False) -> Study:
    """Read and check a study file; ``quick`` applies its ``[quick]`` table (fewer games,
    optionally fewer bots or rule sets) under the name ``NAME-quick``."""
    path = str(file)
    raw = read_named_toml(path, "the study file", MAX_STUDY_FILE_BYTES, StudyError)
    _unknown(path, "", raw, TOP_KEYS)
    name = raw.get("name")
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise _err(path, "name", "must be 1 to 60 letters, digits, '-' or '_'")
    seed = _int(path, "seed", raw.get("seed", 1), 0, 2**31 - 1)
    ply_cap = _int(path, "ply_cap", raw.get("ply_cap", 1000), 1, MAX_PLY_CAP)
    opening = _int(path, "opening_plies", raw.get("opening_plies", 0), 0, MAX_OPENING_PLIES)
    if opening >= ply_cap:
        raise _err(path, "opening_plies", f"must be below ply_cap ({ply_cap})")
    rules, grid, base, design, interactions = _read_rules(path, raw.get("rules", {}))
    ladder = _unknown(path, "ladder", raw.get("ladder", {}), LADDER_KEYS)
    bots_raw = ladder.get("bots")
    if not isinstance(bots_raw, list) or not bots_raw:
        raise _err(path, "ladder.bots", "must be a non-empty list of bot specs")
    bots = [_bot(path, f"ladder.bots[{i}]", b) for i, b in enumerate(bots_raw)]
    pairings = ladder.get("pairings", "self")
    if pairings not in PAIRINGS:
        raise _err(
            path, "ladder.pairings", f"must be one of {', '.join(PAIRINGS)}, got {pairings!r}"
        )
    if pairings != "self" and len(bots) < 2:
        raise _err(path, "ladder.pairings", "mixed pairings need two bots at least")
    games = _read_games(path, raw.get("games", {}))
    if quick:
        q = _unknown(path, "quick", raw.get("quick", {}), QUICK_KEYS)
        if "per_cell" not in q:
            raise _err(path, "quick.per_cell", "--quick needs the games per cell of a first look")
        games = _read_games(path, {"per_cell": q["per_cell"]}, "quick")
        if "bots" in q:
            bots = [_bot(path, f"quick.bots[{i}]", b) for i, b in enumerate(q["bots"])]
        if "rules" in q:
            keep = [_rules(path, f"quick.rules[{i}]", s) for i, s in enumerate(q["rules"])]
            rules = [r for r in rules if r[0] in keep]
        name = f"{name}-quick"
    suite, order = read_openings(path, raw, [r for r, _ in rules], opening, ply_cap)
    run = _unknown(path, "run", raw.get("run", {}), RUN_KEYS)
    workers = _int(path, "run.workers", run.get("workers", 1), 1, 256)
    scheduler = run.get("scheduler") or None
    cells: list[Cell] = []
    for rules_spec, opts in rules:
        for red, blue, rung in _pairings(bots, pairings):
            cells.append(Cell(len(cells), rules_spec, red, blue, rung, dict(opts)))
    if (
        pairings != "self"
        and games.mixed_per_cell is None
        and any(n % 2 for n in (games.per_cell or 0, games.step or 0, games.cap or 0))
    ):
        raise _err(path, "games", "mixed pairings swap colours: the games must be even")
    title = raw.get("title", name)
    return Study(
        name, str(title), path, seed, ply_cap, opening, base, design,
        {k: list(v) for k, v in grid.items()}, interactions, bots, pairings, games, cells,
        workers, scheduler, quick, suite, order,
    )  # fmt: skip
