"""An external engine's ``info score cp N`` and ``mate N`` reach the game record's
``scores`` on the common scale, in Red's view (tests/support/bad_engine.py's --scores)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.external import pool
from sim.external.registry import EngineRegistry
from sim.play.referee import play_game
from tests.support.engines import bad_engine, write_registry


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineRegistry]:
    path = write_registry(
        tmp_path_factory.mktemp("engines") / "engines.toml",
        bad_engine("scored", "good", scores="cp 120;mate -3;mate 2"),
    )
    yield EngineRegistry.load(path)
    pool.close_all()


def test_cp_and_mate_map_to_red_view(registry: EngineRegistry) -> None:
    game = play_game("standard", "random", "engine:scored", seed=4, ply_cap=6, engines=registry)
    assert game["plies"] == 6 and game["reason"] == "ply_cap"
    scores = game["scores"]
    assert scores[0::2] == [None, None, None]  # Red, a random bot, reports nothing
    # Blue's cp 120 is Blue ahead: Red's view -tanh(120 / 800); Blue mated in 3: +1; Blue mates: -1
    assert scores[1] == pytest.approx(-math.tanh(120 / 800))
    assert scores[3:6:2] == [1.0, -1.0]


def test_the_newest_info_line_decides_between_cp_and_mate(tmp_path: Path) -> None:
    # each search prints two info lines: the later score, cp or mate, is the move's
    table = bad_engine("deeper", "good", scores="mate 4,cp -300;cp 80,mate 5")
    path = write_registry(tmp_path / "engines.toml", table)
    game = play_game(
        "standard", "random", "engine:deeper", seed=4, ply_cap=4, engines=EngineRegistry.load(path)
    )
    pool.close_all()
    assert game["scores"][1] == pytest.approx(math.tanh(300 / 800))  # Blue behind by 300
    assert game["scores"][3] == -1.0  # Blue mates in 5
