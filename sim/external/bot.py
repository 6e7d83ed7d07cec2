"""An external engine as a dsq bot: ``make_bot("engine:NAME,movetime=100", rules, rng)``.

:class:`EngineBot` takes a running engine from the process's pool for the game
(:meth:`EngineBot.start`, which also sends ``ucinewgame``), sends the game as ``position``
+ ``go`` for each move and checks the answer with our engine: a move that is not legal
here, ``bestmove 0000``, garbage, a crash or silence raise an
:class:`~sim.external.process.EngineFault` (the referee records a forfeit). After a fault
the engine is closed; the next game starts a fresh one. :meth:`EngineBot.close` gives a
healthy engine back to the pool.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import core
from engine.codes import MOVE_SHAPE
from engine.position import encode_move
from engine.rules import Ruleset
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.scores import from_report
from sim.bots.spec import BotSpec
from sim.external import pool
from sim.external.client import EngineClient, file_sha256
from sim.external.clocks import GRACE_MS, GameClocks
from sim.external.positions import PositionText
from sim.external.process import EngineFault
from sim.external.registry import EngineRegistry

NULL_MOVES = ("0000", "(none)", "none", "null")


class EngineBot:
    """A bot whose moves come from an external engine (see the module docstring)."""

    external = True  # the referee turns its faults into forfeits

    def __init__(
        self, spec: BotSpec, rules: Ruleset, rng: np.ndarray, context: BotContext = DEFAULT_CONTEXT
    ) -> None:
        self.spec = spec
        registry = context.engines if context.engines is not None else EngineRegistry.load()
        self.entry = registry.find(spec.params["engine"])
        self.rules_array = rules.as_array()
        self.positions = PositionText(self.entry)
        self.client: EngineClient | None = None
        self.clocks: GameClocks | None = None  # set by the referee for a timed game
        self.identity: dict[str, str | None] | None = None
        self.info: dict[str, Any] = {}
        self._buf = np.empty(core.MAX_MOVES, dtype=np.int32)

    def start(self) -> None:
        """Take an engine from the pool and start a new game (EngineFault if it fails)."""
        if self.client is not None:
            return
        try:
            client = pool.acquire(self.entry, self.spec.params["options"])
        except EngineFault:  # who it was, though it never said its name
            self.identity = {
                "name": self.entry.name,
                "version": None,
                "sha256": file_sha256(self.entry.program),
            }
            raise
        self.client = client
        self.identity = client.identity()
        try:
            client.new_game()
        except EngineFault:
            self.close()
            raise

    def choose(self, st: np.ndarray) -> int:
        """The engine's move in ``st``, checked legal; EngineFault on any fault."""
        self.start()
        client = self.client
        assert client is not None
        side = int(st[core.S_SIDE])
        clocks = self.clocks or GameClocks.for_specs([self.spec, self.spec])
        try:
            result = client.go(
                self.positions.command(st),
                clocks.go_args(side, self.spec.params),
                clocks.wait_ms(side),
                GRACE_MS,
            )
            code = self._check(st, result.move)
        except EngineFault:
            client.broken = True
            self.close()
            raise
        self.info = {
            "move": result.move,
            **{
                k: result.info[k]
                for k in ("depth", "score", "mate_in", "nodes", "pv")
                if k in result.info
            },  # fmt: skip
            "time_ms": result.elapsed_ms,
        }
        return code

    def last_score(self) -> float | None:
        """The last move's score on the common scale of :mod:`sim.bots.scores` (from the
        engine's last ``info score cp N`` or ``mate N``), None if it reported none."""
        return from_report(self.info)

    def _check(self, st: np.ndarray, move: str) -> int:
        """The code of the engine's ``move`` if legal here, else the fault it is."""
        name = self.entry.name
        if move.lower() in NULL_MOVES:
            raise EngineFault("null_move", f"engine {name} answered bestmove {move or '(none)'}")
        if not MOVE_SHAPE.fullmatch(move):
            raise EngineFault("garbage", f"engine {name} answered bestmove {move[:40]!r}")
        code = encode_move(move)
        n = int(core.legal_moves(st, self.rules_array, self._buf))
        if code not in self._buf[:n]:
            raise EngineFault("illegal", f"engine {name} played the illegal move {move}")
        return code

    def close(self) -> None:
        """Give the engine back to the pool (closed if it misbehaved)."""
        if self.client is not None:
            client, self.client = self.client, None
            pool.release(client)
