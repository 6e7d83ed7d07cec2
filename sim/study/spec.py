"""A study file (TOML) read into a :class:`Study`: its rule sets, bot families (ladders),
opening protocols, seed sets, the cells they make and the games of each.

Every error names the file and the key (``atlas.toml: ladder.bots[2]: unknown bot kind
'alphabta'``); see docs/studies.md for the format.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.bots import parse_bot
from sim.bots.spec import short_spec
from sim.bots.variety import VARIETY_PLIES, distinct_limit, repeats_games
from sim.storage.recordcheck import MAX_OPENING_PLIES, MAX_PLY_CAP
from sim.storage.textfiles import read_named_toml
from sim.study import axes
from sim.study.axes import Family, Protocol, protocol_label
from sim.study.errors import StudyError
from sim.study.errors import err as _err
from sim.study.games import Games, _int, _unknown, read_games
from sim.study.pins import pin_cells, read_evals
from sim.study.rulesets import read_rules, rules_spec
from sim.study.suite import SuiteChecks, read_openings

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,59}")
PAIRINGS = axes.PAIRINGS
TOP_KEYS = {
    "name", "title", "seed", "ply_cap", "opening_plies", "openings", "openings_order",
    "rules", "ladder", "families", "axes", "block", "evals", "games", "run", "quick",
}  # fmt: skip
LADDER_KEYS = {"bots", "pairings"}
RUN_KEYS = {"workers", "scheduler"}
QUICK_KEYS = {"per_cell", "bots", "rules"}


VS = " vs "  # between a mixed pairing's bots (a bot spec has no spaces)


def pairing_bots(pairing: str) -> list[str]:
    """The bots of a pairing as :attr:`Cell.pairing` names it: one for self-play, Red's
    and Blue's for a mixed pairing."""
    return pairing.split(VS)


