"""A game played move by move with a person at the board: the Play page and ``dsq play``.

Each side is a person (``human``) or a bot. A person's move goes to :meth:`PlayGame.play`;
when a bot is to move, the caller asks :meth:`PlayGame.bot_move`. Every rule comes from
the engine: the legal moves are the engine's, and a move the 7-3 or 17-5 rule forbids is
found by asking the engine again with that rule turned off (:meth:`PlayGame.forbidden`).
A person can take moves back (:meth:`PlayGame.undo`) and resign (a loss, reason ``resign``;
a resignation is final: :meth:`PlayGame.undo` takes back moves, never a resignation, nor any
other stop); a bot that is an external engine and faults loses by forfeit, as the referee
records it. With ``timed``, bots keep their time limits as in simulations (an engine's
``tc=`` clock or ``movetime=``, a bot's ``time_ms=``): a move over its limit plus the margin
loses on time. The rule set's time rules (``move_time`` and ``time_strikes``, ``game_time``)
time every side, the person's moves too, measured here from the moment the turn began
(``clock``, :func:`time.monotonic` unless given); with ``clock_waits`` the clocks wait until
the board has been shown to the person (:meth:`PlayGame.start_clocks`: loading a page is no
thinking time). :meth:`PlayGame.flag` ends the game when the person's time has run out
before a move. Where the rules allow draws by agreement a person may offer one
(:meth:`PlayGame.offer_draw`, the bot answers by its evaluation,
:mod:`sim.interactive.agreement`); a person who leaves (:meth:`PlayGame.leave`) loses by
``abandoned``. A finished game against one bot is saved like the referee's games
(:meth:`PlayGame.save`, via :mod:`sim.records.human`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Position, decode_move, encode_move, parse_rules
from engine.errors import DsqError, MoveError
from engine.rng import seed_state
from engine.timerules import time_rules
from sim.bots import make_bot
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.protocol import warm_up
from sim.core.timecontrol import SideClock
from sim.external.clocks import GameClocks, side_clock
from sim.external.process import EngineFault
from sim.interactive.agreement import DrawAnswer
from sim.interactive.board_queries import BoardQueries, ForbiddenMove
from sim.interactive.setup import SIDES, PlaySetup
from sim.interactive.stops import PlayerStops
from sim.play.referee import bot_seed
from sim.play.stepwise import start_engines
from sim.records.human import AGREED_DRAW, HUMAN, Stop, human_game_row, save_human_game


def _other(side: str) -> str:
    return "blue" if side == "red" else "red"


@dataclass(frozen=True)
class PlayedMove:
    """One ply: who moved (``red``/``blue``), the move, the piece it captured (a FEN letter)
    and, for a bot, how long it thought."""

    ply: int
    side: str
    move: str
    by_bot: bool
    captured: str | None = None
    think_ms: float | None = None


class PlayGame(BoardQueries, PlayerStops):
    """One game with a person at the board (see the module's notes)."""

    def __init__(
        self,
        setup: PlaySetup,
        *,
        timed: bool = False,
        ply_cap: int | None = None,
        context: BotContext = DEFAULT_CONTEXT,
        clock: Callable[[], float] = time.monotonic,
        clock_waits: bool = False,
    ):
        self.setup = setup.checked()
        self.clock = clock  # seconds: what the person's move times are measured with
        self.context = context  # the tables and engines its bots read
        self.ruleset = parse_rules(self.setup.rules)
        self.pos = Position(self.ruleset, fen=self.setup.fen)
        self.ply_cap = ply_cap
        if timed:  # loading is never thinking time: before any clock starts
            for side in SIDES:
                if self.setup.player(side) != HUMAN:
                    warm_up(self.setup.player(side), self.ruleset, context)
        self.players: list[Any] = [
            None
            if self.setup.player(side) == HUMAN
            else make_bot(
                self.setup.player(side),
                self.ruleset,
                seed_state(bot_seed(self.setup.seed, i)),
                context,
            )
            for i, side in enumerate(SIDES)
        ]
        self.faults: list[str | None] = [None, None]  # engines that could not start
        # The bots' own limits when timed, and the rules' time rules for every side.
        own = [SideClock() if p is None or not timed else side_clock(p.spec) for p in self.players]
        self.clocks: GameClocks | None = GameClocks(own, time_rules(self.ruleset))
        if not self.clocks.active:
            self.clocks = None
        elif timed:
            self.faults = start_engines(self.players, self.clocks)
        self.moves: list[PlayedMove] = []
        self.stopped: Stop | None = None  # a resignation, a forfeit, a loss on time, ...
        self.draw_answer: DrawAnswer | None = None  # the bot's answer to the last offer
        self.started = self.turn_started = self.clock()
        self.clock_started = not clock_waits  # False: until the person has seen the board
        self.finished_at: float | None = None

    # -- state
    @property
    def human(self) -> str:
        """The person's colour (with two people: the side to move)."""
        return self.setup.human or self.to_move

    @property
    def bot(self) -> Any:
        """The bot of a game against one bot (None without a bot)."""
        return next((p for p in self.players if p is not None), None)

    @property
    def resigned(self) -> str | None:
        """The side that resigned, if one did."""
        return self.stopped.loser if self.stopped and self.stopped.reason == "resign" else None

    @property
    def forfeit(self) -> str | None:
        """The note of a bot's forfeit (an engine that faulted, or a move over its time)."""
        stop = self.stopped
        if stop is None or stop.reason not in ("forfeit", "time"):
            return None
        return stop.note if self.players[SIDES.index(stop.loser)] is not None else None

    @property
    def result(self) -> tuple[str, str] | None:
        """``(winner, reason)``: the engine's result, the other side's win after a
        resignation, a forfeit or a loss on time, or a ``ply_cap`` draw; None while the
        game goes on."""
        if self.stopped is not None:
            if self.stopped.reason == AGREED_DRAW:
                return "draw", AGREED_DRAW
            return _other(self.stopped.loser), self.stopped.reason
        res = self.pos.result
        if res is not None:
            return res.winner, res.reason
        if self.ply_cap is not None and self.pos.ply >= self.ply_cap:
            return "draw", "ply_cap"
        return None

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    @property
    def to_move(self) -> str:
        """The side to move."""
        return self.pos.side

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot should be asked for a move now."""
        return not self.over and self.players[SIDES.index(self.to_move)] is not None

    @property
    def person_to_move(self) -> bool:
        """Whether a person is to move now."""
        return not self.over and self.players[SIDES.index(self.to_move)] is None

    @property
    def last_move(self) -> tuple[int, int] | None:
        """``(from, to)`` squares of the last move."""
        if not self.moves:
            return None
        code = encode_move(self.moves[-1].move)
        return code >> 6, code & 63

    @property
    def void(self) -> bool:
        """Whether the game has ended void under its rule set's scoring (``docs/rules.md``
        Scoring 1, ``void_rounds``: e.g. ``yeshou``'s game ending within 10 rounds, an
        agreed draw too): neither a win, a loss nor a draw in the statistics."""
        return self.over and not self.ruleset.scores(len(self.moves))

    def start_clocks(self) -> None:
        """The board has been shown to the person: the clocks start now (a game made with
        ``clock_waits``; later calls, and a game whose clocks run already, change nothing)."""
        if not self.clock_started:
            self.clock_started = True
            self.started = self.turn_started = self.clock()

    # -- moves
    def play(self, move: str) -> PlayedMove | None:
        """Play a person's move (e.g. ``a3a4``); the engine's MoveError when it is not
        legal, a :class:`ForbiddenMove` when only an anti-chasing rule forbids it; None
        when it came too late: the person lost on time instead."""
        if self.person_to_move and self.flag():
            return None  # too late: lost on time before the move
        if not self.person_to_move:
            raise DsqError("the game is over" if self.over else "it is the bot's turn")
        move = move.strip().lower()
        try:
            self.pos.copy().play(move)
        except MoveError:
            rules = self.forbidding(move)
            if rules:
                raise ForbiddenMove(move, rules) from None
            raise
        think = self.turn_ms()
        if self.clocks is not None:
            late = self.clocks.judge(SIDES.index(self.to_move), think)
            if late is not None:
                self._lose(Stop(self.to_move, "time", late))
                return None
        self._play(encode_move(move), by_bot=False, think_ms=think)
        return self.moves[-1]

    def _play(self, code: int, by_bot: bool, think_ms: float | None = None) -> None:
        move = decode_move(code)
        captured = self.pos.board()[code & 63]
        side = self.to_move
        self.pos.play(move)
        self.moves.append(PlayedMove(len(self.moves) + 1, side, move, by_bot, captured, think_ms))
        self.turn_started = self.clock()
        self.draw_answer = None
        if self.over:
            self._finish()

    def _finish(self) -> None:
        if self.finished_at is None:
            self.finished_at = self.clock()
        self.close()

    def _lose(self, stop: Stop) -> None:
        self.stopped = stop
        self._finish()

    def close(self) -> None:
        """Give the bots' external engines back to their pool (taken again if the game
        goes on after an undo)."""
        for player in self.players:
            close = getattr(player, "close", None)
            if close is not None:
                close()

    def bot_move(self) -> PlayedMove | None:
        """Ask the bot for its move and play it (only when :attr:`bot_to_move`);
        None when it lost instead: an external engine that faulted (or could not start)
        forfeits, a timed bot over its limit loses on time (:attr:`forfeit` holds the
        note, as the referee records it)."""
        if not self.bot_to_move:
            raise DsqError("it is not the bot's turn")
        side = SIDES.index(self.to_move)
        if self.faults[side] is not None:
            self._lose(Stop(self.to_move, "forfeit", self.faults[side]))
            return None
        bot = self.players[side]
        warm_up(bot.spec, self.ruleset, self.context)  # loading is never thinking time
        start = getattr(bot, "start", None)  # an external engine: started untimed
        try:
            if start is not None:
                start()
            t0 = time.perf_counter()
            code = int(bot.choose(self.pos.st))
        except EngineFault as fault:
            self._lose(Stop(self.to_move, "forfeit", fault.note))
            return None
        think = (time.perf_counter() - t0) * 1000.0
        if self.clocks is not None:
            if (late := self.clocks.judge(side, think)) is not None:
                self._lose(Stop(self.to_move, "time", late))
                return None
        if code not in {int(m) for m in self.pos.legal_codes()}:
            raise DsqError(f"the bot chose an illegal move {decode_move(code)}")
        self._play(code, by_bot=True, think_ms=think)
        return self.moves[-1]

    def clock_left(self, side: str) -> int | None:
        """What is left on ``side``'s clock in ms (None: untimed, or no clock)."""
        return None if self.clocks is None else self.clocks.remaining(SIDES.index(side))

    def can_undo(self) -> bool:
        """Whether :meth:`undo` has something to take back: a person's move in a game
        that goes on or that the rules ended. Not after a stop: a resignation is final,
        like a loss on time, a bot's forfeit, an agreed draw or a game left."""
        if self.stopped is not None:
            return False
        return any(not m.by_bot for m in self.moves)

    def undo(self) -> int:
        """Take back the last person's move and the bots' answers to it, so that it is that
        person's turn again; the number of plies taken back (0: nothing to take back, see
        :meth:`can_undo`). Time a timed bot spent stays spent."""
        if not self.can_undo():
            return 0
        self.finished_at = None
        self.turn_started = self.clock()
        taken = 0
        while self.moves and self.moves[-1].by_bot:
            self.pos.undo()
            self.moves.pop()
            taken += 1
        self.pos.undo()
        self.moves.pop()
        return taken + 1

    def resign(self) -> None:
        """The person (the one to move, with two) gives up: the other side wins."""
        if not self.over:
            if HUMAN not in (self.setup.red, self.setup.blue):
                raise DsqError("only a person can resign")
            self._lose(Stop(self.human, "resign"))

    # -- recording
    def can_record(self) -> str | None:
        """None when the game can be saved as a recorded game (it is a person against a
        bot and has ended: by the rules, a resignation, a forfeit or a loss on time; from
        any starting position); else why not: ``no_human`` or ``unfinished``."""
        if self.setup.human is None or self.setup.bot is None:
            return "no_human"
        res = self.result
        return None if res is not None and res[1] != "ply_cap" else "unfinished"

    def record(self) -> dict[str, Any]:
        """The game as a GAME_SCHEMA row (the person as ``human``, the set-up position as
        ``start_fen``, a resignation, forfeit or loss on time as its reason), via the
        engine."""
        end = self.finished_at or self.clock()
        return human_game_row(
            self.setup.rules,
            self.setup.red,
            self.setup.blue,
            [m.move for m in self.moves],
            seed=self.setup.seed,
            duration_ms=(end - self.started) * 1000.0,
            start_fen=self.setup.fen,
            stop=self.stopped,
            engine=getattr(self.bot, "identity", None),
            clocks=None if self.clocks is None else self._clock_columns(self.clocks),
        )

    def save(self, data_dir: str | os.PathLike[str]) -> str:
        """Save the finished game as a one-game batch in ``data_dir``; its batch id."""
        return save_human_game(data_dir, self.record())
