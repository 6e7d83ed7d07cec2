"""Bot specs: ``name`` or ``name:key=value,key=value``, parsed, validated and canonical.

The canonical spec lists every parameter of the bot, defaults filled in, in the fixed
order of :data:`BOTS`, so ``parse_bot(spec.canonical) == spec`` and a stored game names
exactly the player that played it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.errors import DsqError

ANIMAL_ORDER = ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")
DEFAULT_VALUES = (450, 200, 300, 350, 500, 800, 900, 1000)


class BotSpecError(DsqError):
    """An unknown bot, parameter or parameter value."""


@dataclass(frozen=True)
class Param:
    """One bot parameter: its kind (int, float, choice, values), default, limits, meaning."""

    name: str
    kind: str  # "int", "float", "choice" or "values"
    default: Any
    help: str
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        """A short description of the values this parameter takes."""
        if self.kind == "int":
            return f"a whole number from {int(self.low)} to {int(self.high)}"
        if self.kind == "float":
            return f"a number from {self.low:g} to {self.high:g}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        return (
            "8 whole numbers 0..100000 separated by '/' "
            "(rat/cat/dog/wolf/leopard/tiger/lion/elephant)"
        )

    def parse(self, bot: str, text: str) -> Any:
        """The value of ``text`` for this parameter; BotSpecError when it is not allowed."""
        text = text.strip()
        bad = BotSpecError(f"bot {bot}: {self.name} takes {self.allowed()}, not {text!r}")
        if self.kind == "int":
            try:
                value: Any = int(text)
            except ValueError:
                raise bad from None
            if not self.low <= value <= self.high:
                raise bad
            return value
        if self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                raise bad from None
            if not self.low <= value <= self.high:  # also refuses nan
                raise bad
            return value
        if self.kind == "choice":
            if text.lower() not in self.choices:
                raise bad
            return text.lower()
        parts = text.split("/")
        if len(parts) != 8:
            raise bad
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise bad from None
        if any(not 0 <= v <= 100000 for v in values):
            raise bad
        return values

    def format(self, value: Any) -> str:
        """The canonical text of ``value``."""
        if self.kind == "float":
            return repr(float(value))
        if self.kind == "values":
            return "/".join(str(int(v)) for v in value)
        return str(value)


_VALUES = Param(
    "values",
    "values",
    DEFAULT_VALUES,
    "animal values for the evaluation, rat/cat/dog/wolf/leopard/tiger/lion/elephant",
)

BOTS: dict[str, tuple[str, tuple[Param, ...]]] = {
    "random": ("uniform among the legal moves", ()),
    "greedy": (
        "a winning move if any (den entry, last capture, opponent left without moves); "
        "else the best capture that does not lose the piece at once; else a move that "
        "hangs no piece (and leaves no den threat); random among equals",
        (),
    ),
    "alphabeta": (
        "iterative-deepening negamax with alpha-beta, transposition table (Zobrist), "
        "move ordering (table move, captures by victim, killers, history), quiescence "
        "over captures and den entries, mate-distance scores",
        (
            Param("depth", "int", 4, "deepest iteration, in plies", 1, 60),
            Param(
                "noise",
                "int",
                0,
                "seeded random term in [-noise, noise] added to each evaluated position",
                0,
                1000,
            ),
            Param(
                "time_ms",
                "int",
                0,
                "time budget per move in ms (0: none); the deepest completed iteration wins",
                0,
                3_600_000,
            ),
            Param(
                "nodes",
                "int",
                0,
                "node budget per move (0: none); the deepest completed iteration wins",
                0,
                10**12,
            ),
            Param(
                "contempt",
                "int",
                30,
                "how much worse than 0 a draw (no-capture clock, or a repeated position "
                "in the search) is for the searching side",
                -10000,
                10000,
            ),
            Param("tt_mb", "int", 16, "transposition table size in MiB", 1, 4096),
            _VALUES,
        ),
    ),
    "mcts": (
        "UCT Monte Carlo tree search; capped rollouts scored by the evaluation; plays the "
        "most visited move; never misses an immediate win",
        (
            Param("playouts", "int", 2000, "playouts per move", 1, 10**8),
            Param("c", "float", 1.4, "UCT exploration constant", 0.0, 100.0),
            Param("rollout", "choice", "random", "rollout policy", choices=("random", "greedy")),
            Param(
                "rollout_plies",
                "int",
                20,
                "plies per rollout before the evaluation scores it (0: score the leaf)",
                0,
                10000,
            ),
            Param(
                "time_ms",
                "int",
                0,
                "time budget per move in ms (0: none); stops early when reached",
                0,
                3_600_000,
            ),
            _VALUES,
        ),
    ),
}
BOT_NAMES = tuple(BOTS)


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: ``name``, ``params`` (every parameter) and ``canonical``."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def canonical(self) -> str:
        """``name`` or ``name:key=value,...`` with every parameter in the fixed order."""
        params = BOTS[self.name][1]
        if not params:
            return self.name
        body = ",".join(f"{p.name}={p.format(self.params[p.name])}" for p in params)
        return f"{self.name}:{body}"

    @property
    def short(self) -> str:
        """The spec without parameters left at their defaults, e.g. ``alphabeta:depth=2``."""
        params = BOTS[self.name][1]
        changed = [p for p in params if self.params[p.name] != p.default]
        if not changed:
            return self.name
        body = ",".join(f"{p.name}={p.format(self.params[p.name])}" for p in changed)
        return f"{self.name}:{body}"

    def __str__(self) -> str:
        return self.canonical

    def __hash__(self) -> int:
        return hash(self.canonical)


def parse_bot(spec: str | BotSpec) -> BotSpec:
    """Parse ``name`` or ``name:key=value,...``; raises BotSpecError listing what is allowed."""
    if isinstance(spec, BotSpec):
        return spec
    text = str(spec).strip()
    name, sep, body = text.partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name or text!r}; bots are: {', '.join(BOT_NAMES)}")
    params = BOTS[name][1]
    by_name = {p.name: p for p in params}
    values = {p.name: p.default for p in params}
    if sep and body.strip():
        seen: set[str] = set()
        for part in body.split(","):
            key, eq, value = part.partition("=")
            key = key.strip().lower()
            if not key:
                raise BotSpecError(f"empty parameter in bot spec {text!r}")
            if key not in by_name:
                allowed = ", ".join(by_name) if by_name else "none"
                raise BotSpecError(
                    f"bot {name} has no parameter {key!r}; its parameters are: {allowed}"
                )
            if not eq:
                raise BotSpecError(f"bot {name}: parameter {key} needs a value: {key}=VALUE")
            if key in seen:
                raise BotSpecError(f"bot {name}: parameter {key} given twice")
            seen.add(key)
            values[key] = by_name[key].parse(name, value)
    elif sep and not params:
        pass
    return BotSpec(name, values)


@lru_cache(maxsize=4096)
def short_spec(spec: str) -> str:
    """``BotSpec.short`` of a spec string for display; the string itself if it does not parse
    (e.g. a bot recorded by another version)."""
    try:
        return parse_bot(spec).short
    except DsqError:
        return spec


def describe_bots() -> list[dict[str, Any]]:
    """Every bot with its description and parameters (name, default, allowed, meaning)."""
    out = []
    for name, (doc, params) in BOTS.items():
        out.append(
            {
                "name": name,
                "help": doc,
                "canonical": parse_bot(name).canonical,
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