@dataclass(frozen=True)
class Cell:
    """One cell of a study: a rule set and a pairing (``red`` and ``blue`` bot specs,
    canonical, as the study file gives them), with the batches that play it. ``rung`` is
    the ladder index of a self-play pairing, None for a mixed one; ``family``, ``opening``
    (a protocol label) and ``seed_set`` (an index) are its robustness condition ("", "" and
    0 in a single-ladder study: its ladder, protocol and seed)."""

    index: int
    rules: str
    red: str
    blue: str
    rung: int | None
    options: dict[str, Any] = field(default_factory=dict)  # grid option -> value (grid cells)
    family: str = ""
    opening: str = ""
    seed_set: int = 0
    per_cell: int | None = None  # its block's games (None: the study's [games])

    @property
    def pairing(self) -> str:
        """``BOT`` for self-play, ``RED vs BLUE`` for a mixed pairing (short specs)."""
        red, blue = short_spec(self.red), short_spec(self.blue)
        return red if self.red == self.blue else f"{red}{VS}{blue}"

    @property
    def condition(self) -> str:
        """The cell's condition in words: its pairing, and the family, opening protocol and
        seed set where the study has those axes."""
        parts = [self.pairing]
        if self.family:
            parts.insert(0, f"[{self.family}]")
        if self.opening:
            parts.append(self.opening)
        if self.family or self.seed_set:
            parts.append(f"seeds#{self.seed_set}")
        return " ".join(parts)


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
    openings: str = ""  # the opening suite's canonical text (sim.openings.suite); "": none
    openings_order: str = "sequential"
    families: list[Family] = field(default_factory=list)  # empty: the one [ladder]
    protocols: dict[str, Protocol] = field(default_factory=dict)  # label -> protocol
    seeds: list[int] = field(default_factory=list)  # empty: [seed]
    pins: dict[str, str] = field(default_factory=dict)  # "RULES|SPEC" -> pinned spec

    def games_for(self, cell: Cell) -> Games:
        """The games of ``cell``: its block's ``per_cell`` if given, else
        ``games.mixed_per_cell`` for a mixed pairing if given, else ``[games]``."""
        if cell.per_cell is not None:
            return Games(per_cell=cell.per_cell)
        if cell.rung is None and self.games.mixed_per_cell is not None:
            return Games(per_cell=self.games.mixed_per_cell)
        return self.games

    def protocol(self, cell: Cell) -> Protocol:
        """The opening protocol of ``cell``."""
        if cell.opening:
            return self.protocols[cell.opening]
        label = protocol_label(self.opening_plies, "suite" if self.openings else "")
        return Protocol(label, self.opening_plies, "", self.openings, self.openings_order)

    def pinned(self, cell: Cell) -> tuple[str, str]:
        """The bots ``cell`` is played with: its specs with the evaluation pinned by content
        (as recorded when the study started), under its rules."""
        return (
            self.pins.get(f"{cell.rules}|{cell.red}", cell.red),
            self.pins.get(f"{cell.rules}|{cell.blue}", cell.blue),
        )

    def plan(self) -> dict[str, Any]:
        """Everything that decides the games played (compared when a study is resumed)."""
        out: dict[str, Any] = {
            "name": self.name,
            "seed": self.seed,
            "ply_cap": self.ply_cap,
            "opening_plies": self.opening_plies,
            "games": asdict(self.games),
            "cells": [self._cell_key(c) for c in self.cells],
            **self._suite_plan(),
        }
        if self.seeds:
            out["seeds"] = list(self.seeds)
        if self.protocols:
            out["protocols"] = {
                k: [p.plies, _digest(p.openings), p.order] for k, p in self.protocols.items()
            }
        if self.pins:
            out["pins"] = dict(sorted(self.pins.items()))
        return out

    @staticmethod
    def _cell_key(c: Cell) -> list[Any]:
        key: list[Any] = [c.rules, c.red, c.blue]
        if c.family or c.opening or c.seed_set or c.per_cell:
            key += [c.family, c.opening, c.seed_set]
        if c.per_cell:
            key.append(c.per_cell)
        return key

    def _suite_plan(self) -> dict[str, Any]:
        """The opening suite's part of the plan: its content's hash and order (none
        without a suite, so plans recorded before the key existed still compare)."""
        if not self.openings:
            return {}
        return {"openings": _digest(self.openings), "openings_order": self.openings_order}

    def batch_id(self, cell: Cell, k: int) -> str:
        """The batch of round ``k`` of ``cell``: ``NAME-CELL-ROUND``."""
        return f"{self.name}-c{cell.index:03d}-r{k:02d}"

    def batch_seed(self, cell: Cell, k: int) -> int:
        """Round ``k``'s batch seed: the same for every rule set of a pairing (the rule
        sets are compared on the same seeds), from the cell's seed set."""
        seed = self.seeds[cell.seed_set] if self.seeds else self.seed
        text = f"{seed}:{cell.red}:{cell.blue}:{k}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:6], "big") % (2**31)

    def batch_spec(self, cell: Cell, k: int) -> Any:
        """The :class:`sim.batch.BatchSpec` of round ``k`` of ``cell``."""
        # lazy: start-up time (the batch package)
        from sim.batch import make_spec

        red, blue = self.pinned(cell)
        p = self.protocol(cell)
        return make_spec(
            cell.rules, red, blue, self.games_for(cell).round_games(k),
            seed=self.batch_seed(cell, k), swap=cell.red != cell.blue,
            opening_plies=p.plies, ply_cap=self.ply_cap, openings=p.openings,
            openings_order=p.order,
        )  # fmt: skip

    def label(self, cell: Cell) -> str:
        """The label of a cell's batches (``study NAME cell N: RULES, CONDITION``)."""
        return f"study {self.name} cell {cell.index}: {cell.rules}, {cell.condition}"[:200]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if text else ""


def _bot(path: str, key: str, spec: Any) -> str:
    if not isinstance(spec, str):
        raise _err(path, key, f"must be a bot spec (text), got {spec!r}")
    try:
        return parse_bot(spec).canonical
    except DsqError as exc:
        raise _err(path, key, str(exc)) from None


MAX_STUDY_FILE_BYTES = 1 << 20  # a study file is a page of TOML
MAX_TITLE = 200  # a study's title: a heading


