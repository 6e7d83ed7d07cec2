"""The text form of recorded games, in the spirit of PGN (``docs/game-records.md``).

A game is its tags, one per line (``[Red "alphabeta:depth=2"]``, the value a JSON string),
then its moves numbered by move (``1. a3a4 a7a6 2. ...``), each optionally followed by a
comment holding the ply's search score and thinking time (``{+0.25/85ms}``), then the result
(``1-0``, ``0-1``, ``1/2-1/2``). :func:`format_game` writes one game row (a dict of the
columns of :data:`sim.storage.schema.GAME_SCHEMA`); :func:`parse_games` reads games back
from lines, keeping each item's line number for error messages. Replaying and checking a
game is :mod:`sim.records.gameimport`'s work; this module is text only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.codes import MOVE_SHAPE
from engine.errors import DsqError

RESULTS = {"red": "1-0", "blue": "0-1", "draw": "1/2-1/2"}
WINNER_OF = {v: k for k, v in RESULTS.items()}
WIDTH = 79  # the longest move-text line written

INT_RANGES = {
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}
# Tag -> (column, kind), in the order they are written. ``Date`` (the batch record's), the
# ``Result`` (winner), the engines and the per-ply flags are handled on their own.
COLUMN_TAGS: dict[str, tuple[str, str]] = {
    "Batch": ("batch_id", "str"),
    "Index": ("game_index", "int32"),
    "Rules": ("rules", "str"),
    "FEN": ("start_fen", "str"),
    "Red": ("red", "str"),
    "Blue": ("blue", "str"),
    "Reason": ("reason", "str"),
    "PlyCount": ("plies", "int32"),
    "Seed": ("seed", "int64"),
    "Pair": ("pair_id", "int32"),
    "OpeningPlies": ("opening_plies", "int16"),
    "PlyCap": ("ply_cap", "int32"),
    "TimeControl": ("time_control", "str"),
    "RedClockMs": ("red_clock_ms", "int32"),
    "BlueClockMs": ("blue_clock_ms", "int32"),
    "ForfeitNote": ("forfeit_note", "str"),
    "Branching": ("branching", "float"),
    "DurationMs": ("duration_ms", "float"),
    "EngineVersion": ("engine_version", "str"),
    "SchemaVersion": ("schema_version", "int16"),
}
ENGINE_TAGS = {"": "name", "Id": "version", "Sha256": "sha256"}  # RedEngine, RedEngineId, ...
FLAG_TAGS = {"MoveTimes": "move_ms", "Scores": "scores"}  # written "yes" when recorded
KNOWN_TAGS = {
    *COLUMN_TAGS,
    "Date",
    "Result",
    *FLAG_TAGS,
    *(f"{side}Engine{suffix}" for side in ("Red", "Blue") for suffix in ENGINE_TAGS),
}

TAG_RE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+("(?:[^"\\]|\\.)*")\]')
NUMBER_RE = re.compile(r"\d+\.(\.\.)?")
MS_RE = re.compile(r"(\d{1,10})ms")
SCORE_RE = re.compile(r"[+-](\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?(nan|inf)")
TOKEN_RE = re.compile(r"\{[^{}]*\}|[^\s{}]+|[{}]")


class GameTextError(DsqError):
    """A game record that does not follow the text format; ``line`` is where (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def short_float(value: float) -> str:
    """The shortest decimal that reads back as the same 32-bit float (``0.1``, ``23.5``)."""
    return np.format_float_positional(np.float32(value), unique=True, trim="-")


def _quote(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _tag_value(value: Any, kind: str) -> str:
    return short_float(value) if kind == "float" else str(value) if kind != "str" else value


def format_game(row: dict[str, Any], date: str | None = None) -> str:
    """The text form of one game row (the columns of GAME_SCHEMA, moves as codes), ending
    with a blank line; ``date`` is the ``Date`` tag (``2026.12.01``, None: none)."""
    tags: list[tuple[str, str]] = []
    for tag, (column, kind) in COLUMN_TAGS.items():
        value = row.get(column)
        if tag == "Rules" and date is not None:
            tags.append(("Date", date))
        if tag == "Reason":
            tags.append(("Result", RESULTS[row["winner"]]))
        if value is not None:
            tags.append((tag, _tag_value(value, kind)))
        if tag == "BlueClockMs":
            for side in ("Red", "Blue"):
                engine = row.get(f"{side.lower()}_engine")
                for suffix, key in ENGINE_TAGS.items():
                    if engine is not None and (engine.get(key) is not None or not suffix):
                        tags.append((f"{side}Engine{suffix}", engine.get(key) or ""))
            for flag, col in FLAG_TAGS.items():
                if row.get(col) is not None:
                    tags.append((flag, "yes"))
    lines = [f"[{tag} {_quote(value)}]" for tag, value in tags]
    lines.append("")
    lines.extend(_wrap(move_tokens(row)))
    lines.append("")
    return "\n".join(lines) + "\n"


def move_tokens(row: dict[str, Any]) -> list[str]:
    """The move text of a game row as the units it is wrapped by: each move (after its
    move number, if it has one, and before its comment, if it has one), the result."""
    # lazy: start-up time (the engine package loads its compiled kernels)
    from engine.position import decode_move

    fen = row.get("start_fen")
    blue_first = isinstance(fen, str) and len(fen.split()) > 1 and fen.split()[1] == "b"
    scores, times = row.get("scores"), row.get("move_ms")
    out: list[str] = []
    for ply, code in enumerate(row["moves"] or ()):  # none: recorded without its moves
        number = 1 + (ply + blue_first) // 2
        move = decode_move(int(code))
        if (ply + blue_first) % 2 == 0:
            move = f"{number}. {move}"
        elif ply == 0:
            move = f"{number}... {move}"
        out.append(move)
        items = []
        if scores is not None and ply < len(scores) and scores[ply] is not None:
            s = short_float(scores[ply])
            items.append(s if s.startswith("-") else "+" + s)
        if times is not None and ply < len(times) and times[ply] is not None:
            items.append(f"{int(times[ply])}ms")
        if items:
            out[-1] += " {" + "/".join(items) + "}"
    out.append(RESULTS[row["winner"]])
    return out


def _wrap(tokens: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > WIDTH:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    lines.append(current)
    return lines


# ----------------------------------------------------------------------------- reading


@dataclass
class GameText:
    """One game as read: tag values with their lines, the moves with their lines, each
    ply's score and time (None: none given), and the result token."""

    first_line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    moves: list[tuple[str, int]] = field(default_factory=list)
    scores: list[float | None] = field(default_factory=list)
    times: list[int | None] = field(default_factory=list)
    result: tuple[str, int] | None = None

    def tag(self, name: str) -> str | None:
        """A tag's value, or None when the game does not have it."""
        item = self.tags.get(name)
        return None if item is None else item[0]

    def line_of(self, name: str) -> int:
        """The line of a tag (the game's first line when it has none)."""
        item = self.tags.get(name)
        return self.first_line if item is None else item[1]

    def int_tag(self, name: str) -> int | None:
        """An integer tag's value in its column's range; GameTextError otherwise."""
        text = self.tag(name)
        if text is None:
            return None
        low, high = INT_RANGES[COLUMN_TAGS[name][1]]
        t = text.strip()
        body = t[1:] if t[:1] == "-" else t
        if not body.isascii() or not body.isdigit() or len(body) > 20 or not low <= int(t) <= high:
            raise GameTextError(
                self.line_of(name), f"[{name}] expects a whole number {low}..{high}, got {text!r}"
            )
        return int(t)

    def float_tag(self, name: str) -> float | None:
        """A number tag's value; GameTextError when it is not a number."""
        text = self.tag(name)
        if text is None:
            return None
        try:
            return float(text) if len(text) <= 40 else float("x")
        except ValueError:
            raise GameTextError(
                self.line_of(name), f"[{name}] expects a number, got {text!r}"
            ) from None


def _read_tag(line: str, number: int) -> tuple[str, str]:
    m = TAG_RE.fullmatch(line.strip())
    if m is None:
        raise GameTextError(number, 'expected a tag like [Name "value"]')
    try:
        value = json.loads(m.group(2))
    except ValueError:
        raise GameTextError(number, f"the value of [{m.group(1)}] is not a quoted text") from None
    return m.group(1), value


def _read_comment(game: GameText, token: str, number: int) -> None:
    if not game.moves or len(game.scores) == len(game.moves):
        raise GameTextError(number, "a comment {...} belongs after a move (once per move)")
    score: float | None = None
    ms: int | None = None
    for item in token[1:-1].strip().split("/"):
        item = item.strip()
        if ms is None and MS_RE.fullmatch(item) and int(item[:-2]) < 2**32:
            ms = int(item[:-2])
        elif score is None and ms is None and SCORE_RE.fullmatch(item):
            score = float(item)
        else:
            raise GameTextError(
                number, f"comment {token!r}: expected {{SCORE/TIMEms}}, e.g. {{+0.25/85ms}}"
            )
    game.scores.append(score)
    game.times.append(ms)


def _read_moves(game: GameText, line: str, number: int) -> bool:
    """Read one line of move text into ``game``; True once its result has been read."""
    for token in TOKEN_RE.findall(line):
        if game.result is not None:
            raise GameTextError(number, f"{token!r} after the result {game.result[0]}")
        if token.startswith("{"):
            if not token.endswith("}"):
                raise GameTextError(number, "a comment must close on its line with '}'")
            _read_comment(game, token, number)
            continue
        if len(game.scores) < len(game.moves):
            game.scores.append(None)
            game.times.append(None)
        if token in WINNER_OF or token == "*":
            game.result = (token, number)
        elif MOVE_SHAPE.fullmatch(token):
            game.moves.append((token, number))
        elif not NUMBER_RE.fullmatch(token):
            raise GameTextError(number, f"expected a move like a3a4, got {token[:40]!r}")
    return game.result is not None


def parse_games(lines: Iterable[tuple[int, str]]) -> Iterator[GameText]:
    """The games of numbered lines ``(line number, text)``, in order; GameTextError names
    the line of the first thing that does not follow the format."""
    game: GameText | None = None
    in_moves = False
    number = 0
    for number, raw in lines:
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if game is None or (line.startswith("[") and not in_moves):
            if game is None:
                game = GameText(first_line=number)
            name, value = _read_tag(line, number)
            if name in game.tags:
                raise GameTextError(number, f"[{name}] given twice in one game")
            game.tags[name] = (value, number)
            continue
        in_moves = True
        if _read_moves(game, line, number):
            yield game
            game, in_moves = None, False
    if game is not None:
        raise GameTextError(number, "the last game has no result (1-0, 0-1 or 1/2-1/2)")
