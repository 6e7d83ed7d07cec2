"""The ``scores`` column: each ply's search score in Red's view, from real games of the
searching bots, NULL for fast bots, and the common scale of sim.bots.scores."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sim.batch import make_spec, run_batch
from sim.bots.scores import EVAL_SCALE, from_eval, from_mate, from_report, from_value, red_view
from sim.play.referee import play_game
from sim.storage.reading import open_dataset


def test_the_scale() -> None:
    assert from_mate(3) == 1.0 and from_mate(-1) == -1.0 and from_mate(0) == -1.0
    assert from_eval(0) == 0.0 and from_eval(EVAL_SCALE) == pytest.approx(math.tanh(1))
    assert from_eval(-200) == pytest.approx(-0.245, abs=1e-3)  # a cat behind
    assert from_value(1.0) == 1.0 and from_value(0.5) == 0.0 and from_value(0.25) == -0.5
    assert from_report({"score": 30, "mate_in": -2}) == -1.0  # a mate decides
    assert from_report({"score": None}) is None and from_report({}) is None
    assert red_view(0.25, 0) == 0.25 and red_view(0.25, 1) == -0.25 and red_view(None, 1) is None


def test_the_scale_is_the_one_mcts_puts_on_an_evaluation() -> None:
    from sim.bots import mcts_leaf

    # a cut playout scores 1 / (1 + exp(-u / k)); 2v - 1 of it is tanh(u / 2k)
    u = 350.0
    v = 1.0 / (1.0 + math.exp(-u / mcts_leaf.EVAL_SCALE))
    assert from_value(v) == pytest.approx(from_eval(u))


@pytest.mark.parametrize("searcher", ["red", "blue"])
def test_alpha_beta_against_random_records_its_scores(searcher: str) -> None:
    bot = "alphabeta:depth=2"
    red, blue = (bot, "random") if searcher == "red" else ("random", bot)
    game = play_game("standard", red, blue, seed=5, opening_plies=3)
    scores = game["scores"]
    assert game["winner"] == searcher and game["reason"] in ("den", "capture_all", "no_moves")
    assert len(scores) == game["plies"]
    assert scores[:3] == [None] * 3  # the random opening plies
    mine = 0 if searcher == "red" else 1
    assert all(s is None for i, s in enumerate(scores[3:], 3) if i % 2 != mine)  # random's
    searched = [s for i, s in enumerate(scores[3:], 3) if i % 2 == mine]
    assert searched and all(s is not None and -1.0 <= s <= 1.0 for s in searched)
    # the winner's last move was a mate its search found: +1 for Red, -1 for Blue
    assert scores[-1] == (1.0 if searcher == "red" else -1.0)


def test_alpha_beta_self_play_and_mcts_stay_on_the_scale() -> None:
    game = play_game("standard", "alphabeta:depth=2", "mcts:playouts=100", seed=2, ply_cap=40)
    scores = game["scores"]
    assert len(scores) == game["plies"] == 40
    values = [s for s in scores if s is not None]
    assert len(values) >= 36  # every ply but a forced move or two
    assert all(-1.0 <= s <= 1.0 for s in values)


def test_fast_bots_write_null_and_search_bots_write_scores(tmp_path: Path) -> None:
    run_batch(make_spec("standard", "random", "greedy", 6, seed=1), tmp_path, batch_id="fast")
    spec = make_spec("standard", "alphabeta:depth=1", "random", 2, seed=1, ply_cap=30)
    run_batch(spec, tmp_path, batch_id="slow")
    with open_dataset(tmp_path) as ds:
        rows = ds.con.execute(
            "SELECT batch_id, count(*), count(scores), sum(len(scores) = plies)"
            " FROM games GROUP BY batch_id ORDER BY batch_id"
        ).fetchall()
    assert rows == [("fast", 6, 0, None), ("slow", 2, 2, 2)]
