"""A study's own record, ``DATA/studies/NAME.json``, read back: one checked reader.

The record holds the plan the study started with (compared when it is run again) and the
study itself (what ``dsq study report NAME`` reads without its file). Every field is
checked for its type and range before any code uses it, so a damaged record is one
``DsqError`` naming the file and the field, never a traceback: a list where the plan should
be, cells that are a number, a cell index written as text, a games step of 0.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.core.batchspec import MAX_GAMES, MAX_OPENING_PLIES, MAX_PLY_CAP, ORDERS
from sim.storage.paths import read_bounded
from sim.study.axes import MAX_CELLS, PAIRINGS, Family, Protocol
from sim.study.games import GAMES_KEYS, Games
from sim.study.spec import NAME_RE, Cell, Study

PLAN_KEYS = {
    "name", "seed", "ply_cap", "opening_plies", "games", "cells", "openings",
    "openings_order", "seeds", "protocols", "pins",
}  # fmt: skip
MAX_LIST = MAX_CELLS * 4  # the longest list a record holds (cells, families' rungs, seeds)
MAX_RECORD_BYTES = 32 << 20
"""The largest study record read or written: room for :data:`MAX_CELLS` cells of about
1.6 KB each (a 20,000-cell grid study of two rungs writes about 9 MB)."""


class RecordError(DsqError):
    """A study record that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class RecordedPlan:
    """The plan a study started with (:meth:`sim.study.spec.Study.plan` as recorded), every
    field checked; the keys a plan may lack are None (``pins``: recorded before bots were
    pinned)."""

    name: str
    seed: int
    ply_cap: int
    opening_plies: int
    games: Games
    cells: tuple[tuple[str | int, ...], ...]
    openings: str | None = None
    openings_order: str | None = None
    seeds: tuple[int, ...] | None = None
    protocols: dict[str, tuple[str | int, ...]] | None = None
    pins: dict[str, str] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The plan in the form :meth:`sim.study.spec.Study.plan` gives (the keys it was
        recorded with), to compare with today's plan."""
        out: dict[str, Any] = {
            "name": self.name, "seed": self.seed, "ply_cap": self.ply_cap,
            "opening_plies": self.opening_plies, "games": asdict(self.games),
            "cells": [list(c) for c in self.cells],
        }  # fmt: skip
        if self.openings is not None:
            out["openings"] = self.openings
            out["openings_order"] = self.openings_order
        if self.seeds is not None:
            out["seeds"] = list(self.seeds)
        if self.protocols is not None:
            out["protocols"] = {k: list(v) for k, v in self.protocols.items()}
        if self.pins is not None:
            out["pins"] = dict(self.pins)
        return out


@dataclass(frozen=True)
class StudyRecord:
    """A study's record: the ``plan`` it started with and the ``study`` as recorded."""

    plan: RecordedPlan
    study: Study


class _Check:
    """The checks of one record file: each raises :class:`RecordError` naming it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, message: str) -> RecordError:
        return RecordError(f"{self.path}: unreadable study record: {key}: {message}")

    def table(self, key: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"must be an object, not {_kind(value)}")
        return value

    def items(self, key: str, value: Any, most: int = MAX_LIST) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list, not {_kind(value)}")
        if len(value) > most:
            raise self.fail(key, f"{len(value):,} entries, more than {most:,}")
        return value

    def text(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"must be text, not {_kind(value)}")
        return value

    def maybe_text(self, key: str, value: Any) -> str | None:
        return None if value is None else self.text(key, value)

    def whole(self, key: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_kind(value)}")
        if not low <= value <= high:
            raise self.fail(key, f"must be from {low:,} to {high:,}, got {value:,}")
        return value

    def maybe_whole(self, key: str, value: Any, low: int, high: int) -> int | None:
        return None if value is None else self.whole(key, value, low, high)

    def choice(self, key: str, value: Any, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}")
        return str(value)

    def games(self, key: str, value: Any) -> Games:
        """A cell's games as :class:`Games`: a fixed number, or a target with cap and step."""
        g = self.table(key, value)
        for k in g:
            if k not in GAMES_KEYS:
                raise self.fail(f"{key}.{k}", "unknown key")
        per_cell = self.maybe_whole(f"{key}.per_cell", g.get("per_cell"), 2, MAX_GAMES)
        mixed = self.maybe_whole(f"{key}.mixed_per_cell", g.get("mixed_per_cell"), 2, MAX_GAMES)
        target = g.get("target")
        if target is None:
            if per_cell is None:
                raise self.fail(key, "gives neither per_cell nor target")
            return Games(per_cell=per_cell, mixed_per_cell=mixed)
        if isinstance(target, bool) or not isinstance(target, int | float):
            raise self.fail(f"{key}.target", f"must be a number, not {_kind(target)}")
        if not 0 < target < 0.5:
            raise self.fail(f"{key}.target", f"must be between 0 and 0.5, got {target!r}")
        cap = self.whole(f"{key}.cap", g.get("cap"), 2, MAX_GAMES)
        step = self.whole(f"{key}.step", g.get("step"), 2, cap)
        return Games(None, float(target), cap, step, mixed)


