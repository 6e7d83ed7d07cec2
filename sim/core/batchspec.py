"""What a batch plays: :class:`BatchSpec`, each field declared once with its check.

A field's declaration (:func:`spec_field`) says its kind, its range or choices, its
``dsq simulate`` flag and help text; everything else is derived from it: the checks and
messages of :func:`sim.batch.spec.make_spec`, the record schema check
(:mod:`sim.storage.recordcheck`), the ``dsq simulate`` flags, the fields of a chunk of games
and what the dashboard validates. Adding a field to the spec is a change here (plus its use
where the games are played).

The declaration lives in :mod:`sim.storage` because every read of a batch record checks
its spec, and storage does not depend on :mod:`sim.batch`; :mod:`sim.batch.spec`
re-exports the class and adds the canonicalisation (rules and bot specs) in ``make_spec``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from engine.errors import DsqError
from sim.core.adjudication import parse_draw, parse_resign
from sim.core.seeds import MAX_SEED

__all__ = [
    "ADJUDICATE",
    "MAX_GAMES",
    "MAX_OPENING_PLIES",
    "MAX_PLY_CAP",
    "MAX_SUITE_TEXT",
    "ORDERS",
    "RECORDS",
    "BatchSpec",
    "FieldInfo",
    "SpecError",
    "check_pair",
    "check_value",
    "spec_fields",
]

MAX_GAMES = 2**31 - 1  # game_index is an int32
MAX_OPENING_PLIES = 200
MAX_PLY_CAP = 65535
ADJUDICATE = ("none", "tablebase")  # sim.tablebase.adjudicate.MODES, without loading it
MAX_TEXT = 10_000
MAX_SUITE_TEXT = 2 << 20  # an opening suite's canonical text (sim.openings.suite)
ORDERS = ("sequential", "random")  # sim.openings.suite.ORDERS, without loading it
RECORDS = ("moves", "outcomes")  # what a batch stores of each game (BatchSpec.record)


class SpecError(DsqError):
    """A bad value for a spec field: ``field`` names it; ``key`` and ``fields`` name a
    wording of it (the dashboard's catalogues have one for ``swap_odd`` and ``opening_cap``)."""

    def __init__(self, message: str, field: str, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.field = field
        self.key = key
        self.fields = fields


@dataclass(frozen=True)
class FieldInfo:
    """How one spec field is checked and given: ``kind`` is ``text``, ``int``, ``bool`` or
    ``choice``; ``low``/``high`` bound an int, ``choices`` a choice; ``canon`` names how
    ``make_spec`` canonicalises a text (``rules`` or ``bot``); ``flag`` is the ``dsq
    simulate`` flag, ``help`` its help text (empty: the command declares the flag itself);
    ``what`` describes a valid value in the record check's messages."""

    name: str
    kind: str
    flag: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    canon: str = ""
    help: str = ""
    what: str = ""

    def describe(self) -> str:
        """What a valid value is, as the record check says it."""
        if self.what:
            return self.what
        if self.kind == "int":
            return f"a whole number from {self.low} to {self.high}"
        if self.kind == "bool":
            return "true or false"
        return "one of " + ", ".join(self.choices)


def spec_field(kind: str, default: Any = dataclasses.MISSING, **info: Any) -> Any:
    """A :class:`BatchSpec` field declared with its :class:`FieldInfo` (name filled in)."""
    return dataclasses.field(default=default, metadata={"info": (kind, info)})


@dataclass(frozen=True)
class BatchSpec:
    """What a batch plays: canonical rules and bot specs, games, seed and options.

    ``red`` is bot *a* (red in every game, or in even-indexed games with ``swap``);
    ``blue`` is bot *b*.
    """

    rules: str = spec_field("text", flag="--rules", canon="rules", what="a rules spec")
    red: str = spec_field("text", flag="--red", canon="bot", what="a bot spec")
    blue: str = spec_field("text", flag="--blue", canon="bot", what="a bot spec")
    games: int = spec_field("int", flag="--games", low=1, high=MAX_GAMES)
    seed: int = spec_field("int", flag="--seed", low=0, high=MAX_SEED)
    swap: bool = spec_field(
        "bool",
        False,
        flag="--swap",
        help="play every opening twice with colours exchanged (games 2k, 2k+1 share pair k)",
    )
    opening_plies: int = spec_field(
        "int",
        0,
        flag="--opening-plies",
        high=MAX_OPENING_PLIES,
        help="uniformly random opening plies (0)",
    )
    ply_cap: int = spec_field(
        "int",
        1000,
        flag="--ply-cap",
        low=1,
        high=MAX_PLY_CAP,
        help="draw after this many plies (1000)",
    )
    adjudicate: str = spec_field(
        "choice",
        "none",
        flag="--adjudicate",
        choices=ADJUDICATE,
        help="tablebase: end a game at its first position an endgame table settles for certain"
        " under the no-capture rule (reason 'tablebase'); the tables of DIR/tablebases are"
        " used (build them with dsq tablebase build). Default none",
    )
    openings: str = spec_field(
        "suite",
        "",
        flag="--openings",
        what="an opening suite's text (empty: none)",
        help="FILE of opening positions (docs/openings.md): pair k (game k, or games 2k and"
        " 2k+1 with --swap) starts from the suite's k-th position, cycling; --opening-plies"
        " random plies follow it. The suite is stored with the batch",
    )
    openings_order: str = spec_field(
        "choice",
        "sequential",
        flag="--openings-order",
        choices=ORDERS,
        help="the order the pairs take the --openings positions: sequential (file order) or"
        " random (shuffled by the batch seed, each position once per pass). Default sequential",
    )
    resign: str = spec_field(
        "text",
        "none",
        flag="--resign",
        canon="resign",
        what="none or a --resign rule (movecount=K,score=X[,twosided=true])",
        help="movecount=K,score=X[,twosided=true]: a side whose own last K moves all scored"
        " <= -X loses (reason adjudicated_resign); two-sided, the opponent's last K must also"
        " have scored >= X. Scores are on dsq's [-1, 1] scale: a threshold of S centipawns"
        " (evaluation units) is tanh(S/800). A move without a score breaks the run: random"
        " and greedy report none, so their games are never adjudicated. Default none",
    )
    draw: str = spec_field(
        "text",
        "none",
        flag="--draw",
        canon="draw",
        what="none or a --draw rule (movenumber=P,movecount=K,score=Y)",
        help="movenumber=P,movecount=K,score=Y: a draw (reason adjudicated_draw) once each"
        " side has made P moves and the last K moves of each side all scored within [-Y, Y];"
        " a capture or a move without a score restarts the run (as --resign). Default none",
    )

    record: str = spec_field(
        "choice",
        "moves",
        flag="--record",
        choices=RECORDS,
        help="what is stored of each game: moves (everything) or outcomes (the result,"
        " length, captures counts, pieces left and seed, not the moves: a few bytes a game;"
        " the moves are recomputed from the seed when a game is replayed, so only bots"
        " whose play the seed decides may be recorded so). Default moves",
    )

    def to_dict(self) -> dict[str, Any]:
        """The spec as stored in the batch record."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BatchSpec:
        """The spec of a batch record (unknown keys are ignored; missing optional fields
        take their defaults, as in records written before the field existed)."""
        return cls(**{f.name: d[f.name] for f in dataclasses.fields(cls) if f.name in d})


def _info(f: dataclasses.Field) -> FieldInfo:
    kind, info = f.metadata["info"]
    return FieldInfo(name=f.name, kind=kind, **info)


SPEC_INFO: dict[str, FieldInfo] = {f.name: _info(f) for f in dataclasses.fields(BatchSpec)}
SPEC_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in dataclasses.fields(BatchSpec) if f.default is not dataclasses.MISSING
}


def spec_fields() -> tuple[FieldInfo, ...]:
    """Every field of :class:`BatchSpec`, in order, with how it is checked."""
    return tuple(SPEC_INFO.values())


_RULES = {"resign": parse_resign, "draw": parse_draw}  # the score adjudication's texts


def _parses(parse: Any, value: str) -> bool:
    try:
        parse(value)
    except DsqError:
        return False
    return True


def check_value(info: FieldInfo, value: Any) -> bool:
    """Whether ``value`` is of the field's kind and within its range or choices."""
    if info.kind == "text":
        text = isinstance(value, str) and 0 < len(value) <= MAX_TEXT
        return text and (info.canon not in _RULES or _parses(_RULES[info.canon], value))
    if info.kind == "suite":
        return isinstance(value, str) and len(value) <= MAX_SUITE_TEXT
    if info.kind == "bool":
        return isinstance(value, bool)
    if info.kind == "int":
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and info.low <= value <= info.high
        )
    return isinstance(value, str) and value in info.choices


def value_error(info: FieldInfo, value: Any) -> SpecError:
    """The error of a bad value, worded with the field's flag."""
    if info.kind == "int":
        msg = f"{info.flag} must be between {info.low} and {info.high}, got {value}"
    elif info.kind == "choice":
        msg = f"{info.flag} takes one of {', '.join(info.choices)}, not {value!r}"
    elif info.kind == "bool":
        msg = f"{info.flag} must be true or false, got {value!r}"
    elif info.kind == "suite":
        msg = f"{info.flag} must be {info.describe()} of at most {MAX_SUITE_TEXT} characters"
    else:
        msg = f"{info.flag} must be {info.describe()}, got {value!r}"
    return SpecError(msg, info.name)


def check_pair(spec: Mapping[str, Any]) -> None:
    """``SpecError`` if fields valid one by one do not go together."""
    if spec["swap"] and spec["games"] % 2:
        raise SpecError(
            f"--swap plays games in pairs: --games must be even, got {spec['games']}",
            "games",
            key="swap_odd",
            games=spec["games"],
        )
    if spec["opening_plies"] >= spec["ply_cap"]:
        raise SpecError(
            f"--opening-plies ({spec['opening_plies']}) must be below --ply-cap "
            f"({spec['ply_cap']})",
            "opening_plies",
            key="opening_cap",
            opening=spec["opening_plies"],
            cap=spec["ply_cap"],
        )
