"""``dsq engine``: one of dsq's bots behind the UCI-style protocol, on stdin/stdout.

The engine's options are the bot's parameters (``setoption name depth value 6``), plus
``rules`` (a rules spec) and ``seed`` (its generator's seed). Searches are synchronous:
``go`` answers with ``info`` and ``bestmove`` before the next command is read, so ``stop``
has nothing left to stop. ``go depth/nodes/movetime/wtime/btime`` replace the bot's own
limits for that search; a bare ``go`` (or ``go infinite``) uses them. ``perft N``,
``moves`` and ``d`` answer as in ``docs/engine-protocol.md``.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from engine.errors import DsqError
from engine.position import Position, decode_move
from engine.rng import seed_state
from engine.rules import parse_rules
from sim.bots.params import Param
from sim.bots.spec import BOTS, BotSpec, parse_bot

HANDSHAKES = ("uci", "jcei", "uji")
# Bot attributes a ``go`` limit sets, by bot kind: depth, nodes, time (ms per move).
LIMIT_ATTRS = {
    "alphabeta": {"depth": "depth", "nodes": "node_budget", "time": "time_ms"},
    "mcts": {"time": "time_ms"},
}
MAX_DEPTH = 60
MOVES_TO_GO = 30  # a clock without movestogo is shared as if this many moves were left


def option_line(p: Param, value: Any) -> str:
    """The ``option`` line of a bot parameter whose current value is ``value``."""
    if p.kind == "int":
        return f"option name {p.name} type spin default {value} min {int(p.low)} max {int(p.high)}"
    if p.kind == "choice":
        var = " ".join(f"var {c}" for c in p.choices)
        return f"option name {p.name} type combo default {value} {var}"
    return f"option name {p.name} type string default {p.format(value)}"


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


class EngineServer:
    """The protocol loop around one bot spec (see the module docstring)."""

    def __init__(self, bot: str, rules: str = "standard", seed: int = 0, out: TextIO = sys.stdout):
        self.spec = parse_bot(bot)
        if self.spec.name == "engine":
            raise DsqError("dsq engine serves dsq's own bots, not another engine")
        self.rules = parse_rules(rules)
        self.seed = seed
        self.out = out
        self.pos = Position(self.rules)
        self.head = "startpos"
        self.bot: Any = None
        self.warm = False

    # -- output --------------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Write lines and flush."""
        self.out.write("".join(line + "\n" for line in lines))
        self.out.flush()

    # -- the loop ------------------------------------------------------------------------

    def serve(self, stdin: TextIO) -> int:
        """Answer commands from ``stdin`` until ``quit`` or end of input."""
        while True:
            line = stdin.readline()
            if not line or not self.handle(line):
                return 0

    def handle(self, line: str) -> bool:
        """Answer one command line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        cmd, rest = tokens[0], tokens[1:]
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
                self.say(f"Fen: {self.pos.fen()}", f"Rules: {self.rules.spec}")
            elif cmd == "quit":
                return False
            elif cmd != "stop":
                self.say(f"info string unknown command {cmd}")
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
            self.head = "startpos"
        elif name.lower() == "seed":
            self.seed = int(value) if value.isdigit() else self.seed
        else:
            params = {p.name: p for p in BOTS[self.spec.name][1]}
            param = params.get(name.lower())
            if param is None:
                raise DsqError(f"no option {name!r}; options: {', '.join(params)}, rules, seed")
            values = dict(self.spec.params)
            values[param.name] = param.parse(self.spec.name, value)
            self.spec = BotSpec(self.spec.name, values)
        self.bot = None

    def position(self, args: list[str]) -> None:
        """``position startpos|fen FEN [moves ...]``, played on from the last one if it
        extends it."""
        if not args or args[0] not in ("startpos", "fen"):
            raise DsqError("position takes startpos or fen FEN, then moves ...")
        if "moves" in args:
            k = args.index("moves")
            setup, moves = args[:k], args[k + 1 :]
        else:
            setup, moves = args, []
        head = "startpos" if setup[0] == "startpos" else " ".join(_our_fen(setup[1:]))
        if head != self.head or self.pos.history != moves[: len(self.pos.history)]:
            self.pos = Position(self.rules, None if head == "startpos" else head)
            self.head = head
        try:
            self.pos.play_moves(moves[len(self.pos.history) :])
        except DsqError:
            self.head = ""  # set up afresh next time
            raise

    def warm_up(self) -> None:
        """Load the compiled kernels (the first ``isready``), so the first ``go`` is quick:
        a throwaway bot of the same spec chooses a move from the initial position."""
        if self.warm:
            return
        from sim.bots.protocol import make_bot

        bot = make_bot(self.spec, self.rules, seed_state(self.seed))
        bot.choose(Position(self.rules).st)
        time_attr = LIMIT_ATTRS.get(self.spec.name, {}).get("time")
        if time_attr:  # a timed search runs code an untimed one does not
            setattr(bot, time_attr, 1)
            bot.choose(Position(self.rules).st)
        self.pos.legal_moves()
        self.warm = True

    def _bot(self) -> Any:
        if self.bot is None:
            from sim.bots.protocol import make_bot

            self.bot = make_bot(self.spec, self.rules, seed_state(self.seed))
        return self.bot

    def go(self, args: list[str]) -> None:
        """Search the current position; ``info`` then ``bestmove`` (``0000`` if none)."""
        if self.pos.result is not None:
            self.say("bestmove 0000")
            return
        limits = _go_args(args)
        bot = self._bot()
        attrs = LIMIT_ATTRS.get(self.spec.name, {})
        saved = {a: getattr(bot, a) for a in attrs.values()}
        if limits:
            ms = clock_ms(limits, self.pos.side == "red")
            wanted = {
                "depth": limits.get("depth", MAX_DEPTH),
                "nodes": limits.get("nodes", 0),
                "time": ms or 0,
            }
            for key, attr in attrs.items():
                setattr(bot, attr, wanted[key])
        try:
            mv = bot.choose(self.pos.st)
        finally:
            for attr, value in saved.items():
                setattr(bot, attr, value)
        self.say(*_info_lines(bot.info), f"bestmove {decode_move(mv)}")

    def perft(self, args: list[str]) -> None:
        """``perft(N) = count  (ms)`` from the current position."""
        depth = int(args[0]) if args and args[0].isdigit() else 1
        t0 = time.perf_counter()
        count = self.pos.perft(depth)
        ms = (time.perf_counter() - t0) * 1000
        self.say(f"perft({depth}) = {count}  ({ms:.0f} ms)")


def _our_fen(fields: list[str]) -> list[str]:
    """A FEN from ``position fen``: ``w`` read as red, missing counters as ``0 1``."""
    out = list(fields[:4])
    if len(out) >= 2 and out[1] == "w":
        out[1] = "r"
    if len(out) == 2:
        out += ["0", "1"]
    return out


def _go_args(args: list[str]) -> dict[str, int]:
    """The numeric arguments of ``go`` (``infinite`` and unknown words are dropped)."""
    out: dict[str, int] = {}
    words = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo")
    for i, word in enumerate(args[:-1]):
        if word in words:
            try:
                out[word] = max(0, int(args[i + 1]))
            except ValueError:
                continue
    if out.get("depth") == 0:
        out.pop("depth")
    return out


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
