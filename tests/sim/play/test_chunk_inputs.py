"""What the fast path computes for a whole chunk at once equals what the referee computes for
one game: the seeds and colours of the plans, the generators' words; and a chunk stops at
its deadline."""

from __future__ import annotations

import random
import time

import numpy as np

from engine.fen import parse_fen
from engine.rng import seed_word
from sim.bots import fast
from sim.core.seeds import plan_game, plan_games
from sim.play.columnar import generator_words, play_fast_columns
from sim.play.referee import _rules, bot_seed


def test_plans_of_a_chunk_are_the_plans_of_its_games() -> None:
    for swap in (False, True):
        indices = [0, 1, 2, 7, 8, 9, 1000, 2**31 - 1]
        plan = plan_games(12345, indices, swap)
        for k, gi in enumerate(indices):
            one = plan_game(12345, gi, "a", "b", swap)
            assert (plan.game_index[k], plan.pair_id[k]) == (gi, one.pair_id)
            assert (plan.seed[k], plan.opening_seed[k]) == (one.seed, one.opening_seed)
            assert ("a" if plan.a_is_red[k] else "b") == one.red


def test_generator_words_are_the_referees() -> None:
    rng = random.Random(3)
    seeds = [0, -1, 2**63 - 1, -(2**63)] + [rng.randrange(-(2**63), 2**63) for _ in range(300)]
    openings = [rng.randrange(-(2**63), 2**63) for _ in seeds]
    words = generator_words(np.array(seeds, dtype=np.int64), np.array(openings, dtype=np.int64))
    expected = [
        [seed_word(o), seed_word(bot_seed(s, 0)), seed_word(bot_seed(s, 1))]
        for s, o in zip(seeds, openings, strict=True)
    ]
    assert words.tolist() == expected


def test_a_chunk_stops_at_its_deadline_after_whole_slices() -> None:
    n = 5 * fast.SLICE
    seeds = np.arange(n, dtype=np.int64)
    red = np.zeros(n, dtype=np.int64)
    args = ("standard", ("random", "greedy"), red, 1 - red, seeds, seeds, 0, 200)
    _, done = play_fast_columns(*args, deadline=time.perf_counter() - 1.0)
    assert done == fast.SLICE  # the first slice is always played
    columns, done = play_fast_columns(*args)
    assert done == n and len(columns["moves"]) == n
    _, _, ra, start, values = _rules("standard")
    kinds = np.zeros((3, 2), dtype=np.int32)
    words = generator_words(seeds[:3], seeds[:3])
    summary = fast.fast_games(parse_fen("start", ra, 1), ra, kinds, values, words, 0, 50)[0]
    assert summary.shape == (3, fast.SUMMARY_SIZE)
