"""The protocol seen from dsq: one engine's handshake, options, games and searches.

:class:`EngineClient` speaks to one :class:`~sim.external.process.EngineProcess`: the
handshake word (``uci``, ``jcei`` or ``uji``) answered by ``id``/``option`` lines and a
line ending in ``ok``; ``setoption``; ``isready``/``readyok``; ``ucinewgame``; and
``position ...`` + ``go ...`` answered by ``info`` lines and ``bestmove``. Optional
commands: ``perft N`` and ``moves`` (see :meth:`EngineClient.perft` and
:meth:`EngineClient.legal_moves`). Anything wrong is an
:class:`~sim.external.process.EngineFault`.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from typing import Any

from engine.codes import MOVE_SHAPE
from sim.external.process import EngineFault, EngineProcess
from sim.external.registry import EngineEntry

MAX_OTHER_LINES = 10_000  # lines that are neither info nor bestmove while searching
MAX_ANSWER_LINES = 10_000  # lines of one handshake or one query answer
MAX_ANSWER_BYTES = 4 << 20  # bytes of one handshake or one query answer
_PERFT_RE = re.compile(
    r"(?:perft\s*\(?\s*\d+\s*\)?|nodes(?: searched)?|total)\s*[=:]\s*(\d+)", re.IGNORECASE
)
_HASHES: dict[tuple[str, int, int], str] = {}


class UnreadableMoves(EngineFault):
    """The engine answered ``moves`` with a move list dsq cannot read (``line``)."""

    def __init__(self, engine: str, line: str) -> None:
        super().__init__("garbage", f"could not read the engine's move list: {line[:200]!r}")
        self.engine, self.line = engine, line


def move_word(word: str) -> str:
    """A move an engine wrote, in dsq's case (``F2E2`` is ``f2e2``); other words as they are."""
    return word.lower() if MOVE_SHAPE.fullmatch(word.lower()) else word  # either case


@dataclass
class SearchResult:
    """What one ``go`` brought: the ``bestmove`` text, the last ``info`` fields, the wait."""

    move: str
    info: dict[str, Any] = field(default_factory=dict)
    elapsed_ms: float = 0.0


