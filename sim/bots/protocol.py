"""The bot protocol: a bot built from a spec, a rule set and a generator chooses moves.

``make_bot(spec, rules, rng, context)`` returns an object with ``choose(st) -> int`` (a legal move
``from * 64 + to`` of the side to move in the kernel state ``st``, which it leaves as it
found it), ``info`` (what the last search saw: depth, score, nodes, pv, time) and
``spec``. Every bot draws randomness only from ``rng`` (a ``engine.rng.seed_state`` array)
and reads tables and engines only through its ``context`` (:mod:`sim.bots.context`).
The class that plays each kind is named in :mod:`sim.bots.registry`, constructed as
``Class(spec, ruleset, rng, context)``.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from engine.rules import Ruleset, parse_rules
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.registry import player_class
from sim.bots.spec import BotSpec, parse_bot


class Bot(Protocol):
    """What the referee and the CLI need from a bot."""

    spec: BotSpec
    info: dict[str, Any]

    def choose(self, st: np.ndarray) -> int:
        """A legal move of the side to move in ``st`` (``st`` is left unchanged)."""
        ...


def make_bot(
    spec: str | BotSpec,
    rules: Ruleset | str | None,
    rng: np.ndarray,
    context: BotContext = DEFAULT_CONTEXT,
) -> Bot:
    """A bot for ``spec`` under ``rules`` drawing from ``rng``, reading the tables and
    engines of ``context`` (default: the default data folder's and registry)."""
    bot_spec = parse_bot(spec)
    return player_class(bot_spec.name)(bot_spec, parse_rules(rules), rng, context)
