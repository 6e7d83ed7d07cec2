"""What ``dsq engine`` reads from its client, bounded: lines of at most ``MAX_LINE_BYTES``
(a longer one is skipped up to its newline, never held whole), ``go`` limits checked
(refused when not a whole number or out of range below, clamped above) and a clock shared
into a time per move, ``position`` commands set up whole or refused, and a ``perft`` that
a ``stop`` ends between small steps."""

from __future__ import annotations

import threading
from typing import IO, Any

from engine.errors import DsqError
from engine.position import Position
from engine.rules import Ruleset
from sim.bots.registry import DEPTH

MAX_LINE_BYTES = 1 << 20  # 1 MiB: a position with ~200,000 moves fits
INT64_MAX = 2**63 - 1
MAX_MS = 2**31 - 1  # the longest time a go limit asks for (~24.8 days): larger ones clamp
MOVES_TO_GO = 30  # a clock without movestogo is shared as if this many moves were left
PERFT_STEP = 4  # plies counted per compiled call once perft is deeper (a few ms each)


class LineTooLong(Exception):
    """A line over ``MAX_LINE_BYTES`` was skipped; ``size`` is its length in bytes."""

    def __init__(self, size: int):
        super().__init__(f"a line of {size} bytes")
        self.size = size


class LineReader:
    """Lines from a stream (binary when it has one underneath), each at most ``limit``
    bytes; decoding errors become U+FFFD."""

    def __init__(self, stream: IO[Any], limit: int = MAX_LINE_BYTES):
        self.raw = getattr(stream, "buffer", stream)
        self.limit = limit

    def readline(self) -> str:
        """The next line (with its newline), ``""`` at end of input; raises
        :class:`LineTooLong` after skipping a longer one."""
        data = self.raw.readline(self.limit + 1)
        if len(data) > self.limit and data[-1:] not in (b"\n", "\n"):
            size = len(data)
            while True:  # skip the rest of the line, a bounded piece at a time
                more = self.raw.readline(self.limit)
                size += len(more)
                if not more or more[-1:] in (b"\n", "\n"):
                    raise LineTooLong(size)
        return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


def parse_count(word: str, high: int = INT64_MAX) -> int | None:
    """A whole number from the protocol, clamped to ``0..high`` (``-5`` is 0, ``10**30``
    is ``high``); None when ``word`` is not one."""
    digits = word[1:] if word[:1] in "+-" else word
    if not (digits.isascii() and digits.isdigit()):
        return None
    if word.startswith("-"):
        return 0
    digits = digits.lstrip("0") or "0"
    return high if len(digits) > len(str(high)) else min(int(digits), high)


def perft_until(pos: Position, depth: int, stop: threading.Event) -> int | None:
    """``pos.perft(depth)``, or None if ``stop`` was set before it was counted (checked
    between compiled steps of ``PERFT_STEP`` plies)."""
    if depth <= PERFT_STEP:
        return pos.perft(depth)
    total = 0
    for move in pos.legal_moves():
        if stop.is_set():
            return None
        child = pos.copy()
        child.play(move)
        count = perft_until(child, depth - 1, stop)
        if count is None:
            return None
        total += count
    return total


# The numbers ``go`` takes and their largest values: larger ones clamp, as negative ones to 0.
GO_NUMBERS = {"depth": int(DEPTH.high), "nodes": 2**63 - 1, "movestogo": 2**31 - 1}
GO_NUMBERS.update(dict.fromkeys(("movetime", "wtime", "btime", "winc", "binc"), MAX_MS))


POSITIVE = ("depth", "nodes", "movetime", "movestogo")  # limits of at least 1; clocks >= 0


def go_args(args: list[str]) -> dict[str, int]:
    """The numeric arguments of ``go``, clamped above to ``GO_NUMBERS``; DsqError for a
    limit without a whole number after it, a negative one, or a zero ``depth``, ``nodes``,
    ``movetime`` or ``movestogo``, and for ``ponder`` (not offered). Other words
    (``infinite``, ``searchmoves`` ...) are left to the caller or ignored."""
    if "ponder" in args:
        raise DsqError("go ponder: pondering is not supported (no Ponder option is offered)")
    out: dict[str, int] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word not in GO_NUMBERS:
            i += 1
            continue
        text = args[i + 1] if i + 1 < len(args) else ""
        value = parse_count(text, GO_NUMBERS[word])
        if value is None:
            raise DsqError(f"go {word} takes a whole number, not {text[:40]!r}")
        least = 1 if word in POSITIVE else 0
        if text.startswith("-") and text[1:].strip("0") or value < least:
            raise DsqError(f"go {word} {text[:40]}: {word} is at least {least}")
        out[word] = value
        i += 2
    return out


def set_up(rules: Ruleset, args: list[str], pos: Position, head: str) -> tuple[Position, str]:
    """The position of ``position startpos|fen FEN [moves ...]`` and its set-up (``startpos``
    or the FEN), played on from ``pos`` (set up from ``head``) when the command extends it;
    ``pos`` is left as it was. DsqError for a bad command, FEN or move, naming the move's
    place in the command (``move 5 of the command``)."""
    if not args or args[0] not in ("startpos", "fen"):
        raise DsqError("position takes startpos or fen FEN, then moves ...")
    k = args.index("moves") if "moves" in args else len(args)
    setup, moves = args[:k], args[k + 1 :]
    if setup[0] == "startpos" and len(setup) > 1:
        raise DsqError(f"position startpos takes moves, not {setup[1][:40]!r}")
    if setup[0] == "fen" and len(setup) < 3:
        raise DsqError("position fen takes a FEN: the board and the side to move at least")
    new = "startpos" if setup[0] == "startpos" else " ".join(our_fen(setup[1:]))
    done = len(pos.history)
    if new == head and head and pos.history == moves[:done]:
        start = pos.copy()
    else:
        start, done = Position(rules, None if new == "startpos" else new), 0
    for n, move in enumerate(moves[done:], start=done + 1):
        try:
            start.play(move)
        except DsqError as exc:
            raise DsqError(f"move {n} of the command ({move[:40]}): {exc}") from None
    return start, new


def clock_ms(args: dict[str, int], red_to_move: bool) -> int | None:
    """Milliseconds to spend on this move from ``go`` arguments, or None for no time limit."""
    if "movetime" in args:
        return max(1, args["movetime"])
    own = args.get("wtime" if red_to_move else "btime")
    if own is None:
        return None
    inc = args.get("winc" if red_to_move else "binc", 0)
    togo = max(1, args.get("movestogo", MOVES_TO_GO))
    return max(1, min(own // togo + inc * 3 // 4, own * 3 // 4))


def our_fen(fields: list[str]) -> list[str]:
    """A FEN from ``position fen``: ``w`` read as red, missing counters as ``0 1``."""
    out = list(fields[:4])
    if len(out) >= 2 and out[1] == "w":
        out[1] = "r"
    if len(out) == 2:
        out += ["0", "1"]
    return out
