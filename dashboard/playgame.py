"""A game between a person and a bot, as the Play page runs it (pure: no Streamlit).

The page keeps one :class:`PlayGame` in the session. A click on a square goes to
:meth:`PlayGame.click`: the first click selects one of the person's animals, the second
plays it to one of its legal destinations (anything else does no harm: it selects another
animal, or clears the selection). When the bot is to move, the page calls
:meth:`PlayGame.bot_move`. Every rule comes from the engine: the legal destinations are
the engine's, and a destination the 7-3 or 17-5 rule forbids is found by asking the engine
again with that rule turned off (:meth:`PlayGame.forbidden`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from engine import Position, decode_move, encode_move, parse_rules
from engine.board import square_name
from engine.errors import DsqError
from engine.rng import seed_state
from sim.bots import make_bot, parse_bot
from sim.bots.protocol import warm_up
from sim.engines.process import EngineFault
from sim.play.human import HUMAN, Stop, human_game_row
from sim.play.referee import bot_seed

SIDES = ("red", "blue")
ANTI_CHASING = ("rule_7_3", "rule_17_5")


@dataclass(frozen=True)
class PlaySetup:
    """What a new game is: the rules, the person's colour, the bot, the start and a seed."""

    rules: str
    human: str
    bot: str
    fen: str | None = None
    seed: int = 0

    def checked(self) -> PlaySetup:
        """The setup with canonical rules and bot specs and a canonical FEN; DsqError
        (a readable message) when the rules, bot, colour or FEN is not valid."""
        if self.human not in SIDES:
            raise DsqError(f"your colour must be red or blue, not {self.human!r}")
        ruleset = parse_rules(self.rules)
        bot = parse_bot(self.bot).canonical
        fen = (self.fen or "").strip()
        if fen and fen != "start":
            fen = Position(ruleset, fen=fen).fen()
            start = Position(ruleset).fen()
            fen = None if fen == start else fen
        else:
            fen = None
        return replace(self, rules=ruleset.spec, bot=bot, fen=fen)


@dataclass(frozen=True)
class PlayedMove:
    """One ply: who moved (``red``/``blue``), the move, the piece it captured (a FEN letter)
    and, for the bot, how long it thought."""

    ply: int
    side: str
    move: str
    by_bot: bool
    captured: str | None = None
    think_ms: float | None = None


