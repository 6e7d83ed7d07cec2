"""Opening suites: a file of start positions the games of a batch or a study play in turn.

The format (docs/openings.md): one position a line, ``startpos`` followed by moves
(``startpos a3a4 a7a6``), a FEN, or a FEN followed by ``moves`` and moves; optionally a TAB
and a name; ``#`` starts a comment (a whole line or the rest of one); blank lines are
ignored. Every line is checked under the rule set with the engine (the FEN, each move's
legality, no position of the line finished). :func:`load_suite` reads a file a person names;
:func:`parse_suite` reads the canonical text a batch spec holds (:attr:`Suite.text`), so a
resumed batch or a Dask worker never needs the file again.

Which opening a game plays (:func:`opening_indices`) is a function of the batch seed, the
order and the game's pair only: pair ``k`` plays opening ``k mod size`` (``sequential``), or
the ``k mod size``-th of a permutation drawn from the batch seed and the cycle ``k // size``
(``random``: every opening once before any again, a new order each cycle).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from engine.codes import MOVE_SHAPE
from engine.errors import DsqError, FenError, MoveError, RulesError
from engine.position import Position, encode_move
from engine.rng import GOLDEN, MASK64, mix64
from engine.rules import Ruleset, parse_rules
from sim.core.seeds import suite_seed
from sim.storage.textfiles import read_named_text

__all__ = [
    "MAX_LINE_MOVES",
    "MAX_SUITE_BYTES",
    "MAX_SUITE_LINES",
    "ORDERS",
    "Entry",
    "Suite",
    "SuiteError",
    "load_suite",
    "opening_indices",
    "parse_suite",
]

MAX_SUITE_BYTES = 1 << 20  # a suite file is at most 1 MiB
MAX_SUITE_LINES = 10_000  # positions in a suite
MAX_LINE_MOVES = 200  # moves after a line's start position (the most random opening plies)
ORDERS = ("sequential", "random")
BOARD_RE = re.compile(r"[0-9A-Za-z]*(?:/[0-9A-Za-z]*)+")
"""What a FEN's board looks like: a line starting otherwise is not shown in an error."""


class SuiteError(DsqError):
    """An opening suite that cannot be used; the message names ``FILE:LINE``."""


@dataclass(frozen=True)
class Entry:
    """One opening: the FEN it starts from (None: the initial position), the moves played
    from there, and its name (None if the line gives none)."""

    start_fen: str | None
    moves: tuple[str, ...]
    name: str | None = None

    @property
    def codes(self) -> tuple[int, ...]:
        """The moves as ``from * 64 + to`` codes."""
        return tuple(encode_move(m) for m in self.moves)

    def line(self) -> str:
        """The entry as one canonical line of a suite."""
        if self.start_fen is None:
            text = " ".join(("startpos", *self.moves))
        else:
            text = (
                " ".join((self.start_fen, "moves", *self.moves)) if self.moves else self.start_fen
            )
        return f"{text}\t{self.name}" if self.name else text


