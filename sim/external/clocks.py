"""The clocks of one game: each side's time limit from its bot spec, the ``go`` arguments
an engine is sent, how long its answer is awaited, and what is stored with the game.

A side's limit comes from its spec: an engine bot's ``tc=`` (a clock) or ``movetime=``
(a budget per move); an in-process bot's ``time_ms=`` (a budget per move, measured the
same way); otherwise none. A move that takes longer than its budget plus the side's
margin loses on time (reason ``time``). The referee measures each move's wall time
around the bot's answer.
"""

from __future__ import annotations

from typing import Any

from sim.bots.spec import BotSpec
from sim.external.botspec import DEFAULT_MARGIN
from sim.external.timecontrol import SideClock, parse_tc

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
    """Both sides' :class:`~sim.external.timecontrol.SideClock` during one game."""

    def __init__(self, sides: list[SideClock]) -> None:
        self.sides = sides

    @classmethod
    def for_specs(cls, specs: tuple[BotSpec, BotSpec] | list[BotSpec]) -> GameClocks:
        """The clocks of a game between ``specs`` (red, blue)."""
        return cls([side_clock(s) for s in specs])

    @property
    def active(self) -> bool:
        """Whether either side is timed."""
        return any(c.limited for c in self.sides)

    @property
    def text(self) -> str | None:
        """The stored ``time_control``: ``40/60+0.6`` when both sides share it, else e.g.
        ``red 40/60+0.6, blue none``; None when no side is timed."""
        if not self.active:
            return None
        red, blue = (c.text for c in self.sides)
        return red if red == blue else f"red {red}, blue {blue}"

    def remaining(self, side: int) -> int | None:
        """A side's clock in whole ms (None without a clock)."""
        c = self.sides[side]
        return None if c.tc is None else round(c.remaining_ms)

    def over_time(self, side: int, elapsed_ms: float) -> bool:
        """Whether ``side``'s move of ``elapsed_ms`` loses on time."""
        return self.sides[side].over_time(elapsed_ms)

    def charge(self, side: int, elapsed_ms: float) -> None:
        """Account for ``side``'s move of ``elapsed_ms``."""
        self.sides[side].charge(elapsed_ms)

    def overrun_note(self, side: int, elapsed_ms: float) -> str:
        """The forfeit note of a move that lost on time."""
        c = self.sides[side]
        budget = c.budget_ms() or 0.0
        what = "its clock" if c.tc is not None else "its time per move"
        return (
            f"{SIDES[side]} took {elapsed_ms:.0f} ms with {budget:.0f} ms left on {what} "
            f"({c.text}, margin {c.margin_ms} ms)"
        )

    def wait_ms(self, side: int) -> float:
        """How long an engine's answer is awaited before ``stop`` is sent."""
        c = self.sides[side]
        budget = c.budget_ms()
        return (HANG_WAIT_MS if budget is None else budget) + c.margin_ms

    def go_args(self, side: int, params: dict[str, Any]) -> str:
        """The arguments of ``go`` for an engine bot on ``side`` with ``params``:
        ``wtime``/``btime`` (red is ``w``), increments and ``movestogo`` under a clock,
        else ``movetime``; ``depth`` and ``nodes`` when the spec gives them."""
        c = self.sides[side]
        args: list[str] = []
        if c.tc is not None:
            for s, word in ((0, "w"), (1, "b")):
                other = self.sides[s]
                if other.tc is not None:
                    args.append(f"{word}time {max(0, round(other.remaining_ms))}")
            for s, word in ((0, "w"), (1, "b")):
                other = self.sides[s]
                if other.tc is not None and other.tc.inc_ms:
                    args.append(f"{word}inc {other.tc.inc_ms}")
            togo = c.moves_to_go()
            if togo is not None:
                args.append(f"movestogo {togo}")
        elif c.movetime_ms is not None:
            args.append(f"movetime {c.movetime_ms}")
        for key in ("depth", "nodes"):
            if params.get(key):
                args.append(f"{key} {params[key]}")
        return " ".join(args)
