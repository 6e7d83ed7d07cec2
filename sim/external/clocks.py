"""The clocks of one game: each side's time limit from its bot spec, the ``go`` arguments
an engine is sent, how long its answer is awaited, and what is stored with the game.

A side's limit comes from its spec: an engine bot's ``tc=`` (a clock) or ``movetime=``
(a budget per move); an in-process bot's ``time_ms=`` (a budget per move, measured the
same way); otherwise none. A move that takes longer than its budget plus the side's
margin loses on time (reason ``time``). The referee measures each move's wall time
around the bot's answer.

The rule set's time rules (``move_time`` with ``time_strikes``, ``game_time``:
:mod:`engine.timerules`) apply to every side, a person's too, on top of its spec's limit:
:meth:`GameClocks.judge` is the one verdict on a move's time, and an engine is never
given more time than the rules leave it (its ``go`` arguments and how long it is awaited).
"""

from __future__ import annotations

from typing import Any

from engine.rules import Ruleset
from engine.timerules import RuleClock, TimeRules, time_rules
from sim.bots.spec import BotSpec
from sim.core.timecontrol import SideClock, parse_tc
from sim.external.botspec import DEFAULT_MARGIN

HANG_WAIT_MS = 60_000  # how long an engine without a time budget may think (plus margin)
GRACE_MS = 1000  # after 'stop', how long an engine has left to answer
SIDES = ("red", "blue")


def side_clock(spec: BotSpec) -> SideClock:
    """The time limit a bot spec puts on its side."""
    p = spec.params
    if spec.name == "engine":
        tc = parse_tc(p["tc"]) if p.get("tc") else None
        return SideClock(tc=tc, movetime_ms=p.get("movetime"), margin_ms=int(p["margin"]))
    budget = int(p.get("time_ms") or 0)
    return SideClock(movetime_ms=budget or None, margin_ms=DEFAULT_MARGIN)


