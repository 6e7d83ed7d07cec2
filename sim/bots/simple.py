"""The player of ``random`` and ``greedy``: one compiled kernel call per move."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from engine import core
from engine.errors import MoveError
from engine.rules import Ruleset
from sim.bots import fast
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.params import DEFAULT_VALUES
from sim.bots.piece_values import values_array
from sim.bots.registry import KINDS
from sim.bots.spec import BotSpec


class KernelBot:
    """A bot whose whole move choice is a compiled kernel (``random``, ``greedy``)."""

    def __init__(
        self, spec: BotSpec, rules: Ruleset, rng: np.ndarray, context: BotContext = DEFAULT_CONTEXT
    ) -> None:
        self.spec = spec
        self.kind = KINDS[spec.name].fast_kind
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
