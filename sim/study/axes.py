"""A study's robustness axes: bot families (each a ladder of rungs, weakest first),
opening protocols and seed sets, and the blocks that say which rule sets are played under
which combinations of them (docs/studies.md, "Robustness axes").

A study without ``[[families]]``, ``[axes]`` or ``[[block]]`` is the single-ladder study
it always was: one family (the ``[ladder]``), one protocol (``opening_plies`` random plies,
after the ``openings`` suite if any) and one seed set (``seed``).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from sim.study.errors import err
from sim.study.games import _unknown

AXES_KEYS = {"openings", "seeds"}
FAMILY_KEYS = {"name", "rungs", "pairings"}
BLOCK_KEYS = {"rules", "families", "rungs", "openings", "seeds", "per_cell"}
PAIRINGS = ("self", "mixed", "both")
PROTOCOL_RE = re.compile(r"(?:suite:(?P<suite>[^+]+?))?(?:\+?random:(?P<plies>\d{1,4}))?")
MAX_CELLS = 20_000
"""The most cells a study file may make (refused, with the number it would make, above)."""


@dataclass(frozen=True)
class Family:
    """A bot family: its ``name`` and its ``rungs`` (canonical bot specs, weakest first),
    played in self-play, adjacent rungs against each other, or both (``pairings``)."""

    name: str
    rungs: tuple[str, ...]
    pairings: str = "self"


@dataclass(frozen=True)
class Protocol:
    """An opening protocol: ``plies`` seeded random plies, after the line of an opening
    suite (``suite``: the file as written, ``openings``: its canonical text) if any."""

    label: str
    plies: int
    suite: str = ""
    openings: str = ""
    order: str = "sequential"


@dataclass(frozen=True)
class Block:
    """Which rule sets (None: all) are played under which families, rungs (indices), opening
    protocols (labels) and seed sets (indices): every combination of them."""

    rules: tuple[str, ...] | None
    families: tuple[str, ...]
    rungs: tuple[int, ...] | None  # None: every rung of each family
    openings: tuple[str, ...]
    seeds: tuple[int, ...]
    per_cell: int | None = None  # the games of the block's cells (None: the study's)


def protocol_label(plies: int, suite: str = "") -> str:
    """The label of a protocol: ``random:8``, ``suite:FILE`` or ``suite:FILE+random:2``."""
    if suite:
        return f"suite:{suite}" + (f"+random:{plies}" if plies else "")
    return f"random:{plies}"


def parse_protocol(path: str, key: str, text: Any) -> tuple[str, int]:
    """The suite file (``""``: none) and random plies of a protocol's text."""
    # lazy: start-up time (the batch package's limits)
    from sim.storage.recordcheck import MAX_OPENING_PLIES

    m = PROTOCOL_RE.fullmatch(text) if isinstance(text, str) and text else None
    if m is None or (m["suite"] is None and m["plies"] is None):
        raise err(path, key, f"an opening protocol is random:K, suite:FILE or "
                             f"suite:FILE+random:K, not {text!r}")  # fmt: skip
    plies = int(m["plies"] or 0)
    if plies > MAX_OPENING_PLIES:
        raise err(path, key, f"at most {MAX_OPENING_PLIES} random plies, got {plies}")
    return (m["suite"] or "").strip(), plies


