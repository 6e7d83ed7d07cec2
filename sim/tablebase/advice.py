"""What the tables tell a bot about its move (the ``tablebase`` parameter of ``alphabeta``
and ``mcts``).

At the root, when a table on disk covers the position: a win whose length fits the
no-capture clock (``d <= N - c``, any ``d`` when ``N = 0``) is played straight from the
table (the fastest winning move); a draw or a loss is kept: the bot searches as usual,
and a move that would give away the draw or shorten the resistance is replaced by one
that keeps the value at its best. Otherwise (no table, or a win the clock may cut short)
the bot searches as it always does; a damaged table is reported once (on stderr) and the
bot searches without it. Only legal moves count: under the anti-chasing rules
a table's best move may be forbidden, and then the best legal one decides.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine import core
from engine.rules import Ruleset
from sim.tablebase import outcomes as V
from sim.tablebase.material import MAX_PIECES
from sim.tablebase.probe import NoTable, move_codes, state_code
from sim.tablebase.store import TableError, cache_for, rules_key, table_ruleset


@dataclass(frozen=True)
class Advice:
    """The tables' word on a position: its value for the side to move, the move to play
    at once (a clock-safe win) or None, and the legal moves that keep the best value."""

    value: str
    plies: int | None
    play: int | None
    keep: tuple[int, ...]

    def info(self) -> dict[str, Any]:
        """What a bot's ``info`` shows of it."""
        return {"value": self.value, "plies": self.plies}

    def settle(self, move: int) -> int:
        """The move to play given the search's ``move``: it, if it keeps the value."""
        if self.play is not None:
            return self.play
        return move if move in self.keep or not self.keep else self.keep[0]


class TableAdvisor:
    """Asks the tables of one rule set, in the tables folder ``root``, about positions."""

    def __init__(self, rules: Ruleset, root: Path) -> None:
        self.rules = rules
        self.root = root
        self.key = rules_key(rules)
        self.table_rules = table_ruleset(rules).as_array()
        self.limit = rules.no_capture_plies

    def advise(self, st: np.ndarray, legal: np.ndarray) -> Advice | None:
        """The advice for the side to move in ``st`` among its ``legal`` moves, or None
        when no table covers the position (or one it needs is missing or damaged)."""
        if int(st[core.S_COUNT]) + int(st[core.S_COUNT + 1]) > MAX_PIECES or len(legal) == 0:
            return None
        cache = cache_for(self.root)
        try:
            if state_code(st, self.key, cache) is None:
                return None
            worth = move_codes(st, self.table_rules, cache, self.key, legal)
        except NoTable:
            return None
        except TableError as exc:
            _report_once(str(exc))
            return None
        best = max(worth, key=V.score)
        value, plies = V.decode(best)
        keep = tuple(int(m) for m, w in zip(legal, worth, strict=True) if w == best)
        if value == "win":
            clock = int(st[core.S_CLOCK])
            if self.limit > 0 and int(plies or 0) > self.limit - clock:
                return None  # the clock may end it first: search as usual
            return Advice(value, plies, keep[0], keep)
        return Advice(value, plies, None, keep)


_REPORTED: set[str] = set()


def _report_once(message: str) -> None:
    """Say on stderr, once per process, that a table a bot needs cannot be used."""
    if message not in _REPORTED:
        _REPORTED.add(message)
        print(f"dsq: {message}; the bot searches without it", file=sys.stderr)
