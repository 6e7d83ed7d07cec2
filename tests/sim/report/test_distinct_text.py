"""The batch summary of a batch holding copies of its games: how many are distinct, and the
Elo interval of the distinct pairs (or games) alone, or none when fewer than two are."""

from __future__ import annotations

from sim.bots.spec import parse_bot
from sim.report.batch_text import batch_score, summary_text
from sim.report.fmt import elo_estimate
from sim.stats.elo import match_score, pentanomial
from tests.support.records import valid_record

AB = parse_bot("alphabeta:depth=2").canonical
MCTS = parse_bot("mcts:playouts=500").canonical


def _record(counts: dict, distinct: dict | None, swap: bool = True) -> dict:
    rec = valid_record("b1", games=40, **{"status": "done", "counts": counts})
    rec["spec"].update(red=MCTS, blue=AB, swap=swap)
    rec["games_done"] = counts["red"] + counts["blue"] + counts["draw"]
    return dict(rec, distinct=distinct) if distinct else rec


# the reviewer's batch: 20 copies of one pair (mcts loses as red, draws as blue)
COPIES = {"red": 20, "blue": 0, "draw": 20, "a_wins": 0, "b_wins": 20,
          "pentanomial": [0, 20, 0, 0, 0]}  # fmt: skip
ONE_PAIR = {"games": 40, "distinct": 2, "pairs": 20, "distinct_pairs": 1, "wdl": [0, 1, 1],
            "ptnml": [0, 1, 0, 0, 0]}  # fmt: skip


def test_copies_of_one_pair_give_no_interval() -> None:
    text = summary_text(_record(COPIES, ONE_PAIR))
    assert "40/40 games, 2 distinct" in text
    assert (
        "mcts:playouts=500 - alphabeta:depth=2: -190.8 (2 distinct games in 40: no interval)"
        in text
    )
    assert "±" not in text and "colour-swapped pairs" not in text
    # without the distinct counts (dsq batches reads the record alone): as before
    assert "(95%, from 20 colour-swapped pairs)" in summary_text(_record(COPIES, None))


def test_the_interval_comes_from_the_distinct_pairs() -> None:
    dist = {"games": 40, "distinct": 6, "pairs": 20, "distinct_pairs": 3, "wdl": [1, 3, 2],
            "ptnml": [1, 1, 1, 0, 0]}  # fmt: skip
    text = summary_text(_record(COPIES, dist))
    want = elo_estimate(pentanomial([1, 1, 1, 0, 0]).logistic())
    assert f": {want} (95%, from the 3 distinct colour-swapped pairs of 20)" in text
    assert "40/40 games, 6 distinct" in text
    s = batch_score(_record(COPIES, dist))
    assert s is not None and s.elo_from == "distinct pairs" and s.pairs == 3


def test_without_swap_the_interval_comes_from_the_distinct_games() -> None:
    counts = {"red": 30, "blue": 10, "draw": 0, "a_wins": 30, "b_wins": 10}
    dist = {"games": 40, "distinct": 4, "pairs": 0, "distinct_pairs": 0, "wdl": [3, 0, 1],
            "ptnml": [0, 0, 0, 0, 0]}  # fmt: skip
    text = summary_text(_record(counts, dist, swap=False))
    want = elo_estimate(match_score(3, 0, 1).logistic())
    assert f": {want} (95%, from the W/D/L of the 4 distinct games in 40)" in text
    all_distinct = {**dist, "distinct": 40, "wdl": [30, 0, 10]}
    assert "40/40 games, all distinct" in summary_text(_record(counts, all_distinct, swap=False))