@dataclass(frozen=True)
class Suite:
    """The openings of a suite, in file order, and their canonical text and its hash."""

    entries: tuple[Entry, ...]

    @property
    def text(self) -> str:
        """The canonical text (one line per entry), what a batch spec stores."""
        return "".join(e.line() + "\n" for e in self.entries)

    @property
    def digest(self) -> str:
        """The SHA-256 of the canonical text (hex): equal digests, equal suites."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def longest(self) -> int:
        """The most moves of any line."""
        return max((len(e.moves) for e in self.entries), default=0)

    def __len__(self) -> int:
        return len(self.entries)


def _fail(source: str, line: int, message: str) -> SuiteError:
    return SuiteError(f"{source}:{line}: {message}")


def _entry(source: str, number: int, raw: str, rules: Ruleset) -> Entry | None:
    """The entry of line ``number`` (None: blank or a comment), checked under ``rules``."""
    text = raw.split("#", 1)[0]
    position, tab, name_text = text.partition("\t")
    name = " ".join(name_text.split()) or None
    tokens = position.split()
    if not tokens:
        if name:
            raise _fail(source, number, "a name without a position before the TAB")
        return None
    if tokens[0] == "startpos":
        fen, moves = None, tokens[1:]
        if moves[:1] == ["moves"]:
            moves = moves[1:]
    elif not BOARD_RE.fullmatch(tokens[0]):
        # not echoed: a file that is no suite (a path naming another file) keeps its content
        raise _fail(
            source, number, "not a position: a line starts with startpos or a FEN's board "
            "(ranks of letters and digits separated by '/'; docs/openings.md)",
        )  # fmt: skip
    elif len(tokens) < 4:
        raise _fail(source, number, f"a FEN has 4 fields '<board> <side> <clock> <fullmove>', "
                    f"got {len(tokens)}")  # fmt: skip
    else:
        fen, rest = " ".join(tokens[:4]), tokens[4:]
        if tokens[1] not in ("r", "b") or not all(t.isdecimal() and len(t) < 10
                                                  for t in tokens[2:4]):  # fmt: skip
            raise _fail(source, number, "bad FEN: after the board come the side to move "
                        "(r or b), the no-capture clock and the fullmove number")  # fmt: skip
        if rest and rest[0] != "moves":
            raise _fail(source, number, "after the FEN's 4 fields only 'moves' and moves")
        moves = rest[1:]
    if len(moves) > MAX_LINE_MOVES:
        raise _fail(source, number, f"{len(moves)} moves: a line has at most {MAX_LINE_MOVES}")
    try:
        pos = Position(rules, fen)
    except FenError as exc:
        raise _fail(source, number, f"bad FEN: {exc}") from None
    if (result := pos.result) is not None:
        raise _fail(source, number, f"the position is already finished ({result.winner}, "
                    f"{result.reason})")  # fmt: skip
    for i, move in enumerate(moves, start=1):
        if not MOVE_SHAPE.fullmatch(move):  # only a move's shape is shown in an error
            raise _fail(source, number, f"move {i}: not a move (a move is written "
                        "<from><to>, e.g. a3a4)")  # fmt: skip
        try:
            pos.play(move)
        except MoveError as exc:
            raise _fail(source, number, f"move {i} ({move}): {exc}") from None
        if (result := pos.result) is not None:
            raise _fail(source, number, f"the game is over after move {i} ({move}): "
                        f"{result.winner}, {result.reason}")  # fmt: skip
    start = None if fen is None else Position(rules, fen).fen()
    return Entry(start, tuple(pos.history), name)


def parse_suite(text: str, rules: Ruleset | str, source: str = "openings") -> Suite:
    """The suite written in ``text``, every line checked under ``rules``; ``SuiteError``
    naming ``SOURCE:LINE`` and what is wrong."""
    try:
        ruleset = parse_rules(rules)
    except RulesError as exc:
        raise SuiteError(f"{source}: {exc}") from None
    entries: list[Entry] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        entry = _entry(source, number, raw, ruleset)
        if entry is None:
            continue
        if len(entries) == MAX_SUITE_LINES:
            raise _fail(source, number, f"more than {MAX_SUITE_LINES} positions")
        entries.append(entry)
    if not entries:
        raise SuiteError(f"{source}: no position in the suite (only blank lines or comments)")
    return Suite(tuple(entries))


@lru_cache(maxsize=16)
def cached_suite(text: str, rules: str, source: str = "the batch's openings") -> Suite:
    """:func:`parse_suite` of a batch spec's canonical text, once per process."""
    return parse_suite(text, rules, source)


def load_suite(path: str | Path, rules: Ruleset | str) -> Suite:
    """Read the suite file ``path`` (a regular file of at most 1 MiB of UTF-8 text, never a
    FIFO or a device) and check it under ``rules``; one ``SuiteError`` if it cannot be used."""
    return parse_suite(read_suite_file(path), rules, str(path))


def read_suite_file(path: str | Path) -> str:
    """The text of the suite file ``path``, read bounded (see :func:`load_suite`)."""
    return read_named_text(path, "the openings file", MAX_SUITE_BYTES, SuiteError)


@lru_cache(maxsize=64)
def _permutation(batch_seed: int, cycle: int, size: int) -> np.ndarray:
    """A permutation of ``range(size)`` drawn from (batch seed, cycle): Fisher-Yates on a
    splitmix64 stream, the same on every machine and numpy version."""
    order = list(range(size))
    z = suite_seed(batch_seed, cycle)
    for i in range(size - 1, 0, -1):
        z = (z + GOLDEN) & MASK64
        j = mix64(z) % (i + 1)
        order[i], order[j] = order[j], order[i]
    out = np.array(order, dtype=np.int64)
    out.setflags(write=False)
    return out


def opening_indices(batch_seed: int, order: str, size: int, pairs: np.ndarray) -> np.ndarray:
    """The suite entry each pair plays (``pairs``: pair ids), as an int64 array."""
    pairs = np.asarray(pairs, dtype=np.int64)
    slot = pairs % size
    if order == "sequential":
        return slot
    cycles = pairs // size
    out = np.empty(pairs.size, dtype=np.int64)
    for c in np.unique(cycles).tolist():
        pick = cycles == c
        out[pick] = _permutation(int(batch_seed), int(c), size)[slot[pick]]
    return out