def _kind(value: Any) -> str:
    """The JSON kind of ``value`` in words (never its content)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "an object", list: "a list", str: "text", int: "a whole number",
            float: "a number"}.get(type(value), type(value).__name__)  # fmt: skip


def _parts(c: _Check, key: str, value: Any, most: int) -> tuple[str | int, ...]:
    """A recorded list of text and whole numbers (a cell's key, a protocol)."""
    out: list[str | int] = []
    for j, part in enumerate(c.items(key, value, most)):
        if isinstance(part, bool) or not isinstance(part, str | int):
            raise c.fail(f"{key}[{j}]", f"must be text or a whole number, not {_kind(part)}")
        out.append(part)
    return tuple(out)


def _plan(c: _Check, raw: Any) -> RecordedPlan:
    """The recorded plan, every field checked, as a :class:`RecordedPlan`."""
    p = c.table("plan", raw)
    for k in p:
        if k not in PLAN_KEYS:
            raise c.fail(f"plan.{k}", "unknown key")
    openings = order = None
    if "openings" in p:
        openings = c.text("plan.openings", p["openings"])
        order = c.choice("plan.openings_order", p.get("openings_order"), ORDERS)
    seeds = None
    if "seeds" in p:
        seeds = tuple(
            c.whole(f"plan.seeds[{i}]", s, 0, 2**31 - 1)
            for i, s in enumerate(c.items("plan.seeds", p["seeds"]))
        )
    protocols = None
    if "protocols" in p:
        protocols = {
            label: _parts(c, f"plan.protocols.{label}", value, 3)
            for label, value in c.table("plan.protocols", p["protocols"]).items()
        }
    pins = None
    if "pins" in p:
        pins = {k: c.text(f"plan.pins.{k}", v) for k, v in c.table("plan.pins", p["pins"]).items()}
    return RecordedPlan(
        name=c.text("plan.name", p.get("name")),
        seed=c.whole("plan.seed", p.get("seed"), 0, 2**31 - 1),
        ply_cap=c.whole("plan.ply_cap", p.get("ply_cap"), 1, MAX_PLY_CAP),
        opening_plies=c.whole("plan.opening_plies", p.get("opening_plies"), 0, MAX_OPENING_PLIES),
        games=c.games("plan.games", p.get("games")),
        cells=tuple(
            _parts(c, f"plan.cells[{i}]", cell, 7)
            for i, cell in enumerate(c.items("plan.cells", p.get("cells"), MAX_CELLS))
        ),
        openings=openings, openings_order=order, seeds=seeds, protocols=protocols, pins=pins,
    )  # fmt: skip


def _study(c: _Check, raw: Any, path: Path) -> Study:
    """The recorded study, every field checked."""
    d = c.table("study", raw)
    name = c.text("study.name", d.get("name"))
    if not NAME_RE.fullmatch(name.removesuffix("-quick")):
        raise c.fail("study.name", "must be 1 to 60 letters, digits, '-' or '_'")
    seeds = [
        c.whole(f"study.seeds[{i}]", s, 0, 2**31 - 1)
        for i, s in enumerate(c.items("study.seeds", d.get("seeds", [])))
    ]
    families = []
    for i, f in enumerate(c.items("study.families", d.get("families", []))):
        key = f"study.families[{i}]"
        f = c.table(key, f)
        rungs = c.items(f"{key}.rungs", f.get("rungs"))
        families.append(Family(
            c.text(f"{key}.name", f.get("name")),
            tuple(c.text(f"{key}.rungs[{j}]", r) for j, r in enumerate(rungs)),
            c.choice(f"{key}.pairings", f.get("pairings"), PAIRINGS),
        ))  # fmt: skip
    protocols = {}
    for i, pr in enumerate(c.items("study.protocols", d.get("protocols", []))):
        key = f"study.protocols[{i}]"
        pr = c.table(key, pr)
        label = c.text(f"{key}.label", pr.get("label"))
        protocols[label] = Protocol(
            label, c.whole(f"{key}.plies", pr.get("plies"), 0, MAX_OPENING_PLIES),
            c.text(f"{key}.suite", pr.get("suite", "")),
            c.text(f"{key}.openings", pr.get("openings", "")),
            c.choice(f"{key}.order", pr.get("order", "sequential"), ORDERS),
        )  # fmt: skip
    cells = [
        _cell(c, f"study.cells[{i}]", i, cell, seeds, protocols)
        for i, cell in enumerate(c.items("study.cells", d.get("cells"), MAX_CELLS))
    ]
    if not cells:
        raise c.fail("study.cells", "no cell")
    bots = c.items("study.bots", d.get("bots"))
    if not bots:
        raise c.fail("study.bots", "no bot")
    grid = c.table("study.grid", d.get("grid", {}))
    for k, v in grid.items():
        c.items(f"study.grid.{k}", v)
    interactions = d.get("interactions", False)
    if not isinstance(interactions, bool):
        raise c.fail("study.interactions", "must be true or false")
    pins = {
        k: c.text(f"study.pins.{k}", v) for k, v in c.table("study.pins", d.get("pins", {})).items()
    }
    ply_cap = c.whole("study.ply_cap", d.get("ply_cap"), 1, MAX_PLY_CAP)
    return Study(
        name=name, title=c.text("study.title", d.get("title", name)), path=str(path),
        seed=c.whole("study.seed", d.get("seed"), 0, 2**31 - 1), ply_cap=ply_cap,
        opening_plies=c.whole("study.opening_plies", d.get("opening_plies"), 0, ply_cap - 1),
        base=c.maybe_text("study.base", d.get("base")),
        design=c.maybe_text("study.design", d.get("design")), grid=grid,
        interactions=interactions,
        bots=[c.text(f"study.bots[{i}]", b) for i, b in enumerate(bots)],
        pairings=c.choice("study.pairings", d.get("pairings"), PAIRINGS),
        games=c.games("study.games", d.get("games")), cells=cells, families=families,
        protocols=protocols, seeds=seeds, pins=pins,
        openings=c.text("study.openings", d.get("openings", "")),
        openings_order=c.choice("study.openings_order", d.get("openings_order", "sequential"),
                                ORDERS),
    )  # fmt: skip


def _cell(
    c: _Check, key: str, i: int, raw: Any, seeds: list[int], protocols: dict[str, Protocol]
) -> Cell:
    d = c.table(key, raw)
    index = c.whole(f"{key}.index", d.get("index"), i, i)
    opening = c.text(f"{key}.opening", d.get("opening", ""))
    if opening and opening not in protocols:
        raise c.fail(f"{key}.opening", "names no recorded protocol")
    options = c.table(f"{key}.options", d.get("options", {}))
    for k, v in options.items():
        if isinstance(v, dict | list) or v is None:
            raise c.fail(f"{key}.options.{k}", f"must be a rule option's value, not {_kind(v)}")
    return Cell(
        index, c.text(f"{key}.rules", d.get("rules")), c.text(f"{key}.red", d.get("red")),
        c.text(f"{key}.blue", d.get("blue")),
        c.maybe_whole(f"{key}.rung", d.get("rung"), 0, MAX_LIST), dict(options),
        c.text(f"{key}.family", d.get("family", "")), opening,
        c.whole(f"{key}.seed_set", d.get("seed_set", 0), 0, max(len(seeds) - 1, 0)),
        c.maybe_whole(f"{key}.per_cell", d.get("per_cell"), 2, MAX_GAMES),
    )  # fmt: skip


def read_study_record(path: Path) -> StudyRecord:
    """The record at ``path``, every field checked (:class:`RecordError` naming the file and
    the field otherwise)."""
    c = _Check(path)
    try:
        raw = json.loads(read_bounded(path, MAX_RECORD_BYTES).decode("utf-8"))
    except (OSError, ValueError) as exc:  # a link, a special file, too big, not JSON
        raise RecordError(f"{path}: unreadable study record: {exc}") from None
    d = c.table("the record", raw)
    return StudyRecord(_plan(c, d.get("plan")), _study(c, d.get("study"), path))
