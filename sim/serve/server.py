"""``dsq engine``: one of dsq's bots behind the UCI-style protocol, on stdin/stdout.

The engine's options are the bot's parameters (``setoption name depth value 6``), plus
``rules`` (a rules spec) and ``seed`` (its generator's seed). ``go`` searches in a thread
while the next commands are read: ``isready`` answers at once, ``stop`` (and ``quit``) end
the search, which then answers with its deepest completed iteration, and any other command
waits for the search's ``bestmove`` first (an infinite search is stopped). ``go
depth/nodes/movetime/wtime/btime`` replace the bot's own limits for that search; a bare
``go`` uses them; ``go infinite`` searches ``alphabeta`` until ``stop`` and answers only
then (an ``mcts`` bot plays at most its own playouts, whose tree it has room for, and also
answers after ``stop``). ``alphabeta`` prints an ``info`` line per completed depth. ``perft N``,
``moves`` and ``d`` answer as in ``docs/engine-protocol.md``; ``perft`` runs on the search
thread too (``stop`` ends it). A ``position`` with a bad FEN or an illegal move is refused
whole: until the next good one, ``go`` answers ``info string`` (why) and ``bestmove 0000``,
and ``perft``, ``moves`` and ``d`` the ``info string``. A ``go`` whose limits are not whole
numbers or are below range (``depth 0``, ``movetime -5``), or that asks to ``ponder`` (no
Ponder option is offered), is answered the same way. Unknown commands (``ponderhit``
among them) are ignored with an ``info string``, without waiting for a search. Input is
bounded (:mod:`sim.serve.serverinput`: lines of at most 1 MiB, large numbers clamped);
at end of input a search still running is stopped after
``EOF_GRACE_S``; a closed output stops the search and ends the loop.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from engine.errors import DsqError
from engine.position import Position, decode_move
from engine.rng import seed_state
from engine.rules import parse_rules
from sim.bots.params import Param
from sim.bots.protocol import make_bot, warm_up
from sim.bots.registry import KINDS
from sim.bots.spec import BOTS, BotSpec, parse_bot
from sim.core.limits import MAX_PERFT_DEPTH
from sim.serve.serverinput import (
    MAX_LINE_BYTES,
    LineReader,
    LineTooLong,
    clock_ms,
    go_args,
    parse_count,
    perft_until,
    set_up,
)

HANDSHAKES = ("uci", "jcei", "uji")
COMMANDS = (*HANDSHAKES, "isready", "ucinewgame", "setoption", "position", "go", "stop", "quit",
            "perft", "moves", "d")  # fmt: skip
NEED_POSITION = ("go", "perft", "moves", "d")  # refused while the last position was refused
MAX_DEPTH = 60
EOF_GRACE_S = 10.0  # at end of input, a search (or perft) still running is stopped after this


def option_line(p: Param, value: Any) -> str:
    """The ``option`` line of a bot parameter whose current value is ``value``."""
    if p.kind == "int":
        return f"option name {p.name} type spin default {value} min {int(p.low)} max {int(p.high)}"
    if p.kind == "choice":
        var = " ".join(f"var {c}" for c in p.choices)
        return f"option name {p.name} type combo default {value} {var}"
    return f"option name {p.name} type string default {p.format(value)}"


class EngineServer:
    """The protocol loop around one bot spec (see the module docstring)."""

    def __init__(self, bot: str, rules: str = "standard", seed: int = 0, out: TextIO = sys.stdout):
        self.spec = parse_bot(bot)
        if KINDS[self.spec.name].external:
            raise DsqError("dsq engine serves dsq's own bots, not another engine")
        self.rules = parse_rules(rules)
        self.seed = seed
        self.out = out
        self.pos = Position(self.rules)
        self.head = "startpos"
        self.refused: str | None = None  # why the last position command was refused
        self.bot: Any = None
        self.warm = False
        self.lock = threading.Lock()  # one writer at a time: the loop and the search thread
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.worker: threading.Thread | None = None  # the search thread, started once
        self.idle = threading.Event()  # no search in progress
        self.idle.set()
        self.stopped = threading.Event()  # the search in progress was told to stop
        self.closed = threading.Event()  # the output is closed: nothing more is written
        self.perfting = False  # a perft is counting (guarded by the lock)
        self.ready_owed = 0  # readyok lines to write after that perft's answer
        self.infinite = False

    @property
    def searching(self) -> bool:
        """Whether a search is in progress (its ``bestmove`` not written yet)."""
        return not self.idle.is_set()

    # -- output --------------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Write lines and flush; once the output is closed, stop any search and write no
        more (the loop then ends)."""
        with self.lock:
            self._write(lines)

    def _write(self, lines: tuple[str, ...]) -> None:
        """:meth:`say` with the lock held."""
        if self.closed.is_set():
            return
        try:
            self.out.write("".join(line + "\n" for line in lines))
            self.out.flush()
        except (OSError, ValueError):  # a broken pipe, or a closed file
            self.closed.set()
            self._halt()

    # -- the loop ------------------------------------------------------------------------

    def serve(self, stdin: TextIO) -> int:
        """Answer commands from ``stdin`` until ``quit``, end of input or a closed output.
        Lines longer than ``MAX_LINE_BYTES`` are skipped (``info string error: ...``)."""
        reader = LineReader(stdin)
        try:
            while not self.closed.is_set():
                try:
                    line = reader.readline()
                except LineTooLong as exc:
                    self.say(
                        f"info string error: a line of {exc.size} bytes ignored "
                        f"(at most {MAX_LINE_BYTES} bytes a line)"
                    )
                    continue
                if not line:  # a search still answers (an infinite one is stopped)
                    self.finish(grace=EOF_GRACE_S)
                    return 0
                if not self.handle(line):
                    return 0
            self.finish(stop=True)
            return 0
        except BaseException:  # Ctrl-C, or the output closed: end the search at once
            self.finish(stop=True)
            raise

    def handle(self, line: str) -> bool:
        """Answer one command line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        cmd, rest = tokens[0], tokens[1:]
        if cmd not in COMMANDS:  # ignored (UCI), while a search goes on
            self.say(f"info string unknown command {cmd[:40]}")
            return True
        if cmd == "isready" and self.searching:
            with self.lock:  # a perft's answer comes before readyok, a search's after it
                self.ready_owed += self.perfting
                owed = self.perfting
            if not owed:
                self.say("readyok")  # at once, while the search goes on
            return True
        self.finish(stop=cmd in ("stop", "quit"))
        if cmd in NEED_POSITION and self.refused is not None:
            why = f"info string error: no position: {self.refused}"
            self.say(why, "bestmove 0000") if cmd == "go" else self.say(why)
            return True
        try:
            if cmd in HANDSHAKES:
                self.handshake(cmd)
            elif cmd == "isready":
                self.warm_up()
                self.say("readyok")
            elif cmd == "ucinewgame":
                self.bot = None
            elif cmd == "setoption":
                self.setoption(line)
            elif cmd == "position":
                self.position(rest)
            elif cmd == "go":
                self.go(rest)
            elif cmd == "perft":
                self.perft(rest)
            elif cmd == "moves":
                legal = self.pos.legal_moves()
                self.say(f"Legal moves ({len(legal)}): {' '.join(legal)}".rstrip())
            elif cmd == "d":
                fen = self.pos.fen_or_none() or "none (won in a den: no FEN describes it)"
                self.say(f"Fen: {fen}", f"Rules: {self.rules.spec}")
            elif cmd == "quit":
                return False
        except DsqError as exc:
            self.say(f"info string error: {exc}")
        return True

    def handshake(self, word: str) -> None:
        """``id`` lines, one ``option`` line per bot parameter, then ``<word>ok``."""
        lines = [f"id name dsq {self.spec.short}", "id author dsq"]
        lines += [option_line(p, self.spec.params[p.name]) for p in BOTS[self.spec.name][1]]
        lines += [
            f"option name rules type string default {self.rules.spec}",
            f"option name seed type spin default {self.seed} min 0 max {2**63 - 1}",
            f"{word}ok",
        ]
        self.say(*lines)

    def setoption(self, line: str) -> None:
        """``setoption name N value V``: a bot parameter, ``rules`` or ``seed``."""
        body = line.split("name", 1)[1] if " name " in f" {line} " else ""
        name, _, value = body.partition(" value ")
        name, value = name.strip(), value.strip()
        if name.lower() == "rules":
            self.rules = parse_rules(value)
            self.pos = Position(self.rules)
            self.head, self.refused = "startpos", None
        elif name.lower() == "seed":
            seed = parse_count(value)
            self.seed = self.seed if seed is None else seed
        else:
            params = {p.name: p for p in BOTS[self.spec.name][1]}
            param = params.get(name.lower())
            if param is None:
                raise DsqError(f"no option {name!r}; options: {', '.join(params)}, rules, seed")
            values = dict(self.spec.params)
            values[param.name] = param.parse(self.spec.name, value)
            self.spec = BotSpec(self.spec.name, values)
        self.bot = None
        self.warm = False  # another spec may need other kernels (tablebase=on)

    def position(self, args: list[str]) -> None:
        """``position startpos|fen FEN [moves ...]``, played on from the last one if it
        extends it; refused whole (see the module docstring) when anything in it is bad."""
        try:
            self.pos, self.head = set_up(self.rules, args, self.pos, self.head)
        except DsqError as exc:
            self.refused = str(exc)
            raise DsqError(f"position refused: {exc}") from None
        self.refused = None

    def warm_up(self) -> None:
        """Load the compiled kernels the bot plays with (before ``readyok``, and before a
        ``go`` if no ``isready`` came first), so no search pays for loading them: see
        :func:`sim.bots.protocol.warm_up`."""
        if self.warm:
            return
        warm_up(self.spec, self.rules)
        self.pos.legal_moves()
        self.warm = True

    def _bot(self) -> Any:
        if self.bot is None:
            self.bot = make_bot(self.spec, self.rules, seed_state(self.seed))
        return self.bot

    def go(self, args: list[str]) -> None:
        """Search the current position; ``info`` then ``bestmove`` (``0000`` if none)."""
        try:
            limits = go_args(args)
        except DsqError as exc:
            self.say(f"info string error: {exc}", "bestmove 0000")
            return
        if self.pos.result is not None:
            self.say("bestmove 0000")
            return
        self.warm_up()
        bot = self._bot()
        attrs = KINDS[self.spec.name].limits.attrs()  # what the go limits set on this bot
        saved = {a: getattr(bot, a) for a in attrs.values()}
        self.infinite = "infinite" in args
        wanted: dict[str, int] | None = None  # None: the bot's own limits
        if self.infinite:  # no limit: until stop
            wanted = {"depth": MAX_DEPTH, "nodes": 0, "time": 0}
        elif limits:
            ms = clock_ms(limits, self.pos.side == "red")
            wanted = {
                "depth": limits.get("depth", MAX_DEPTH),
                "nodes": limits.get("nodes", 0),
                "time": ms or 0,
            }
        if wanted is not None:
            for key, attr in attrs.items():
                setattr(bot, attr, wanted[key])
        if hasattr(bot, "stopping"):
            bot.stopping.clear()
        self._start(partial(self._search, bot, saved))

    def _start(self, job: Callable[[], None]) -> None:
        """Run ``job`` (a search or a perft) on the search thread; the loop reads on."""
        self.stopped.clear()
        if self.worker is None:
            self.worker = threading.Thread(target=self._work, name="dsq-search", daemon=True)
            self.worker.start()
        self.idle.clear()
        self.jobs.put(job)

    def _work(self) -> None:
        """The search thread: one job after another, as ``go`` and ``perft`` hand them over."""
        try:
            while True:
                job = self.jobs.get()
                try:
                    job()
                finally:
                    self.idle.set()
        finally:  # the thread failed: the next job starts a new one
            self.worker = None

    def _search(self, bot: Any, saved: dict[str, Any]) -> None:
        """The search thread: choose a move, then (an infinite search once stopped) answer."""
        said = False

        def iteration(info: dict[str, Any]) -> None:
            nonlocal said
            said = True
            self.say(*_info_lines(info))

        if hasattr(bot, "on_iteration"):
            bot.on_iteration = iteration
        try:
            answer = f"bestmove {decode_move(bot.choose(self.pos.st))}"
            lines = [] if said and "tablebase" not in bot.info else _info_lines(bot.info)
        except Exception as exc:  # noqa: BLE001 - the client waits for a bestmove whatever happens
            lines, answer = [f"info string error: {exc}"], "bestmove 0000"
        finally:
            for attr, value in saved.items():
                setattr(bot, attr, value)
            if hasattr(bot, "on_iteration"):
                bot.on_iteration = None
        if self.infinite:
            self.stopped.wait()  # an infinite search answers only after stop
        self.say(*lines, answer)

    def finish(self, stop: bool = False, grace: float | None = None) -> None:
        """Wait for the search (or perft) in progress, if any, to answer; with ``stop`` (or
        when it is infinite) tell it to stop first, with ``grace`` after that many seconds."""
        if not self.searching:
            return
        if stop or self.infinite or (grace is not None and not self.idle.wait(grace)):
            self._halt()
        self.idle.wait()
        self.infinite = False

    def _halt(self) -> None:
        """Tell the search (or perft) in progress to stop."""
        self.stopped.set()
        if hasattr(self.bot, "stop"):
            self.bot.stop()

    def perft(self, args: list[str]) -> None:
        """``perft N`` (0..``MAX_PERFT_DEPTH``, 1 if not said), counted on the search thread
        so ``stop`` and ``quit`` are read meanwhile; an ``isready`` is answered right after
        the count (the rules check takes the lines before ``readyok`` as the answer)."""
        depth = parse_count(args[0]) if args else 1
        if depth is None or depth > MAX_PERFT_DEPTH:
            raise DsqError(f"perft takes a depth from 0 to {MAX_PERFT_DEPTH}, not {args[0]!r}")
        self.infinite = False
        with self.lock:
            self.perfting = True
        self._start(partial(self._perft, depth))

    def _perft(self, depth: int) -> None:
        """The search thread: ``perft(N) = count  (ms)``, or a note that ``stop`` ended it."""
        t0 = time.perf_counter()
        count = perft_until(self.pos, depth, self.stopped)
        ms = (time.perf_counter() - t0) * 1000
        text = f"perft({depth}) = {count}  ({ms:.0f} ms)"
        if count is None:
            text = f"info string perft({depth}) stopped after {ms:.0f} ms"
        with self.lock:  # then the readyok lines asked for meanwhile
            self._write((text, *["readyok"] * self.ready_owed))
            self.perfting, self.ready_owed = False, 0


def _info_lines(info: dict[str, Any]) -> list[str]:
    """One ``info`` line from a bot's ``info``."""
    parts = ["info"]
    if info.get("depth"):
        parts.append(f"depth {info['depth']}")
    if info.get("seldepth"):
        parts.append(f"seldepth {info['seldepth']}")
    mate = info.get("mate_in")
    if mate is not None:
        parts.append(f"score mate {(mate + 1) // 2 if mate > 0 else -((-mate + 1) // 2)}")
    elif isinstance(info.get("score"), int):
        parts.append(f"score cp {info['score']}")
    nodes = int(info.get("nodes") or 0)
    ms = float(info.get("time_ms") or 0.0)
    parts.append(f"nodes {nodes} nps {int(nodes * 1000 / ms) if ms > 0 else 0} time {ms:.0f}")
    if info.get("pv"):
        parts.append("pv " + " ".join(info["pv"]))
    return [" ".join(parts)]
