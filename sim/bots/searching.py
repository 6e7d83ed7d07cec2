"""What every searching bot (``alphabeta``, ``mcts``) is built from, in one constructor:
its spec, the rules as the kernels read them, its generator, its evaluation (named by
``eval``, :func:`sim.bots.evalfile.bot_evaluation`), the tables' advice when
``tablebase=on``, its time budget, the search report and the stop flag."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from engine.rules import Ruleset
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.evalfile import bot_evaluation
from sim.bots.spec import BotSpec
from sim.tablebase.advice import TableAdvisor


class SearchBot:
    """The common part of a searching bot; a subclass adds its search's own state."""

    def __init__(
        self, spec: BotSpec, rules: Ruleset, rng: np.ndarray, context: BotContext = DEFAULT_CONTEXT
    ) -> None:
        self.spec = spec
        self.rules_array = rules.as_array()
        self.rng = rng
        p = spec.params
        self.time_ms = int(p["time_ms"])
        self.values, self.block, self.eval_name = bot_evaluation(p, rules, context.evals_root())
        self.tables = TableAdvisor(rules, context.tables_root()) if p["tablebase"] == "on" else None
        self.info: dict[str, Any] = {}  # the last search's report
        self.stopping = threading.Event()  # set by stop(); cleared by the caller of choose
