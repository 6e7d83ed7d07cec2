"""How a person's game stops besides the rules' ends (a part of
:class:`sim.interactive.session.PlayGame`): the rules' time rules for the person to move
(:meth:`PlayerStops.flag`), leaving the game (``abandoned``) and a draw offered to the bot
(``agreed_draw``, where the rules allow draws by agreement: ``docs/rules.md`` Clocks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.interactive.agreement import DrawAnswer, answer_draw
from sim.interactive.setup import SIDES
from sim.records.human import ABANDONED, AGREED_DRAW, HUMAN, Stop

if TYPE_CHECKING:
    from engine.position import Position
    from engine.rules import Ruleset
    from sim.external.clocks import GameClocks
    from sim.interactive.setup import PlaySetup


class PlayerStops:
    """The person's time, leaving and draw offers of a :class:`~sim.interactive.session.PlayGame`
    (which holds the attributes named below)."""

    clock: Callable[[], float]
    turn_started: float
    clock_started: bool
    clocks: GameClocks | None
    setup: PlaySetup
    ruleset: Ruleset
    pos: Position
    moves: list[Any]
    draw_answer: DrawAnswer | None
    bot: Any

    # The game's state, given by the game's own properties.
    @property
    def over(self) -> bool:  # noqa: D102
        raise NotImplementedError

    @property
    def person_to_move(self) -> bool:  # noqa: D102
        raise NotImplementedError

    @property
    def to_move(self) -> str:  # noqa: D102
        raise NotImplementedError

    @property
    def human(self) -> str:  # noqa: D102
        raise NotImplementedError

    def _lose(self, stop: Stop) -> None:
        raise NotImplementedError

    def turn_ms(self) -> float:
        """How long the side to move has been thinking, in ms (measured here; 0 until the
        clocks have started)."""
        if not self.clock_started:
            return 0.0
        return (self.clock() - self.turn_started) * 1000.0

    def flag(self) -> bool:
        """End the game on time if the person to move has already lost it (the rules'
        clock run out, or the strikes that lose reached, before any move); whether it did."""
        if self.clocks is None or not self.person_to_move or not self.clock_started:
            return False
        side = SIDES.index(self.to_move)
        lost = self.clocks.rules[side].verdict(self.turn_ms())
        if lost is not None:
            self._lose(Stop(self.to_move, "time", f"{self.to_move} {lost}"))
        return lost is not None

    def leave(self) -> bool:
        """The person leaves the game unfinished: a loss by ``abandoned`` (nothing happens
        to a game that is over or in which nobody has moved); whether it was abandoned."""
        if self.over or not self.moves or HUMAN not in (self.setup.red, self.setup.blue):
            return False
        self._lose(Stop(self.human, ABANDONED))
        return True

    @property
    def can_offer_draw(self) -> bool:
        """Whether the person may offer the bot a draw now: the rules allow draws by
        agreement, it is the person's turn in a game against one bot, and the bot has
        not just declined."""
        return (
            self.ruleset.draw_by_agreement
            and self.setup.bot is not None
            and self.person_to_move
            and self.draw_answer is None
        )

    def offer_draw(self) -> DrawAnswer:
        """Offer the bot a draw; it accepts by its evaluation (:mod:`sim.interactive.agreement`),
        ending the game by ``agreed_draw``. DsqError when no offer can be made now."""
        if not self.can_offer_draw:
            raise DsqError("no draw can be offered now")
        side = "blue" if self.human == "red" else "red"
        answer = answer_draw(self.bot, self.pos, side)
        self.draw_answer = answer
        if answer.accepted:
            self._lose(Stop(self.human, AGREED_DRAW))
        return answer

    def _clock_columns(self, clocks: GameClocks) -> dict[str, Any]:
        """The clock columns of a timed game: the time control, each ply's time, the
        clocks at the end."""
        return {
            "time_control": clocks.text,
            "move_ms": [round(m.think_ms or 0.0) for m in self.moves],
            "red_clock_ms": clocks.remaining(0),
            "blue_clock_ms": clocks.remaining(1),
        }