def _ladder(path: str, raw: dict[str, Any]) -> list[Family]:
    """The families of a study file: its ``[[families]]``, or its ``[ladder]`` as one."""
    if "families" in raw:
        if "ladder" in raw:
            raise _err(path, "ladder", "give a [ladder] or [[families]], not both")
        return axes.read_families(path, raw["families"], _bot)
    ladder = _unknown(path, "ladder", raw.get("ladder", {}), LADDER_KEYS)
    bots_raw = ladder.get("bots")
    if not isinstance(bots_raw, list) or not bots_raw:
        raise _err(path, "ladder.bots", "must be a non-empty list of bot specs")
    bots = tuple(_bot(path, f"ladder.bots[{i}]", b) for i, b in enumerate(bots_raw))
    pairings = ladder.get("pairings", "self")
    if pairings not in PAIRINGS:
        raise _err(
            path, "ladder.pairings", f"must be one of {', '.join(PAIRINGS)}, got {pairings!r}"
        )
    if pairings != "self" and len(bots) < 2:
        raise _err(path, "ladder.pairings", "mixed pairings need two bots at least")
    return [Family("", bots, pairings)]


def _protocols(
    path: str,
    raw: dict[str, Any],
    labels: list[str],
    rules: list[str],
    ply_cap: int,
    seen: SuiteChecks,
) -> dict[str, Protocol]:
    """Each opening protocol of ``[axes]`` with its suite read and checked (each file once,
    all of them within the checks ``seen`` counts)."""
    out = {}
    for i, label in enumerate(labels):
        suite, plies = axes.parse_protocol(path, f"axes.openings[{i}]", label)
        fake = {"openings": suite} if suite else {}
        if "openings_order" in raw and suite:
            fake["openings_order"] = raw["openings_order"]
        text, order = read_openings(path, fake, rules, plies, ply_cap, seen)
        out[label] = Protocol(label, plies, suite, text, order)
    return out


