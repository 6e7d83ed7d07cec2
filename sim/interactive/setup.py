"""What a game with a person at the board is before it starts: the rules, each side's
player (a person or a bot), the start and the seed (the Play page's settings, ``dsq play``'s
arguments)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import Position, parse_rules
from engine.errors import DsqError
from sim.bots import parse_bot
from sim.records.human import HUMAN

SIDES = ("red", "blue")


@dataclass(frozen=True)
class PlaySetup:
    """What a new game is: the rules, each side's player (``human`` or a bot spec), the
    start (None: the initial position) and the seed the bots draw from."""

    rules: str
    red: str
    blue: str
    fen: str | None = None
    seed: int = 0

    @classmethod
    def against(
        cls, rules: str, human: str, bot: str, fen: str | None = None, seed: int = 0
    ) -> PlaySetup:
        """A person playing ``human`` (``red``/``blue``) against ``bot``; DsqError for
        another colour."""
        if human not in SIDES:
            raise DsqError(f"your colour must be red or blue, not {human!r}")
        red, blue = (HUMAN, bot) if human == "red" else (bot, HUMAN)
        return cls(rules, red, blue, fen, seed)

    def player(self, side: str) -> str:
        """The player of ``side``."""
        return self.red if side == "red" else self.blue

    @property
    def human(self) -> str | None:
        """The person's colour when exactly one side is a person, else None."""
        people = [s for s in SIDES if self.player(s) == HUMAN]
        return people[0] if len(people) == 1 else None

    @property
    def bot(self) -> str | None:
        """The bot's spec when exactly one side is a bot, else None."""
        bots = [self.player(s) for s in SIDES if self.player(s) != HUMAN]
        return bots[0] if len(bots) == 1 else None

    def checked(self) -> PlaySetup:
        """The setup with canonical rules and bot specs and a canonical FEN; DsqError
        (a readable message) when the rules, a bot or the FEN is not valid."""
        ruleset = parse_rules(self.rules)
        red, blue = (
            HUMAN if p.strip().lower() == HUMAN else parse_bot(p).canonical
            for p in (self.red, self.blue)
        )
        text = (self.fen or "").strip()
        fen: str | None = None
        if text and text != "start":
            fen = Position(ruleset, fen=text).fen()
            fen = None if fen == Position(ruleset).fen() else fen
        return replace(self, rules=ruleset.spec, red=red, blue=blue, fen=fen)
