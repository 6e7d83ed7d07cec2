"""Bots behind one protocol, configured by spec strings (``random``, ``greedy``,
``alphabeta:depth=4``, ``mcts:playouts=2000,c=1.4``).

``parse_bot(spec) -> BotSpec`` (``.name``, ``.params``, ``.canonical``) validates a spec;
``make_bot(spec, rules, rng)`` builds a player (see :mod:`sim.bots.protocol`); each kind
of bot is registered once in :mod:`sim.bots.registry`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.bots.spec import BOT_NAMES, BOTS, BotSpec, BotSpecError, describe_bots, parse_bot

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "BotSpec",
    "BotSpecError",
    "describe_bots",
    "make_bot",
    "parse_bot",
]


if TYPE_CHECKING:
    import numpy as np

    from engine.rules import Ruleset
    from sim.bots.protocol import Bot


def make_bot(spec: str | BotSpec, rules: Ruleset | str | None, rng: np.ndarray) -> Bot:
    """A bot for ``spec`` under ``rules`` drawing from ``rng`` (see ``sim.bots.protocol``)."""
    # lazy: start-up time (numba kernels)
    from sim.bots.protocol import make_bot as _make_bot

    return _make_bot(spec, rules, rng)