def _list(path: str, key: str, value: Any, kind: type | tuple[type, ...]) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise err(path, key, "must be a non-empty list")
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, kind):
            raise err(path, f"{key}[{i}]", f"must be {_kind_name(kind)}, got {v!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return "a whole number" if kind is int else "text"


def read_families(path: str, raw: Any, bot: Any) -> list[Family]:
    """The ``[[families]]`` of a study file; ``bot(path, key, spec)`` canonicalises a spec."""
    if not isinstance(raw, list) or not raw:
        raise err(path, "families", "must be a non-empty array of tables ([[families]])")
    out: list[Family] = []
    for i, t in enumerate(raw):
        key = f"families[{i}]"
        t = _unknown(path, key, t, FAMILY_KEYS)
        name = t.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", name):
            raise err(path, f"{key}.name", "must be 1 to 40 letters, digits, '-', '_' or '.'")
        if name in {f.name for f in out}:
            raise err(path, f"{key}.name", f"family {name!r} is named twice")
        rungs = _list(path, f"{key}.rungs", t.get("rungs"), str)
        specs = tuple(bot(path, f"{key}.rungs[{j}]", r) for j, r in enumerate(rungs))
        pairings = t.get("pairings", "self")
        if pairings not in PAIRINGS:
            raise err(path, f"{key}.pairings", f"must be one of {', '.join(PAIRINGS)}")
        if pairings != "self" and len(specs) < 2:
            raise err(path, f"{key}.pairings", "mixed pairings need two rungs at least")
        out.append(Family(name, specs, pairings))
    return out


def read_axes(path: str, raw: Any, default: Protocol, seed: int) -> tuple[list[str], list[int]]:
    """The ``[axes]`` table: the opening protocols' texts (the first is the reference) and
    the seed sets (the first is the reference); the study's own protocol and seed without
    it."""
    t = _unknown(path, "axes", raw, AXES_KEYS)
    openings = t.get("openings", [default.label])
    openings = _list(path, "axes.openings", openings, str)
    if len(set(openings)) != len(openings):
        raise err(path, "axes.openings", "a protocol is listed twice")
    seeds = _list(path, "axes.seeds", t.get("seeds", [seed]), int)
    for i, s in enumerate(seeds):
        if not 0 <= s < 2**31:
            raise err(path, f"axes.seeds[{i}]", f"must be from 0 to {2**31 - 1:,}, got {s!r}")
    if len(set(seeds)) != len(seeds):
        raise err(path, "axes.seeds", "a seed set is listed twice")
    return list(openings), list(seeds)


def read_blocks(
    path: str,
    raw: Any,
    rules: list[str],
    families: list[Family],
    openings: list[str],
    seeds: int,
    rules_spec: Any,
) -> list[Block]:
    """The ``[[block]]`` tables (every combination when there are none); rule sets named
    by ``rules_spec(path, key, text)`` must be among the study's ``rules``."""
    names = [f.name for f in families]
    if raw is None:
        return [Block(None, tuple(names), None, (openings[0],), (0,))]
    if not isinstance(raw, list) or not raw:
        raise err(path, "block", "must be a non-empty array of tables ([[block]])")
    out = []
    for i, t in enumerate(raw):
        key = f"block[{i}]"
        t = _unknown(path, key, t, BLOCK_KEYS)
        chosen: tuple[str, ...] | None = None
        if "rules" in t and t["rules"] != "all":
            texts = _list(path, f"{key}.rules", t["rules"], str)
            chosen = tuple(rules_spec(path, f"{key}.rules[{j}]", r) for j, r in enumerate(texts))
            for j, r in enumerate(chosen):
                if r not in rules:
                    raise err(path, f"{key}.rules[{j}]", f"{r} is not one of the study's rules")
        fams = tuple(_list(path, f"{key}.families", t.get("families", names), str))
        for j, f in enumerate(fams):
            if f not in names:
                raise err(path, f"{key}.families[{j}]", f"no family named {f!r}")
        rungs = None
        if "rungs" in t:
            rungs = tuple(_list(path, f"{key}.rungs", t["rungs"], int))
            for j, r in enumerate(rungs):
                for f in families:
                    if f.name in fams and not -len(f.rungs) <= r < len(f.rungs):
                        raise err(path, f"{key}.rungs[{j}]", f"family {f.name} has no rung {r}")
        ops = tuple(_list(path, f"{key}.openings", t.get("openings", [openings[0]]), str))
        for j, o in enumerate(ops):
            if o not in openings:
                raise err(path, f"{key}.openings[{j}]", f"{o!r} is not in axes.openings")
        seed_sets = tuple(_list(path, f"{key}.seeds", t.get("seeds", [0]), int))
        for j, s in enumerate(seed_sets):
            if not 0 <= s < seeds:
                raise err(path, f"{key}.seeds[{j}]", f"a seed set's index, 0 to {seeds - 1}")
        per_cell = t.get("per_cell")
        if per_cell is not None and (
            isinstance(per_cell, bool)
            or not isinstance(per_cell, int)
            or not 2 <= per_cell
            or per_cell > 10**7
        ):
            raise err(path, f"{key}.per_cell", f"must be a whole number from 2, got {per_cell!r}")
        out.append(Block(chosen, fams, rungs, ops, seed_sets, per_cell))
    return out


def pairings(family: Family) -> list[tuple[str, str, int | None]]:
    """A family's pairings: ``(red, blue, rung)``, rung None for adjacent rungs' matches."""
    out: list[tuple[str, str, int | None]] = []
    if family.pairings in ("self", "both"):
        out += [(b, b, i) for i, b in enumerate(family.rungs)]
    if family.pairings in ("mixed", "both"):
        out += [(a, b, None) for a, b in itertools.pairwise(family.rungs)]
    return out


def conditions(
    block: Block, families: list[Family]
) -> list[tuple[Family, str, str, int | None, str, int]]:
    """Every ``(family, red, blue, rung, opening, seed set)`` of a block, in a fixed order."""
    out = []
    for fam in families:
        if fam.name not in block.families:
            continue
        wanted = None
        if block.rungs is not None:
            wanted = {r % len(fam.rungs) for r in block.rungs}
        for red, blue, rung in pairings(fam):
            if wanted is not None:
                lo = rung if rung is not None else fam.rungs.index(red)
                hi = rung if rung is not None else lo + 1
                if lo not in wanted or hi not in wanted:
                    continue
            for opening in block.openings:
                for s in block.seeds:
                    out.append((fam, red, blue, rung, opening, s))
    return out


def count_cells(blocks: list[Block], families: list[Family], rules: int) -> int:
    """How many cells the blocks make at most (before duplicates are merged): checked
    against :data:`MAX_CELLS` before any cell is built."""
    total = 0
    for b in blocks:
        n_rules = rules if b.rules is None else len(b.rules)
        for fam in families:
            if fam.name in b.families:
                total += n_rules * len(pairings(fam)) * len(b.openings) * len(b.seeds)
    return total