def file_sha256(program: str) -> str | None:
    """The SHA-256 (hex) of the program's file, found on ``PATH`` if need be; None if it is
    not a readable file. Cached on (path, size, mtime)."""
    path = program if os.sep in program else shutil.which(program)
    if not path or not os.path.isfile(path):
        return None
    try:
        st = os.stat(path)
        key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
        if key not in _HASHES:
            h = hashlib.sha256()
            with open(path, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
            _HASHES[key] = h.hexdigest()
        return _HASHES[key]
    except OSError:
        return None


def parse_info(tokens: list[str]) -> dict[str, Any]:
    """The fields of an ``info`` line dsq keeps: depth, seldepth, score (cp), mate_in,
    nodes, nps, time_ms and pv; unknown or malformed fields are skipped."""
    out: dict[str, Any] = {}
    i = 1
    ints = {"depth": "depth", "seldepth": "seldepth", "nodes": "nodes", "nps": "nps"}
    while i < len(tokens):
        t = tokens[i]
        try:
            if t in ints:
                out[ints[t]] = int(tokens[i + 1])
                i += 2
            elif t == "time":
                out["time_ms"] = float(tokens[i + 1])
                i += 2
            elif t == "score" and i + 2 < len(tokens):
                kind, value = tokens[i + 1], int(tokens[i + 2])
                if kind == "cp":
                    out["score"] = value
                elif kind == "mate":
                    out["mate_in"] = value
                i += 3
            elif t == "pv":
                out["pv"] = [m.lower() for m in tokens[i + 1 :] if MOVE_SHAPE.fullmatch(m.lower())]
                break
            else:
                i += 1
        except (ValueError, IndexError):
            i += 1
    return out


class EngineClient:
    """A running engine of the registry, with ``options`` set on top of the entry's."""

    def __init__(self, entry: EngineEntry, options: tuple[tuple[str, str], ...] = ()) -> None:
        self.entry = entry
        self.options = options
        self.proc: EngineProcess | None = None
        self.id_name = ""
        self.id_author = ""
        self.option_lines: dict[str, str] = {}
        self.broken = False

    # -- life cycle ----------------------------------------------------------------------

    def start(self) -> EngineClient:
        """Start the process, shake hands, set the options, wait for ``readyok``; an engine
        that fails any of it is closed (its process group killed) before the fault rises."""
        entry = self.entry
        self.proc = EngineProcess(entry.argv(), entry.cwd, label=entry.name, log_dir=entry.log_dir)
        try:
            self._handshake()
        except BaseException:
            self.broken = True
            self.close()
            raise
        return self

    def _handshake(self) -> None:
        entry = self.entry
        deadline = time.monotonic() + entry.start_timeout
        self._send(entry.handshake, entry.start_timeout)
        answer = _Answer(entry.name, "handshake")
        while True:
            line = self._read(
                deadline,
                "handshake",
                f"engine {entry.name} did not finish its handshake ('{entry.handshake}' ... "
                f"a line ending in 'ok') within {entry.start_timeout:g} s",
            )
            answer.add(line)
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "id" and len(tokens) > 2:
                if tokens[1] == "name":
                    self.id_name = line.split("name", 1)[1].strip()
                elif tokens[1] == "author":
                    self.id_author = line.split("author", 1)[1].strip()
            elif tokens[0] == "option" and "name" in tokens:
                name = line.split("name", 1)[1].split(" type ")[0].strip()
                self.option_lines[name] = line
            elif len(tokens) == 1 and tokens[0].endswith("ok") and tokens[0] != "readyok":
                break
        for name, value in (*entry.options, *self.options):
            self._send(f"setoption name {name} value {value}", entry.start_timeout)
        self.ready("handshake")

    def ready(self, kind: str = "no_answer") -> None:
        """``isready`` and wait for ``readyok`` (``start_timeout``); a fault of ``kind``."""
        self._send("isready")
        deadline = time.monotonic() + self.entry.start_timeout
        answer = _Answer(self.entry.name, "isready")
        while True:
            line = self._read(
                deadline,
                kind,
                f"engine {self.entry.name} did not answer isready within "
                f"{self.entry.start_timeout:g} s",
            )
            if line.strip() == "readyok":
                return
            try:
                answer.add(line)
            except EngineFault:
                self.broken = True
                raise

    def new_game(self) -> None:
        """``ucinewgame``, then ``isready``."""
        self._send("ucinewgame")
        self.ready()

    def close(self) -> None:
        """Quit the engine (killed if it does not leave at once)."""
        if self.proc is not None:
            self.proc.close()

    def alive(self) -> bool:
        """Whether the engine runs and has not misbehaved."""
        return self.proc is not None and not self.broken and self.proc.alive()

    def identity(self) -> dict[str, str | None]:
        """``name`` (registry), ``version`` (the ``id name`` line), ``sha256`` (program file)."""
        return {
            "name": self.entry.name,
            "version": self.id_name or None,
            "sha256": file_sha256(self.entry.program),
        }

    # -- searching -------------------------------------------------------------------------

    def go(
        self, position: str, go_args: str, wait_ms: float | None, grace_ms: float
    ) -> SearchResult:
        """Send ``position`` and ``go go_args``; return the ``bestmove`` line's move.

        After ``wait_ms`` without an answer, ``stop`` is sent and ``grace_ms`` more are
        allowed; then the engine has not answered (a ``no_answer`` fault).
        """
        self._send(position)
        self._send(f"go {go_args}".rstrip())
        t0 = time.monotonic()
        deadline = None if wait_ms is None else t0 + wait_ms / 1000.0
        stopped = False
        info: dict[str, Any] = {}
        other = 0
        while True:
            try:
                line = self._readline(deadline)
            except TimeoutError:
                if stopped:
                    self.broken = True
                    total = (wait_ms or 0) + grace_ms
                    raise EngineFault(
                        "no_answer", f"no answer from {self.entry.name} within {total:.0f} ms"
                    ) from None
                self._send("stop")
                stopped = True
                deadline = time.monotonic() + grace_ms / 1000.0
                continue
            if line.startswith("info "):
                fields = parse_info(line.split())
                if "score" in fields or "mate_in" in fields:  # the newest score, cp or mate
                    info.pop("score", None)
                    info.pop("mate_in", None)
                info.update(fields)
            elif line.startswith("bestmove"):
                tokens = line.split()
                elapsed = (time.monotonic() - t0) * 1000.0
                move = move_word(tokens[1]) if len(tokens) > 1 else ""
                return SearchResult(move, info, elapsed)
            else:
                other += 1
                if other > MAX_OTHER_LINES:
                    self.broken = True
                    raise EngineFault(
                        "garbage", f"engine {self.entry.name} wrote {other} lines but no bestmove"
                    )

    def query(self, command: str, timeout: float) -> list[str] | None:
        """Send ``command`` then ``isready``; the lines before ``readyok``, or None when the
        engine gave no ``readyok`` within ``timeout`` seconds (the engine is then closed).
        An answer over :data:`MAX_ANSWER_LINES` lines or :data:`MAX_ANSWER_BYTES` bytes is
        a ``garbage`` fault."""
        self._send(command)
        self._send("isready")
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        answer = _Answer(self.entry.name, command.split()[0] if command.split() else "query")
        while True:
            try:
                line = self._readline(deadline)
            except TimeoutError:
                self.broken = True
                return None
            if line.strip() == "readyok":
                return lines
            try:
                answer.add(line)
            except EngineFault:
                self.broken = True
                raise
            lines.append(line)

    def perft(self, position: str, depth: int, timeout: float = 60.0) -> int | None:
        """The engine's ``perft depth`` from ``position``, or None if it has no perft."""
        self._send(position)
        lines = self.query(f"perft {depth}", timeout)
        for line in lines or []:
            m = _PERFT_RE.search(line)
            if m:
                return int(m.group(1))
        return None

    def legal_moves(self, position: str, timeout: float = 10.0) -> list[str] | None:
        """The engine's legal moves from its ``moves`` command (a line ``Legal moves (n):
        a3a4 ...`` or ``moves: ...``, moves in either case), or None if it has no such
        command; :class:`UnreadableMoves` when that line holds words that are not moves."""
        self._send(position)
        lines = self.query("moves", timeout)
        for line in lines or []:
            head, sep, rest = line.partition(":")
            if sep and "moves" in head.lower():
                words = rest.split()
                if not all(MOVE_SHAPE.fullmatch(t.lower()) for t in words):
                    raise UnreadableMoves(self.entry.name, line)
                return sorted(t.lower() for t in words)
        return None

    # -- lines -----------------------------------------------------------------------------

    def _send(self, line: str, timeout: float | None = None) -> None:
        assert self.proc is not None, "the engine has not started"
        try:
            self.proc.send(line) if timeout is None else self.proc.send(line, timeout)
        except EngineFault:
            self.broken = True
            raise

    def _readline(self, deadline: float | None) -> str:
        assert self.proc is not None, "the engine has not started"
        try:
            return self.proc.readline(deadline)
        except EngineFault:
            self.broken = True
            raise

    def _read(self, deadline: float, kind: str, message: str) -> str:
        try:
            return self._readline(deadline)
        except TimeoutError:
            self.broken = True
            raise EngineFault(kind, message) from None


class _Answer:
    """Counts the lines and bytes of one answer; past the limits, a ``garbage`` fault."""

    def __init__(self, engine: str, what: str) -> None:
        self.engine, self.what = engine, what
        self.lines = self.bytes = 0

    def add(self, line: str) -> None:
        self.lines += 1
        self.bytes += len(line) + 1
        if self.lines > MAX_ANSWER_LINES or self.bytes > MAX_ANSWER_BYTES:
            raise EngineFault(
                "garbage",
                f"engine {self.engine} answered {self.what!r} with more than "
                f"{MAX_ANSWER_LINES:,} lines or {MAX_ANSWER_BYTES >> 20} MiB",
            )
