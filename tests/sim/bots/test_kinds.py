"""Each bot kind carries what the rest of dsq needs of it: a cost per move (the dashboard's
launch estimate) and the limits a protocol ``go`` sets (``dsq engine``); a kind registered
at run time is known everywhere at once."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from engine import core
from engine.errors import DsqError
from engine.rules import Ruleset
from sim.batch import make_spec
from sim.batch.budget import estimate_seconds, move_seconds
from sim.bots import BotContext, describe_bots, make_bot, parse_bot
from sim.bots.bot_kind import BotKind, GoLimits
from sim.bots.move_costs import UNKNOWN_MOVE_S, constant_cost
from sim.bots.params import Param
from sim.bots.registry import KINDS, register, unregister
from sim.bots.spec import BotSpec
from sim.play.referee import play_game
from sim.serve.server import EngineServer


class LowestBot:
    """Plays the legal move with the lowest code, within ``plies`` (a go limit) unused."""

    def __init__(self, spec: BotSpec, rules: Ruleset, rng: np.ndarray, context: BotContext) -> None:
        self.spec = spec
        self.rules_array = rules.as_array()
        self.depth = int(spec.params["depth"])
        self.info: dict[str, Any] = {}
        self._buf = np.empty(core.MAX_MOVES, dtype=np.int32)

    def choose(self, st: np.ndarray) -> int:
        n = core.legal_moves(st, self.rules_array, self._buf)
        self.info = {"depth": self.depth}
        return int(self._buf[:n].min())


DEPTH = Param("depth", "int", 1, "unused depth", 1, 60)
PLAYER = f"{__name__}:LowestBot"


@pytest.fixture
def lowest() -> Iterator[str]:
    """A kind ``lowest`` without a cost, registered for the test."""
    register(BotKind("lowest", "the lowest legal move code", (DEPTH,), PLAYER,
                     limits=GoLimits(depth="depth")))  # fmt: skip
    try:
        yield "lowest"
    finally:
        unregister("lowest")


def test_every_kind_gives_a_cost_per_move_for_its_default_spec() -> None:
    for kind in KINDS.values():
        assert kind.cost is not None, kind.name
        spec = parse_bot(f"{kind.name}:NAME" if kind.spec_module else kind.name)
        seconds = kind.move_seconds(spec.params)
        assert 0 < seconds < 10 and math.isfinite(seconds), kind.name


def test_the_costs_follow_the_parameters() -> None:
    assert move_seconds("alphabeta:depth=6") > move_seconds("alphabeta:depth=4")
    assert move_seconds("alphabeta:depth=8,time_ms=20") == pytest.approx(0.02)
    assert move_seconds("alphabeta:depth=8,nodes=7000") == pytest.approx(1e-3)
    assert move_seconds("mcts:playouts=4000") == pytest.approx(2 * move_seconds("mcts"))
    assert move_seconds("engine:x,movetime=250") == pytest.approx(0.25)
    assert move_seconds("engine:x,tc=40/60+0.5") == pytest.approx(2.0)


def test_the_go_limits_name_attributes_of_the_built_bot() -> None:
    for kind in KINDS.values():
        if kind.external:  # an engine bot starts a program: its limits are its own
            assert kind.limits.attrs() == {}
            continue
        bot = make_bot(kind.name, "standard", np.ones(1, dtype=np.uint64))
        for attr in kind.limits.attrs().values():
            assert isinstance(getattr(bot, attr), int), (kind.name, attr)
    assert KINDS["alphabeta"].limits.attrs() == {
        "depth": "depth", "nodes": "node_budget", "time": "time_ms"
    }  # fmt: skip


def test_a_kind_registered_at_run_time_is_known_everywhere(lowest: str) -> None:
    assert parse_bot("lowest:depth=3").canonical == "lowest:depth=3"
    assert any(b["name"] == "lowest" for b in describe_bots())
    # without a cost of its own: the default, never a KeyError
    assert move_seconds("lowest") == UNKNOWN_MOVE_S
    spec = make_spec("standard", "lowest", "random", 10, seed=1)
    assert estimate_seconds([spec], 1) == pytest.approx(10 * 300 * (UNKNOWN_MOVE_S + 1e-7) / 2)
    game = play_game("standard", "lowest", "random", seed=3, ply_cap=40)
    assert game["red"] == "lowest:depth=1" and game["plies"] > 0

    server = EngineServer("lowest", "standard", out=io.StringIO())
    out = io.StringIO()
    server.out = out
    for line in ("uci", "go depth 7", "isready"):
        server.handle(line + "\n")
        server.finish()
    lines = out.getvalue().splitlines()
    assert "option name depth type spin default 1 min 1 max 60" in lines
    assert "info depth 7 nodes 0 nps 0 time 0" in lines  # the go limit set the bot's depth
    assert any(line.startswith("bestmove ") and line != "bestmove 0000" for line in lines)


def test_a_registered_cost_is_used_and_names_are_checked(lowest: str) -> None:
    unregister(lowest)
    register(BotKind(lowest, "the lowest legal move code", (DEPTH,), PLAYER,
                     cost=constant_cost(0.5)))  # fmt: skip
    assert move_seconds("lowest:depth=2") == 0.5
    with pytest.raises(DsqError, match="already registered"):
        register(BotKind(lowest, "again", (), PLAYER))
    with pytest.raises(DsqError, match="lowercase words"):
        register(BotKind("Two words", "bad", (), PLAYER))
    unregister(lowest)
    with pytest.raises(DsqError, match="unknown bot 'lowest'"):
        parse_bot("lowest")