@dataclass
class Notice:
    """Something to tell the person after a click: a catalogue key and its fields."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)


class PlayGame:
    """One game of a person against a bot (see the module's notes)."""

    def __init__(self, setup: PlaySetup) -> None:
        self.setup = setup.checked()
        self.ruleset = parse_rules(self.setup.rules)
        self.pos = Position(self.ruleset, fen=self.setup.fen)
        self.bot_side = "blue" if self.setup.human == "red" else "red"
        rng = seed_state(bot_seed(self.setup.seed, SIDES.index(self.bot_side)))
        self.bot = make_bot(self.setup.bot, self.ruleset, rng)
        self.moves: list[PlayedMove] = []
        self.selected: int | None = None
        self.resigned: str | None = None
        self.forfeit: str | None = None  # the forfeit note of the bot, an engine that faulted
        self.notice: Notice | None = None
        self.started = time.monotonic()
        self.finished_at: float | None = None

    # -- state
    @property
    def human(self) -> str:
        """The person's colour."""
        return self.setup.human

    @property
    def stop(self) -> Stop | None:
        """How the game was stopped before the rules ended it: the person resigned, or the
        bot (an external engine) forfeited; None otherwise."""
        if self.resigned:
            return Stop(self.resigned, "resign")
        if self.forfeit is not None:
            return Stop(self.bot_side, "forfeit", self.forfeit)
        return None

    @property
    def result(self) -> tuple[str, str] | None:
        """``(winner, reason)``: the engine's result, or the other side's win after a
        resignation (reason ``resign``) or a forfeit; None while the game goes on."""
        stop = self.stop
        if stop is not None:
            return ("blue" if stop.loser == "red" else "red"), stop.reason
        res = self.pos.result
        return (res.winner, res.reason) if res else None

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
        """Whether the page should ask the bot for a move now."""
        return not self.over and self.to_move == self.bot_side

    @property
    def last_move(self) -> tuple[int, int] | None:
        """``(from, to)`` squares of the last move."""
        if not self.moves:
            return None
        code = encode_move(self.moves[-1].move)
        return code >> 6, code & 63

    def board(self) -> list[str | None]:
        """Piece letters by square (None for empty)."""
        return self.pos.board()

    def targets(self, square: int) -> set[int]:
        """The legal destinations of the piece on ``square`` (empty if it cannot move)."""
        return {int(m) & 63 for m in self.pos.legal_codes() if int(m) >> 6 == square}

    @cached_property
    def _loose_rules(self) -> dict[str, Any]:
        return {
            name: replace(self.ruleset, **{name: False})
            for name in ANTI_CHASING
            if getattr(self.ruleset, name)
        }

    def forbidden(self, square: int) -> dict[int, tuple[str, ...]]:
        """Destinations of the piece on ``square`` that only the anti-chasing rules forbid
        now, each with the rules that forbid it (``rule_7_3``, ``rule_17_5``): the moves
        the engine allows once that rule is turned off, with the same history."""
        if self.over or not self._loose_rules:
            return {}
        legal = self.targets(square)
        out: dict[int, list[str]] = {}
        for name, loose in self._loose_rules.items():
            other = Position(loose, fen=self.setup.fen)
            other.play_moves([m.move for m in self.moves])
            for code in other.legal_codes():
                frm, to = int(code) >> 6, int(code) & 63
                if frm == square and to not in legal:
                    out.setdefault(to, []).append(name)
        return {sq: tuple(names) for sq, names in out.items()}

    # -- actions
    def _is_mine(self, square: int) -> bool:
        letter = self.pos.board()[square]
        return bool(letter) and (letter.isupper() == (self.human == "red"))

    def click(self, square: int) -> str:
        """Handle a click on ``square``; returns what it did: ``selected``, ``deselected``,
        ``moved``, ``forbidden`` (a move an anti-chasing rule forbids: :attr:`notice`
        says why), ``illegal`` (not a destination: the selection is cleared), ``waiting``
        (not the person's turn) or ``over``."""
        self.notice = None
        if self.over:
            return "over"
        if self.to_move != self.human:
            return "waiting"
        if self.selected is not None and square in self.targets(self.selected):
            self._play(self.selected * 64 + square, by_bot=False)
            self.selected = None
            return "moved"
        if self._is_mine(square) and square != self.selected:
            self.selected = square
            if not self.targets(square) and not self.forbidden(square):
                self.notice = Notice("play.no_moves_piece", {"square": square_name(square)})
            return "selected"
        if self.selected is not None and square in self.forbidden(self.selected):
            rules = self.forbidden(self.selected)[square]
            self.notice = Notice(
                "play.forbidden",
                {
                    "square": square_name(square),
                    "origin": square_name(self.selected),
                    "rules": rules,
                },
            )
            return "forbidden"
        was = self.selected
        self.selected = None
        return "deselected" if was == square else "illegal"

    def _play(self, code: int, by_bot: bool, think_ms: float | None = None) -> None:
        move = decode_move(code)
        captured = self.pos.board()[code & 63]
        side = self.to_move
        self.pos.play(move)
        self.moves.append(PlayedMove(len(self.moves) + 1, side, move, by_bot, captured, think_ms))
        if self.over and self.finished_at is None:
            self.finished_at = time.monotonic()
            self.close()

    def close(self) -> None:
        """Give the bot's external engine, if it is one, back to its pool (taken again if
        the game goes on after an undo)."""
        close = getattr(self.bot, "close", None)
        if close is not None:
            close()

    def bot_move(self) -> PlayedMove | None:
        """Ask the bot for its move and play it (only when :attr:`bot_to_move`); None when
        the bot, an external engine, faulted instead: it loses by forfeit, as the referee
        records it (:attr:`forfeit` holds the note)."""
        if not self.bot_to_move:
            raise DsqError("it is not the bot's turn")
        warm_up(self.bot.spec, self.ruleset)  # loading is never thinking time
        start = getattr(self.bot, "start", None)  # an external engine: started untimed
        try:
            if start is not None:
                start()
            t0 = time.perf_counter()
            code = int(self.bot.choose(self.pos.st))
        except EngineFault as fault:
            self.forfeit = fault.note
            self.selected = None
            self.finished_at = time.monotonic()
            return None
        think = (time.perf_counter() - t0) * 1000.0
        if code not in {int(m) for m in self.pos.legal_codes()}:
            raise DsqError(f"the bot chose an illegal move {decode_move(code)}")
        self._play(code, by_bot=True, think_ms=think)
        return self.moves[-1]

    def can_undo(self) -> bool:
        """Whether :meth:`undo` has something to take back (a resignation, or a move of
        the person's; not a forfeit: the engine that faulted is gone)."""
        if self.forfeit is not None:
            return False
        return bool(self.resigned) or any(not m.by_bot for m in self.moves)

    def undo(self) -> None:
        """Take back the resignation, else the person's last move and the bot's answer to
        it, so that it is the person's turn again."""
        self.notice = None
        self.selected = None
        self.finished_at = None
        if self.resigned:
            self.resigned = None
            return
        while self.moves and self.moves[-1].by_bot:
            self.pos.undo()
            self.moves.pop()
        if self.moves:
            self.pos.undo()
            self.moves.pop()

    def resign(self) -> None:
        """The person gives up: the bot wins."""
        if not self.over:
            self.resigned = self.human
            self.selected = None
            self.finished_at = time.monotonic()
            self.close()

    # -- recording
    def can_record(self) -> str | None:
        """None when the game can be saved as a recorded game (it has ended: by the rules,
        a resignation or a forfeit; from any starting position); else ``unfinished``."""
        return None if self.over else "unfinished"

    def record(self) -> dict[str, Any]:
        """The game as a GAME_SCHEMA row (the person as ``human``, the set-up position as
        ``start_fen``, a resignation or forfeit as its reason), via the engine."""
        end = self.finished_at or time.monotonic()
        red, blue = (HUMAN, self.setup.bot) if self.human == "red" else (self.setup.bot, HUMAN)
        return human_game_row(
            self.setup.rules,
            red,
            blue,
            [m.move for m in self.moves],
            seed=self.setup.seed,
            duration_ms=(end - self.started) * 1000.0,
            start_fen=self.setup.fen,
            stop=self.stop,
            engine=getattr(self.bot, "identity", None),
        )
