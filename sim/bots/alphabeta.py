"""The ``alphabeta`` bot: iterative deepening over the compiled search of
:mod:`sim.bots.search`, with node and time budgets (the deepest completed iteration wins).

The first iteration (depth 1) always completes, so a budget too small for anything still
gives a legal, sensible move. Another thread may end a search early with :meth:`stop`
(the compiled search runs without the GIL, so that thread can run meanwhile), and
``on_iteration`` hears of each completed iteration (``dsq serve`` prints them as ``info``).
The transposition table lives as long as the bot (one game); history and killers are
cleared before every move. With ``noise > 0`` each move's search draws one salt from the
bot's generator, and every evaluated position gets a noise term fixed by the salt and its
hash.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import core
from engine.errors import MoveError
from engine.position import decode_move
from engine.rng import rng_next
from engine.rules import Ruleset
from sim.bots import search as S
from sim.bots import search_layout as L
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.evaluate import V_OFF, ZOBRIST, full_hash
from sim.bots.scores import from_report
from sim.bots.search_hash import record_history_hashes
from sim.bots.searching import SearchBot
from sim.bots.spec import BotSpec

_MASK63 = (1 << 63) - 1
ASPIRATION = 40  # the first aspiration window's half-width (aspiration=1)


def tt_entries(tt_mb: int) -> int:
    """Entries of a table of ``tt_mb`` MiB (16 bytes each; a power of two)."""
    return 1 << max(10, (int(tt_mb) * (1 << 20) // 16).bit_length() - 1)


def mate_in(score: int) -> int | None:
    """Plies to the end for a mate score (positive: the side to move wins), else None."""
    if score > L.MATE_BOUND:
        return L.MATE - score
    if score < -L.MATE_BOUND:
        return -(L.MATE + score)
    return None


class AlphaBetaBot(SearchBot):
    """Iterative-deepening alpha-beta player (see the module docstring)."""

    def __init__(
        self, spec: BotSpec, rules: Ruleset, rng: np.ndarray, context: BotContext = DEFAULT_CONTEXT
    ) -> None:
        super().__init__(spec, rules, rng, context)
        p = spec.params
        self.depth = int(p["depth"])
        self.noise = int(p["noise"])
        self.node_budget = int(p["nodes"])
        self.contempt = int(p["contempt"])
        self.lmr = int(p["lmr"])
        self.aspiration = int(p["aspiration"])
        self.soft = int(p["soft"])
        self.ws = L.new_workspace(tt_entries(p["tt_mb"]), self.values, self.block)
        # Touch every page of the table now (np.zeros maps them lazily): faulting them in
        # during the first searches would cost those moves milliseconds of their budget.
        self.ws["tt"].fill(0)
        self.work = core.new_state(L.MAX_PLY + 8)
        self.on_iteration: Callable[[dict[str, Any]], None] | None = None

    def _load(self, st: np.ndarray) -> np.ndarray:
        used = core.HEADER + core.HIST_SIZE * int(st[core.S_NPLY])
        if self.work.shape[0] < used + core.HIST_SIZE * (L.MAX_PLY + 4):
            self.work = core.new_state(int(st[core.S_NPLY]) * 2 + L.MAX_PLY + 8)
        self.work[:used] = st[:used]
        return self.work

    def stop(self) -> None:
        """End the search in progress (from another thread) at its next clock check; the
        deepest completed iteration's move is played. Until ``stopping`` is cleared, every
        search stops after its first iteration."""
        self.stopping.set()
        self.ws["ws"][L.C_DEADLINE] = 1  # a deadline long past

    def choose(self, st: np.ndarray) -> int:
        """The move of the deepest completed iteration (``info`` tells what it saw)."""
        start = time.perf_counter()
        work = self._load(st)
        ra = self.rules_array
        buf = np.empty(core.MAX_MOVES, dtype=np.int32)
        n = int(core.legal_moves(work, ra, buf))
        if n == 0:
            raise MoveError("no legal move: the game is over")
        advice = self.tables.advise(work, buf[:n]) if self.tables is not None else None
        if advice is not None and advice.play is not None:
            self.info = {
                "move": decode_move(advice.play),
                "depth": 0,
                "score": None,
                "mate_in": advice.plies,
                "nodes": 0,
                "pv": [decode_move(advice.play)],
                "tablebase": advice.info(),
                "time_ms": (time.perf_counter() - start) * 1000.0,
            }
            return advice.play
        ws = self.ws
        ctl, pv = ws["ws"], ws["pv"]
        ctl[:V_OFF] = 0
        ctl[L.HIST_OFF : L.X_OFF] = 0
        salt = int(rng_next(self.rng)) & _MASK63
        ctl[L.C_SALT] = salt
        ctl[L.C_NOISE] = self.noise
        ctl[L.C_LIMIT] = self.node_budget
        if self.time_ms > 0:  # from the start of the move: the tables' advice counts too
            ctl[L.C_DEADLINE] = int(start * 1e6) + self.time_ms * 1000
        if self.stopping.is_set():  # stop() came before the control words were reset
            ctl[L.C_DEADLINE] = 1
        h = int(full_hash(work, ZOBRIST))
        ctl[L.X_ROOT_SIDE] = int(work[core.S_SIDE])
        ctl[L.X_CONTEMPT] = self.contempt
        ctl[L.X_LMR] = self.lmr
        record_history_hashes(work, h, ctl)
        best, score, reached, line = int(buf[0]), 0, 0, [int(buf[0])]
        if n > 1:
            for depth in range(1, self.depth + 1):
                ctl[L.C_BUDGET] = 1 if depth > 1 else 0
                value = self._iterate(work, h, depth, score)
                if ctl[L.C_ABORT]:
                    break
                length = int(pv[0, 0])
                best, score, reached = int(pv[0, 1]), value, depth
                line = [int(m) for m in pv[0, 1 : 1 + length]]
                if self.on_iteration is not None:
                    self.on_iteration(self._report(best, depth, ctl, score, line, start))
                mate = mate_in(value)
                if (mate is not None and abs(mate) <= depth) or self.stopping.is_set():
                    break
                if self.soft and self._soft_limit_reached(ctl, start):
                    break
        if best not in buf[:n]:  # never: the root only searches legal moves
            raise MoveError(f"search returned an illegal move {decode_move(best)}")
        if advice is not None:  # keep the draw, or the longest loss
            kept = advice.settle(best)
            if kept != best:
                best, line = kept, [kept]
        self.info = self._report(best, reached, ctl, score, line, start)
        if advice is not None:
            self.info["tablebase"] = advice.info()
        return best

    def _soft_limit_reached(self, ctl: np.ndarray, start: float) -> bool:
        """Whether ``soft`` percent of the node or time budget is spent: an iteration
        started now would most often be ended by the budget, its nodes lost."""
        if self.node_budget > 0 and int(ctl[L.C_NODES]) * 100 >= self.soft * self.node_budget:
            return True
        if self.time_ms > 0:
            elapsed_ms = (time.perf_counter() - start) * 1000.0
            return elapsed_ms * 100 >= self.soft * self.time_ms
        return False

    def _iterate(self, work: np.ndarray, h: int, depth: int, last: int) -> int:
        """One iteration to ``depth``: with ``aspiration=1`` (from depth 4, after a score
        that is no mate score), in a window of ``ASPIRATION`` around the ``last``
        iteration's score, widened fourfold on the side it fails until it holds;
        otherwise in the full window, which always holds."""
        ws = self.ws
        aspire = self.aspiration and depth >= 4 and abs(last) <= L.MATE_BOUND
        below = above = ASPIRATION if aspire else L.INF
        while True:
            alpha = max(last - below, -L.INF)
            beta = min(last + above, L.INF)
            value = int(
                S.search(
                    work,
                    self.rules_array,
                    ws["tt"],
                    ws["ml"],
                    ws["pv"],
                    ws["ws"],
                    h,
                    depth,
                    0,
                    alpha,
                    beta,
                )  # fmt: skip
            )
            if ws["ws"][L.C_ABORT] or alpha < value < beta:
                return value
            if value <= alpha:
                below = L.INF if below * 4 > L.MATE_BOUND else below * 4
            else:
                above = L.INF if above * 4 > L.MATE_BOUND else above * 4

    def last_score(self) -> float | None:
        """The last move's score on the common scale of :mod:`sim.bots.scores` (a mate ±1,
        else tanh of the evaluation), None when it was not searched (its only legal move)."""
        if self.info.get("mate_in") is None and not self.info.get("depth"):
            return None
        return from_report(self.info)

    @staticmethod
    def _report(
        best: int, depth: int, ctl: np.ndarray, score: int, line: list[int], start: float
    ) -> dict[str, Any]:
        """What a search saw: the ``info`` of :meth:`choose` and of ``on_iteration``."""
        return {
            "move": decode_move(best),
            "depth": depth,
            "seldepth": int(ctl[L.C_SELDEPTH]),
            "score": score,
            "mate_in": mate_in(score),
            "nodes": int(ctl[L.C_NODES]),
            "pv": [decode_move(m) for m in line],
            "time_ms": (time.perf_counter() - start) * 1000.0,
        }