def load_study(file: str | Path, quick: bool = False, data_dir: Path | None = None) -> Study:
    """Read and check a study file; ``quick`` applies its ``[quick]`` table (fewer games,
    optionally fewer bots or rule sets) under the name ``NAME-quick``. Bots are pinned to
    today's evaluations (their content) under each rule set."""
    path = str(file)
    raw = read_named_toml(path, "the study file", MAX_STUDY_FILE_BYTES, StudyError)
    _unknown(path, "", raw, TOP_KEYS)
    name = raw.get("name")
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise _err(path, "name", "must be 1 to 60 letters, digits, '-' or '_'")
    seed = _int(path, "seed", raw.get("seed", 1), 0, 2**31 - 1)
    ply_cap = _int(path, "ply_cap", raw.get("ply_cap", 1000), 1, MAX_PLY_CAP)
    opening = _int(path, "opening_plies", raw.get("opening_plies", 0), 0, MAX_OPENING_PLIES)
    families_seen = _ladder(path, raw)
    if "opening_plies" not in raw and "openings" not in raw and _repeats(families_seen):
        opening = VARIETY_PLIES  # deterministic bots from one start would repeat their games
    if opening >= ply_cap:
        raise _err(path, "opening_plies", f"must be below ply_cap ({ply_cap})")
    each = sum(len(axes.pairings(f)) for f in families_seen) if "block" not in raw else 1
    rules, grid, base, design, interactions = read_rules(
        path, raw.get("rules", {}), each, exact="block" not in raw
    )
    families = families_seen
    games = read_games(path, raw.get("games", {}))
    if quick:
        q = _unknown(path, "quick", raw.get("quick", {}), QUICK_KEYS)
        if "per_cell" not in q:
            raise _err(path, "quick.per_cell", "--quick needs the games per cell of a first look")
        games = read_games(path, {"per_cell": q["per_cell"]}, "quick")
        if "bots" in q:
            if families[0].name:
                raise _err(path, "quick.bots", "a study with [[families]] keeps its rungs")
            bots = _ladder(path, {"ladder": {**raw.get("ladder", {}), "bots": q["bots"]}})
            families = bots
        if "rules" in q:
            if not isinstance(q["rules"], list):
                raise _err(path, "quick.rules", "must be a list of rules specs")
            keep = [rules_spec(path, f"quick.rules[{i}]", s) for i, s in enumerate(q["rules"])]
            rules = [r for r in rules if r[0] in keep]
            if not rules:
                raise _err(path, "quick.rules", "keeps none of the study's rule sets")
        name = f"{name}-quick"
    rule_specs = [r for r, _ in rules]
    suites = SuiteChecks()
    suite, order = read_openings(path, raw, rule_specs, opening, ply_cap, suites)
    has_axes = bool(families[0].name) or "axes" in raw or "block" in raw
    default = Protocol(
        protocol_label(opening, str(raw.get("openings", ""))), opening, "", suite, order
    )
    labels, seeds = axes.read_axes(path, raw.get("axes", {}), default, seed)
    protocols = _protocols(path, raw, labels, rule_specs, ply_cap, suites) if has_axes else {}
    blocks = axes.read_blocks(
        path, raw.get("block"), rule_specs, families, labels, len(seeds), rules_spec
    )
    n = axes.count_cells(blocks, families, len(rules))
    if n > axes.MAX_CELLS:
        raise _err(path, "block", f"would make {n:,} cells, more than {axes.MAX_CELLS:,}")
    cells: list[Cell] = []
    seen: set[tuple[Any, ...]] = set()
    for block in blocks:
        conds = axes.conditions(block, families)
        for rules_spec_text, opts in rules:
            if block.rules is not None and rules_spec_text not in block.rules:
                continue
            for fam, red, blue, rung, op, s in conds:
                key = (rules_spec_text, red, blue, fam.name, op if has_axes else "", s)
                if key in seen:
                    continue
                seen.add(key)
                cells.append(
                    Cell(
                        len(cells),
                        rules_spec_text,
                        red,
                        blue,
                        rung,
                        dict(opts),
                        fam.name,
                        op if has_axes else "",
                        s,
                        None if quick else block.per_cell,
                    )
                )
    _check_even(path, games, families)
    run = _unknown(path, "run", raw.get("run", {}), RUN_KEYS)
    workers = _int(path, "run.workers", run.get("workers", 1), 1, 256)
    scheduler = run.get("scheduler")
    if scheduler is not None and not isinstance(scheduler, str):
        raise _err(path, "run.scheduler", f"must be a scheduler address (text), got {scheduler!r}")
    scheduler = scheduler or None
    title = raw.get("title", name)
    if not isinstance(title, str) or not 0 < len(title) <= MAX_TITLE:
        raise _err(path, "title", f"must be text of 1 to {MAX_TITLE} characters")
    return Study(
        name, title, path, seed, ply_cap, opening, base, design,
        {k: list(v) for k, v in grid.items()}, interactions, list(families[0].rungs),
        families[0].pairings, games, cells, workers, scheduler, quick, suite, order,
        families if has_axes else [], protocols, seeds if has_axes else [],
        pin_cells(cells, data_dir, read_evals(path, raw.get("evals", {}))),
    )  # fmt: skip


def _repeats(families: list[Family]) -> bool:
    """Whether a pairing of ``families`` would play copies of its games from one start."""
    return any(repeats_games(r, b, 0, "", None, r != b) for f in families
               for r, b, _ in axes.pairings(f))  # fmt: skip


def repeating_cells(study: Study) -> list[tuple[Cell, int]]:
    """The cells whose bots are deterministic and whose protocol has no random ply, with
    the most distinct games each can play (fewer than it will play)."""
    out = []
    for c in study.cells:
        p = study.protocol(c)
        limit = distinct_limit(c.red, c.blue, p.plies, p.openings, c.red != c.blue)
        if limit is not None and study.games_for(c).most() > limit:
            out.append((c, limit))
    return out


def _check_even(path: str, games: Games, families: list[Family]) -> None:
    mixed = any(f.pairings != "self" for f in families)
    if (
        mixed
        and games.mixed_per_cell is None
        and any(n % 2 for n in (games.per_cell or 0, games.step or 0, games.cap or 0))
    ):
        raise _err(path, "games", "mixed pairings swap colours: the games must be even")
