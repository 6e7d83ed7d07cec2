"""Bots behind one protocol, configured by spec strings (``random``, ``greedy``,
``alphabeta:depth=4``, ``mcts:playouts=2000,c=1.4``).

``parse_bot(spec) -> BotSpec`` (``.name``, ``.params``, ``.canonical``) validates a spec;
``make_bot(spec, rules, rng, context)`` builds a player (see :mod:`sim.bots.protocol`;
``context``, a :class:`~sim.bots.context.BotContext`, names its tables folder and engine
registry); each kind of bot is registered once in :mod:`sim.bots.registry`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.spec import BOT_NAMES, BOTS, BotSpec, BotSpecError, describe_bots, parse_bot

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "BotContext",
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


def make_bot(
    spec: str | BotSpec,
    rules: Ruleset | str | None,
    rng: np.ndarray,
    context: BotContext = DEFAULT_CONTEXT,
) -> Bot:
    """A bot for ``spec`` under ``rules`` drawing from ``rng``, reading the tables and
    engines of ``context`` (see ``sim.bots.protocol``)."""
    # lazy: start-up time (numba kernels)
    from sim.bots.protocol import make_bot as _make_bot

    return _make_bot(spec, rules, rng, context)
