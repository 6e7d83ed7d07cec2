"""The bot protocol: a bot built from a spec, a rule set and a generator chooses moves.

``make_bot(spec, rules, rng)`` returns an object with ``choose(st) -> int`` (a legal move
``from * 64 + to`` of the side to move in the kernel state ``st``, which it leaves as it
found it), ``info`` (what the last search saw: depth, score, nodes, pv, time) and
``spec``. Every bot draws randomness only from ``rng`` (a ``engine.rng.seed_state`` array).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import numpy as np

from engine import core
from engine.errors import MoveError
from engine.rules import Ruleset, parse_rules
from sim.bots import fast
from sim.bots.spec import DEFAULT_VALUES, BotSpec, parse_bot


class Bot(Protocol):
    """What the referee and the CLI need from a bot."""

    spec: BotSpec
    info: dict[str, Any]

    def choose(self, st: np.ndarray) -> int:
        """A legal move of the side to move in ``st`` (``st`` is left unchanged)."""
        ...


def values_array(
    values: tuple[int, ...] = DEFAULT_VALUES, rules: Ruleset | None = None
) -> np.ndarray:
    """Animal values rat..elephant as the int64 array the kernels read (index animal - 1).

    ``values`` are given by default strength (dog 3, wolf 4); under ``dog_over_wolf`` the
    dog's and the wolf's values are exchanged, so the stronger animal keeps the higher value.
    """
    out = np.asarray(values, dtype=np.int64).copy()
    if rules is not None and rules.dog_over_wolf:
        out[2], out[3] = out[3], out[2]
    return out


class FastBot:
    """``random`` or ``greedy``: one compiled kernel call per move."""

    def __init__(self, spec: BotSpec, rules: Ruleset, rng: np.ndarray) -> None:
        self.spec = spec
        self.kind = fast.GREEDY if spec.name == "greedy" else fast.RANDOM
        self.rules_array = rules.as_array()
        self.rng = rng
        self.values = values_array(DEFAULT_VALUES, rules)
        self._buf = np.empty(core.MAX_MOVES, dtype=np.int32)
        self._scratch = np.empty(core.MAX_MOVES, dtype=np.int32)
        self.info: dict[str, Any] = {}

    def choose(self, st: np.ndarray) -> int:
        """The bot's move in ``st``."""
        start = time.perf_counter()
        n = core.legal_moves(st, self.rules_array, self._buf)
        if n == 0:
            raise MoveError("no legal move: the game is over")
        mv = int(
            fast.fast_choose(
                self.kind, st, self.rules_array, self.rng, self._buf, n, self.values, self._scratch
            )
        )
        self.info = {"move": mv, "time_ms": (time.perf_counter() - start) * 1000.0}
        return mv


def make_bot(spec: str | BotSpec, rules: Ruleset | str | None, rng: np.ndarray) -> Bot:
    """A bot for ``spec`` under ``rules`` drawing from ``rng``."""
    bot_spec = parse_bot(spec)
    ruleset = parse_rules(rules)
    if bot_spec.name in ("random", "greedy"):
        return FastBot(bot_spec, ruleset, rng)
    if bot_spec.name == "alphabeta":
        from sim.bots.alphabeta import AlphaBetaBot

        return AlphaBetaBot(bot_spec, ruleset, rng)
    from sim.bots.mcts import MctsBot

    return MctsBot(bot_spec, ruleset, rng)
