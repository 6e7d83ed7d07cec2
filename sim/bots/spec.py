"""Bot specs: ``name`` or ``name:key=value,key=value``, parsed, validated and canonical.

The canonical spec lists every parameter of the bot, defaults filled in (and the values
its kind's ``fill`` rule derives, e.g. ``alphabeta:time_ms=300`` searches up to depth 60),
in the fixed order of its kind's parameters (:mod:`sim.bots.registry`), so
``parse_bot(spec.canonical) == spec`` and a stored game names exactly the player that
played it. The short form leaves out what the canonical form adds, and parses back to
the same spec too.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType, ModuleType
from typing import Any, TypedDict

from engine.errors import DsqError, did_you_mean
from sim.bots.params import DEFAULT_VALUES, BotSpecError, Param, listed
from sim.bots.registry import KINDS

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "DEFAULT_VALUES",
    "HUMAN",
    "BotInfo",
    "BotParamInfo",
    "BotSpec",
    "BotSpecError",
    "describe_bots",
    "parse_bot",
    "short_spec",
]


class _Bots(Mapping[str, tuple[str, tuple[Param, ...]]]):
    """Each kind's meaning and parameters, by name: a live view of
    :data:`sim.bots.registry.KINDS` (a kind registered later is in it too)."""

    def __getitem__(self, name: str) -> tuple[str, tuple[Param, ...]]:
        kind = KINDS[name]
        return kind.help, kind.params

    def __iter__(self) -> Iterator[str]:
        return iter(list(KINDS))

    def __len__(self) -> int:
        return len(KINDS)


BOTS = _Bots()
BOT_NAMES = tuple(BOTS)  # the kinds this version ships
# The player spec recorded for a person (a game played on the dashboard's Play page or
# with ``dsq play``): not a bot; statistics leave such games out unless asked (``humans``).
HUMAN = "human"


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: ``name``, ``params`` (every parameter) and ``canonical``."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        # a parsed spec's params are read-only (a mapping proxy, which does not pickle)
        return (BotSpec, (self.name, dict(self.params)))

    @property
    def canonical(self) -> str:
        """``name`` or ``name:key=value,...`` with every parameter in the fixed order (those
        not ``listed`` only when they differ from their default; see
        :func:`sim.bots.params.listed`)."""
        custom = _spec_module(self.name)
        if custom is not None:
            return custom.canonical(self.params)
        params = [p for p in BOTS[self.name][1] if listed(p, self.params)]
        if not params:
            return self.name
        body = ",".join(f"{p.name}={p.format(self.params[p.name])}" for p in params)
        return f"{self.name}:{body}"

    @property
    def short(self) -> str:
        """The spec without the parameters the parser fills in by itself (defaults, and
        values a budget implies), e.g. ``alphabeta:depth=2``, ``alphabeta:time_ms=300``;
        ``parse_bot(spec.short) == spec``."""
        custom = _spec_module(self.name)
        if custom is not None:
            return custom.short(self.params)
        params = BOTS[self.name][1]
        changed = [p for p in params if self.params[p.name] != p.default or p.legacy is not None]
        for p in list(changed):
            rest = [q for q in changed if q is not p]
            if parse_bot(self._text(rest)) == self:
                changed = rest
        return self._text(changed)

    def _text(self, params: list[Param]) -> str:
        """``name:key=value,...`` with ``params`` only (just ``name`` when there are none)."""
        if not params:
            return self.name
        body = ",".join(f"{p.name}={p.format(self.params[p.name])}" for p in params)
        return f"{self.name}:{body}"

    def __str__(self) -> str:
        return self.canonical

    def __hash__(self) -> int:
        return hash(self.canonical)


def _spec_module(name: str) -> ModuleType | None:
    """The module reading and writing the specs of bot kind ``name``, if it has its own."""
    module = KINDS[name].spec_module
    return importlib.import_module(module) if module else None


def parse_bot(spec: str | BotSpec) -> BotSpec:
    """Parse ``name`` or ``name:key=value,...``; raises BotSpecError listing what is allowed.

    Parsed once per process and text: the result is shared, its ``params`` read-only.
    """
    if isinstance(spec, BotSpec):
        return spec
    text = str(spec).strip()
    kind = KINDS.get(text.partition(":")[0].strip().lower())
    hit = _PARSED.get(text)
    if hit is not None and kind is not None and hit[0] is kind:  # the same kind still
        return hit[1]
    parsed = _parse(text)
    if len(_PARSED) >= MAX_PARSED:
        _PARSED.clear()
    shared = BotSpec(parsed.name, MappingProxyType(dict(parsed.params)))  # type: ignore[arg-type]
    _PARSED[text] = (kind, shared)
    return shared


# Specs parsed in this process, by text, with the kind they were parsed against (a kind
# registered again, or removed, is parsed anew).
_PARSED: dict[str, tuple[Any, BotSpec]] = {}
MAX_PARSED = 1024


def _parse(text: str) -> BotSpec:
    name, sep, body = text.partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise BotSpecError(
            f"unknown bot {name or text!r}; bots are: {', '.join(BOTS)}{did_you_mean(name, BOTS)}"
        )
    custom = _spec_module(name)
    if custom is not None:
        return BotSpec(name, custom.parse_body(text, body if sep else ""))
    params = BOTS[name][1]
    by_name = {p.name: p for p in params}
    values = {p.name: p.default for p in params}
    seen: set[str] = set()
    if sep and body.strip():
        for part in body.split(","):
            key, eq, value = part.partition("=")
            key = key.strip().lower()
            if not key:
                raise BotSpecError(f"empty parameter in bot spec {text!r}")
            if key not in by_name:
                allowed = ", ".join(by_name) if by_name else "none"
                raise BotSpecError(
                    f"bot {name} has no parameter {key!r}; its parameters are: {allowed}"
                    f"{did_you_mean(key, by_name)}"
                )
            if not eq:
                raise BotSpecError(f"bot {name}: parameter {key} needs a value: {key}=VALUE")
            if key in seen:
                raise BotSpecError(f"bot {name}: parameter {key} given twice")
            seen.add(key)
            values[key] = by_name[key].parse(name, value)
    fill = KINDS[name].fill
    if fill is not None:
        fill(values, frozenset(seen))
    for p in params:  # the value a parameter added later takes in a spec that predates it
        if p.legacy is not None and p.name not in seen:
            values[p.name] = p.reference(values)
    return BotSpec(name, values)


def canonical_bot(spec: str) -> str:
    """The canonical form of a bot spec: the one recorded and compared, every parameter
    given (``BotSpecError`` for an unknown bot or parameter)."""
    return parse_bot(spec.strip()).canonical


@lru_cache(maxsize=4096)
def short_spec(spec: str) -> str:
    """``BotSpec.short`` of a spec string for display; the string itself if it does not parse
    (e.g. a bot recorded by another version)."""
    try:
        return parse_bot(spec).short
    except DsqError:
        return spec


class BotParamInfo(TypedDict):
    """One parameter of a bot kind, as ``dsq bots`` shows it: its ``name``, its
    ``default`` as written in a spec, the values it takes (``allowed``) and its meaning."""

    name: str
    default: str
    allowed: str
    help: str


class BotInfo(TypedDict):
    """A bot kind, as ``dsq bots`` shows it: its ``name``, meaning (``help``), the
    ``canonical`` spec of its defaults and its parameters."""

    name: str
    help: str
    canonical: str
    params: list[BotParamInfo]


def describe_bots() -> list[BotInfo]:
    """Every bot with its description and parameters (name, default, allowed, meaning)."""
    out: list[BotInfo] = []
    for name, (doc, params) in BOTS.items():
        out.append(
            {
                "name": name,
                "help": doc,
                "canonical": parse_bot(
                    f"{name}:NAME" if KINDS[name].spec_module else name
                ).canonical,
                "params": [
                    {
                        "name": p.name,
                        "default": p.format(p.default),
                        "allowed": p.allowed(),
                        "help": p.help,
                    }
                    for p in params
                ],
            }
        )
    return out
