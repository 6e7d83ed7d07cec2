"""The ``mcts`` bot: UCT over :mod:`sim.bots.mcts_kernel`; plays the most visited move,
and any move that wins at once (den entry, last capture, opponent left without moves).
Another thread may end a search early with :meth:`MctsBot.stop` (the compiled search runs
without the GIL); the playouts done so far choose the move."""

from __future__ import annotations

import time

import numpy as np

from engine import core
from engine.errors import MoveError
from engine.position import decode_move
from engine.rules import Ruleset
from sim.bots import mcts_kernel as K
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.evaluate import params_array
from sim.bots.mcts_leaf import WORKSPACE_SIZE, leaf_lists
from sim.bots.scores import from_value
from sim.bots.searching import SearchBot
from sim.bots.spec import BotSpec

MAX_NODES = 1 << 22


class MctsBot(SearchBot):
    """Monte Carlo tree search player (see :mod:`sim.bots.mcts_kernel`)."""

    def __init__(
        self, spec: BotSpec, rules: Ruleset, rng: np.ndarray, context: BotContext = DEFAULT_CONTEXT
    ) -> None:
        super().__init__(spec, rules, rng, context)
        p = spec.params
        self.playouts = int(p["playouts"])
        self.c = float(p["c"])
        self.greedy = p["rollout"] == "greedy"
        self.rollout_plies = int(p["rollout_plies"])
        # The code leaf_score reads: 0 the evaluation, 1 + depth a search of depth plies.
        self.leaf = 1 + int(p["leaf_depth"]) if p["leaf"] == "qsearch" else 0
        self.bias = float(p["bias"])
        self.minimax = float(p["minimax"])
        self.params = params_array(self.values, self.block, WORKSPACE_SIZE)
        self.lists = leaf_lists()
        nodes = min(MAX_NODES, (self.playouts + 1) * core.MAX_MOVES + 1)
        self.tree_i = np.zeros((nodes, 5), dtype=np.int32)
        self.tree_f = np.zeros((nodes, 4), dtype=np.float64)
        self.clock = np.zeros(1, dtype=np.int64)  # the kernel's deadline (see K.mcts)

    def stop(self) -> None:
        """End the search in progress (from another thread) within 64 playouts. Until
        ``stopping`` is cleared, every search stops after its first 64 playouts."""
        self.stopping.set()
        self.clock[0] = 1  # a deadline long past

    def choose(self, st: np.ndarray) -> int:
        """The most visited root move after the playouts (or an immediate win)."""
        start = time.perf_counter()
        nply = int(st[core.S_NPLY])
        work = core.new_state(nply + K.MAX_TREE_DEPTH + self.rollout_plies + K.MAX_SETTLE + 8)
        used = core.HEADER + core.HIST_SIZE * nply
        work[:used] = st[:used]
        ra = self.rules_array
        buf = np.empty(core.MAX_MOVES, dtype=np.int32)
        scratch = np.empty(core.MAX_MOVES, dtype=np.int32)
        n = int(core.legal_moves(work, ra, buf))
        if n == 0:
            raise MoveError("no legal move: the game is over")
        win = int(K.immediate_win(work, ra, buf, n, scratch))
        advice = None
        if win < 0 and n > 1 and self.tables is not None:
            advice = self.tables.advise(work, buf[:n])
            if advice is not None and advice.play is not None:
                win = advice.play
        if win >= 0 or n == 1:
            mv = win if win >= 0 else int(buf[0])
            self.info = {
                "move": decode_move(mv),
                "playouts": 0,
                "score": 1.0 if win >= 0 else None,
                "nodes": 0,
                "pv": [decode_move(mv)],
                "time_ms": (time.perf_counter() - start) * 1000.0,
            }
            if advice is not None:
                self.info["tablebase"] = advice.info()
            return mv
        # From the start of the move (now_us reads the same clock): the advice counts too.
        self.clock[0] = int(start * 1e6) + self.time_ms * 1000 if self.time_ms > 0 else 0
        if self.stopping.is_set():  # stop() came before the deadline was set
            self.clock[0] = 1
        done, nodes = K.mcts(
            work,
            ra,
            self.params,
            self.values,
            self.rng,
            self.tree_i,
            self.tree_f,
            self.playouts,
            self.c,
            self.greedy,
            self.rollout_plies,
            self.clock,
            buf,
            scratch,
            self.lists,
            self.leaf,
            self.bias,
            self.minimax,
        )
        mv, line, score = self._best_line()
        if advice is not None:  # keep the draw, or the longest loss
            kept = advice.settle(mv)
            if kept != mv:
                mv, line = kept, [kept]
        self.info = {
            "move": decode_move(mv),
            "playouts": int(done),
            "score": score,
            "nodes": int(nodes),
            "pv": [decode_move(m) for m in line],
            "time_ms": (time.perf_counter() - start) * 1000.0,
        }
        if advice is not None:
            self.info["tablebase"] = advice.info()
        return mv

    def last_score(self) -> float | None:
        """The last move's score on the common scale of :mod:`sim.bots.scores` (``2v - 1``
        of its mean playout value ``v``; 1 for an immediate win), None when it was not
        searched (its only legal move)."""
        score = self.info.get("score")
        return from_value(score) if isinstance(score, float) else None

    def _best_line(self) -> tuple[int, list[int], float]:
        """The most visited root move, the line of most visited moves, its value."""
        ti, tf = self.tree_i, self.tree_f
        node, score = 0, 0.0
        line: list[int] = []
        while ti[node, K.T_COUNT] > 0 and len(line) < 16:
            first, count = int(ti[node, K.T_FIRST]), int(ti[node, K.T_COUNT])
            visits = tf[first : first + count, K.F_VISITS]
            if visits.max() <= 0:
                break
            child = first + int(np.argmax(visits))  # first of the most visited
            if not line:
                score = float(tf[child, K.F_VALUE] / tf[child, K.F_VISITS])
            line.append(int(ti[child, K.T_MOVE]))
            node = child
        return line[0], line, score