class GameClocks:
    """Both sides' :class:`~sim.core.timecontrol.SideClock` (their specs' limits) and
    :class:`~engine.timerules.RuleClock` (the rule set's time rules) during one game."""

    def __init__(self, sides: list[SideClock], rules: TimeRules | None = None) -> None:
        self.sides = sides
        self.time_rules = rules or TimeRules()
        self.rules = [RuleClock(self.time_rules) for _ in sides]

    @classmethod
    def for_specs(
        cls, specs: tuple[BotSpec, BotSpec] | list[BotSpec], ruleset: Ruleset | None = None
    ) -> GameClocks:
        """The clocks of a game between ``specs`` (red, blue) under ``ruleset``'s time
        rules (None: none)."""
        return cls([side_clock(s) for s in specs], _rules_of(ruleset))

    @property
    def active(self) -> bool:
        """Whether either side is timed (by its spec or by the rules)."""
        return self.time_rules.timed or any(c.limited for c in self.sides)

    @property
    def text(self) -> str | None:
        """The stored ``time_control``: ``40/60+0.6`` when both sides share it, else e.g.
        ``red 40/60+0.6, blue none``, then the rules' (``rules: game 600 s``); None when no
        side is timed."""
        if not self.active:
            return None
        red, blue = (c.text for c in self.sides)
        own = red if red == blue else f"red {red}, blue {blue}"
        if not self.time_rules.timed:
            return own
        rules = f"rules: {self.time_rules.text}"
        return rules if own == "none" else f"{own}; {rules}"

    def remaining(self, side: int) -> int | None:
        """A side's clock in whole ms (None without a clock): its spec's, else the rules'
        clock for the whole game."""
        c = self.sides[side]
        if c.tc is not None:
            return round(c.remaining_ms)
        left = self.rules[side].left_ms
        return None if left is None else round(left)

    def strikes(self, side: int) -> int:
        """A side's strikes in a row over the rules' time per move."""
        return self.rules[side].strikes

    def judge(self, side: int, elapsed_ms: float) -> str | None:
        """The one verdict on ``side``'s move of ``elapsed_ms``: the note of a loss on time
        (over its spec's budget and margin, its rules' clock run out, or the strikes that
        lose), else None, the move charged to both clocks."""
        if self.sides[side].over_time(elapsed_ms):
            return self.overrun_note(side, elapsed_ms)
        lost = self.rules[side].verdict(elapsed_ms)
        if lost is not None:
            return f"{SIDES[side]} took {elapsed_ms:.0f} ms: {lost}"
        self.charge(side, elapsed_ms)
        return None

    def over_time(self, side: int, elapsed_ms: float) -> bool:
        """Whether ``side``'s move of ``elapsed_ms`` loses on time."""
        return self.sides[side].over_time(elapsed_ms)

    def charge(self, side: int, elapsed_ms: float) -> None:
        """Account for ``side``'s move of ``elapsed_ms`` (its spec's and the rules' clock)."""
        self.sides[side].charge(elapsed_ms)
        self.rules[side].charge(elapsed_ms)

    def overrun_note(self, side: int, elapsed_ms: float) -> str:
        """The forfeit note of a move that lost on time."""
        c = self.sides[side]
        budget = c.budget_ms() or 0.0
        what = "its clock" if c.tc is not None else "its time per move"
        return (
            f"{SIDES[side]} took {elapsed_ms:.0f} ms with {budget:.0f} ms left on {what} "
            f"({c.text}, margin {c.margin_ms} ms)"
        )

    def budget_ms(self, side: int) -> float | None:
        """The longest ``side``'s move may take (margin excluded): the least of its spec's
        budget and what the rules leave it; None when untimed."""
        limits = [b for b in (self.sides[side].budget_ms(), self.rules[side].budget_ms())
                  if b is not None]  # fmt: skip
        return min(limits) if limits else None

    def wait_ms(self, side: int) -> float:
        """How long an engine's answer is awaited before ``stop`` is sent."""
        budget = self.budget_ms(side)
        return (HANG_WAIT_MS if budget is None else budget) + self.sides[side].margin_ms

    def _clock_ms(self, side: int) -> float | None:
        """What is left on ``side``'s clock: its spec's or the rules', the lesser."""
        own = self.sides[side].remaining_ms if self.sides[side].tc is not None else None
        left = [x for x in (own, self.rules[side].left_ms) if x is not None]
        return min(left) if left else None

    def go_args(self, side: int, params: dict[str, Any]) -> str:
        """The arguments of ``go`` for an engine bot on ``side`` with ``params``:
        ``wtime``/``btime`` (red is ``w``; the lesser of its spec's and the rules' clock),
        increments and ``movestogo`` under a clock; ``movetime`` (the lesser of its
        spec's and the rules' time per move) without a clock or below it; ``depth`` and
        ``nodes`` when the spec gives them."""
        c = self.sides[side]
        args: list[str] = []
        clock = self._clock_ms(side)
        if clock is not None:
            for s, word in ((0, "w"), (1, "b")):
                left = self._clock_ms(s)
                if left is not None:
                    args.append(f"{word}time {max(0, round(left))}")
            for s, word in ((0, "w"), (1, "b")):
                other = self.sides[s]
                if other.tc is not None and other.tc.inc_ms:
                    args.append(f"{word}inc {other.tc.inc_ms}")
            togo = c.moves_to_go()
            if togo is not None:
                args.append(f"movestogo {togo}")
        per_move = [x for x in (c.movetime_ms, self.time_rules.move_ms) if x is not None]
        if per_move and (clock is None or min(per_move) < clock):
            args.append(f"movetime {min(per_move)}")  # never more than the rules allow
        for key in ("depth", "nodes"):
            if params.get(key):
                args.append(f"{key} {params[key]}")
        return " ".join(args)


def _rules_of(ruleset: Ruleset | None) -> TimeRules | None:
    return None if ruleset is None else time_rules(ruleset)
