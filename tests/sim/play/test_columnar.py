"""The columnar fast path plays exactly the games of ``play_game``, as the same table."""

from __future__ import annotations

import time

import pytest

from sim.batch.chunks import ChunkJob, _play_chunk_fast, play_one
from sim.core.batchspec import BatchSpec
from sim.play.columnar import fast_pair, play_fast_games
from sim.play.referee import play_game
from sim.storage.schema import GAME_SCHEMA
from sim.storage.writing import rows_to_table


@pytest.mark.parametrize(
    "rules",
    ["standard", "yeshou+dog_over_wolf", "datou+no_capture_plies=24", "standard+lion_jump=none"],
)
def test_fast_games_equal_play_game(rules: str) -> None:
    seeds = list(range(500, 540))
    openings = [s // 2 for s in seeds]
    reds = ["random", "greedy", "greedy", "random"] * 10
    blues = ["greedy", "random", "greedy", "random"] * 10
    columns = play_fast_games(rules, reds, blues, seeds, openings, opening_plies=3, ply_cap=250)
    for i, seed in enumerate(seeds):
        game = play_game(rules, reds[i], blues[i], seed, 3, 250, openings[i])
        for key, value in game.items():
            got = columns[key][i].as_py()
            if key == "duration_ms":
                assert got >= 0
            elif key == "branching":
                assert got == pytest.approx(value, rel=1e-6)
            else:
                assert got == value, (rules, i, key)


def test_fast_chunk_table_equals_the_row_by_row_table() -> None:
    job = ChunkJob(
        batch_id="b",
        spec=BatchSpec(
            "yeshou", "greedy", "random", 150, 9, swap=True, opening_plies=3, ply_cap=400
        ),
        indices=tuple(range(150)),
    )
    rows = rows_to_table([play_one(job, i) for i in job.indices]).drop_columns(["duration_ms"])
    fast = _play_chunk_fast(job, time.monotonic() + 600)
    assert fast.played == job.indices
    assert fast.table.schema.names == GAME_SCHEMA.names
    assert fast.table.drop_columns(["duration_ms"]).equals(rows)


def test_only_random_and_greedy_take_the_fast_path() -> None:
    assert fast_pair("random", "greedy")
    assert not fast_pair("random", "alphabeta:depth=1")
    assert not fast_pair("mcts:playouts=10", "greedy")
