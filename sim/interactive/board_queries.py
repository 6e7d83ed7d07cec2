"""What a person's game tells of its board (a part of
:class:`sim.interactive.session.PlayGame`): the pieces by square, whose a piece is, where
it may go, and the destinations only the anti-chasing rules (7-3, 17-5) forbid now: the
moves the engine allows once that rule is turned off, with the same history
(:class:`ForbiddenMove` when a person tries one).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine import Position, encode_move
from engine.errors import DsqError, MoveError

if TYPE_CHECKING:
    from engine.rules import Ruleset
    from sim.interactive.setup import PlaySetup


ANTI_CHASING = ("rule_7_3", "rule_17_5")
RULE_NAMES = {"rule_7_3": "the 7-3 rule", "rule_17_5": "the 17-5 rule"}


class ForbiddenMove(MoveError):
    """A move only the anti-chasing rules forbid now; ``rules`` names them."""

    def __init__(self, move: str, rules: tuple[str, ...]) -> None:
        names = " and ".join(RULE_NAMES[r] for r in rules)
        super().__init__(f"{move} is forbidden now by {names} (no chasing)")
        self.rules = rules


class BoardQueries:
    """The board's pieces and the moves allowed and forbidden of a
    :class:`~sim.interactive.session.PlayGame` (which holds the attributes named below)."""

    setup: PlaySetup
    ruleset: Ruleset
    pos: Position
    moves: list[Any]

    # The game's state, given by the game's own properties.
    @property
    def over(self) -> bool:  # noqa: D102
        raise NotImplementedError

    @property
    def human(self) -> str:  # noqa: D102
        raise NotImplementedError

    def board(self) -> list[str | None]:
        """Piece letters by square (None for empty)."""
        return self.pos.board()

    def is_mine(self, square: int) -> bool:
        """Whether the piece on ``square`` belongs to the person (:attr:`human`)."""
        letter = self.pos.board()[square]
        return letter is not None and letter.isupper() == (self.human == "red")

    def targets(self, square: int) -> set[int]:
        """The legal destinations of the piece on ``square`` (empty if it cannot move)."""
        return {int(m) & 63 for m in self.pos.legal_codes() if int(m) >> 6 == square}

    @cached_property
    def _loose_rules(self) -> dict[str, Any]:
        off: dict[str, Any] = {name: False for name in ANTI_CHASING}
        return {
            name: replace(self.ruleset, **{name: off[name]})
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

    def forbidding(self, move: str) -> tuple[str, ...]:
        """The anti-chasing rules that alone forbid ``move`` now (empty: none does)."""
        try:
            code = encode_move(move)
        except DsqError:
            return ()
        return self.forbidden(code >> 6).get(code & 63, ())
