"""The bot protocol: a bot built from a spec, a rule set and a generator chooses moves.

``make_bot(spec, rules, rng)`` returns an object with ``choose(st) -> int`` (a legal move
``from * 64 + to`` of the side to move in the kernel state ``st``, which it leaves as it
found it), ``info`` (what the last search saw: depth, score, nodes, pv, time) and
``spec``. Every bot draws randomness only from ``rng`` (a ``engine.rng.seed_state`` array).
The class that plays each kind is named in :mod:`sim.bots.registry`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from engine.rules import Ruleset, parse_rules
from sim.bots.registry import player_class
from sim.bots.spec import BotSpec, parse_bot


class Bot(Protocol):
    """What the referee and the CLI need from a bot."""

    spec: BotSpec
    info: dict[str, Any]

    def choose(self, st: np.ndarray) -> int:
        """A legal move of the side to move in ``st`` (``st`` is left unchanged)."""
        ...


def make_bot(spec: str | BotSpec, rules: Ruleset | str | None, rng: np.ndarray) -> Bot:
    """A bot for ``spec`` under ``rules`` drawing from ``rng``."""
    bot_spec = parse_bot(spec)
    return player_class(bot_spec.name)(bot_spec, parse_rules(rules), rng)
