"""What a kind of bot is (:class:`BotKind`, registered in :mod:`sim.bots.registry`): its
name, meaning, parameters, player class, kernel kind, the rule that fills parameters
depending on which others a spec gave (:data:`Fill`), the cost of a move and the limits
a protocol ``go`` sets (:class:`GoLimits`).

A ``fill`` rule writes its value into the canonical spec, which therefore still names
exactly the player: :func:`budget_lifts_cap` lifts a default cap (depth, playouts) to its
maximum when a time or node budget is given without it, so the budget decides when to
stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.bots.move_costs import UNKNOWN_MOVE_S, Cost
from sim.bots.params import Param

Fill = Callable[[dict[str, Any], frozenset[str]], None]
"""``fill(values, given)``: complete a parsed spec's ``values`` (every parameter, defaults
filled in) in place, knowing the names of the parameters the spec text ``given``."""


@dataclass(frozen=True)
class GoLimits:
    """The attributes of a built bot that the limits of a protocol ``go`` set (``dsq
    engine``): ``depth`` (plies), ``nodes`` and ``time`` (ms for this move); None where the
    kind has no such limit (the ``go`` limit is then ignored)."""

    depth: str | None = None
    nodes: str | None = None
    time: str | None = None

    def attrs(self) -> dict[str, str]:
        """``{limit: attribute}`` of the limits the kind has."""
        named = {"depth": self.depth, "nodes": self.nodes, "time": self.time}
        return {k: v for k, v in named.items() if v is not None}


@dataclass(frozen=True)
class BotKind:
    """One kind of bot.

    ``player`` names the class built for a spec (``"module:Class"``, constructed as
    ``Class(spec, ruleset, rng)``); ``fast_kind`` is the kernel kind of a bot that
    ``sim.bots.fast`` plays in compiled code, else None; ``fill`` completes the values of
    parameters that depend on which others a spec gives (see :data:`Fill`), else None.
    ``spec_module`` names a module whose ``parse_body(text, body)``, ``canonical(params)``
    and ``short(params)`` read and write the specs of a kind that does not fit
    ``key=value`` parameters alone (``engine``). ``cost`` estimates the seconds of a move
    (see :data:`Cost`; None: :data:`UNKNOWN_MOVE_S`); ``limits`` names what a protocol
    ``go`` sets (:class:`GoLimits`); ``external`` marks a kind whose moves come from
    another program (``dsq serve`` serves only dsq's own bots); ``seeded`` a kind whose
    every random choice comes from the referee's seeded generator, so that its games
    replay from their seeds (``--record outcomes`` stores no moves for them).
    """

    name: str
    help: str
    params: tuple[Param, ...]
    player: str
    fast_kind: int | None = None
    spec_module: str | None = None
    fill: Fill | None = None
    cost: Cost | None = None
    limits: GoLimits = GoLimits()
    external: bool = False
    seeded: bool = False

    def move_seconds(self, params: dict[str, Any]) -> float:
        """Rough seconds one move of a bot of this kind with ``params`` takes on one core."""
        return self.cost(params) if self.cost is not None else UNKNOWN_MOVE_S


def budget_lifts_cap(cap: Param, budgets: tuple[str, ...]) -> Fill:
    """A :data:`Fill` rule: when a spec sets one of ``budgets`` above 0 but does not give
    ``cap``, ``cap`` takes its maximum (an explicit ``cap`` still caps)."""

    def fill(values: dict[str, Any], given: frozenset[str]) -> None:
        if cap.name not in given and any(values[b] for b in budgets):
            values[cap.name] = int(cap.high)

    return fill


def both(*rules: Fill) -> Fill:
    """A :data:`Fill` rule applying ``rules`` in turn."""

    def fill(values: dict[str, Any], given: frozenset[str]) -> None:
        for rule in rules:
            rule(values, given)

    return fill
