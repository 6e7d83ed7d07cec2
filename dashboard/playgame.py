"""The Play page's clicks on a game against a bot (pure: no Streamlit).

The game itself (rules, legal moves, undo, resign, the bot's move, the result and saving)
is :class:`sim.interactive.session.PlayGame`; this layer adds the board's selection. A click on
a square goes to :meth:`ClickGame.click`: the first click selects one of the person's
animals, the second plays it to one of its legal destinations (anything else does no
harm: it selects another animal, or clears the selection) and a destination only the 7-3
or 17-5 rule forbids is explained in :attr:`ClickGame.notice`. The clocks wait until the
page has drawn the board (:meth:`PlayGame.start_clocks`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.board import square_name
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.interactive.session import PlayedMove, PlayGame, PlaySetup

__all__ = ["ClickGame", "Notice", "PlaySetup"]


@dataclass
class Notice:
    """Something to tell the person after a click: a catalogue key and its fields."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)


class ClickGame(PlayGame):
    """A :class:`PlayGame` played by clicks on the board (see the module's notes)."""

    def __init__(
        self,
        setup: PlaySetup,
        context: BotContext = DEFAULT_CONTEXT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(setup, context=context, clock=clock, clock_waits=True)
        self.selected: int | None = None
        self.notice: Notice | None = None

    def click(self, square: int) -> str:
        """Handle a click on ``square``; returns what it did: ``selected``, ``deselected``,
        ``moved``, ``forbidden`` (a move an anti-chasing rule forbids: :attr:`notice`
        says why), ``illegal`` (not a destination: the selection is cleared), ``waiting``
        (not the person's turn) or ``over`` (also when the person's time had run out)."""
        self.notice = None
        if self.flag() or self.over:
            return "over"
        if self.to_move != self.human:
            return "waiting"
        if self.selected is not None and square in self.targets(self.selected):
            played = self.play(square_name(self.selected) + square_name(square))
            self.selected = None
            return "moved" if played is not None else "over"
        if self.is_mine(square) and square != self.selected:
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

    def bot_move(self) -> PlayedMove | None:
        """The bot's move (:meth:`PlayGame.bot_move`); a loss clears the selection."""
        played = super().bot_move()
        if played is None:
            self.selected = None
        return played

    def undo(self) -> int:
        """Take back moves (:meth:`PlayGame.undo`), clearing the selection."""
        self.notice = None
        self.selected = None
        return super().undo()

    def resign(self) -> None:
        """Give the game up (:meth:`PlayGame.resign`), clearing the selection."""
        self.selected = None
        super().resign()

    def leave(self) -> bool:
        """Leave the game (:meth:`PlayGame.leave`), clearing the selection."""
        self.selected = None
        return super().leave()
