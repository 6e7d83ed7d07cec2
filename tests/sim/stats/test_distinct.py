"""Distinct games on crafted parquet files: copies within and across batches, the start and
the rules in a game's identity, colour-swapped pairs, and games recorded without moves
(deterministic bots from the start position against seeded ones)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sim.stats import Selection, matchup_table
from sim.stats.distinct import batch_distinct, distinct_connection, distinct_games
from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk

A, B = "alphabeta:depth=1", "alphabeta:depth=2"  # deterministic (no noise, no time_ms)
FEN = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"


def _game(batch: str, index: int, *, swap: bool = True, a_red: bool = True, **kw: Any) -> dict:
    red, blue = (A, B) if a_red else (B, A)
    return {"batch_id": batch, "game_index": index, "pair_id": index // 2 if swap else index,
            "seed": 1000 + index, "red": red, "blue": blue, **kw}  # fmt: skip


def _pair(batch: str, pair: int, first: dict, second: dict) -> list[dict]:
    return [_game(batch, 2 * pair, **first), _game(batch, 2 * pair + 1, a_red=False, **second)]


W0: dict[str, Any] = {"moves": [10, 20], "winner": "red"}  # bot a (red) wins
D1: dict[str, Any] = {"moves": [30, 40], "winner": "draw", "reason": "no_capture"}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """Crafted batches: ``m`` (moves, swapped: pairs 0 and 1 alike, pair 3 repeating one
    game of pair 0), ``n`` (moves, one game each: the game of ``m`` again, the same moves
    from a FEN and under other rules), ``o`` (outcomes, deterministic bots from the start,
    two pairs ending alike), ``r`` (outcomes, seeded bots), ``p`` (outcomes, random
    opening plies)."""
    m = [
        *_pair("m", 0, W0, D1),
        *_pair("m", 1, W0, D1),  # the same pair again
        *_pair("m", 2, {"moves": [11], "winner": "blue"}, {"moves": [31], "winner": "red"}),
        *_pair("m", 3, W0, {"moves": [32], "winner": "blue"}),  # one game of pair 0 again
    ]
    n = [
        _game("n", 0, swap=False, **W0),  # the first game of m
        _game("n", 1, swap=False, start_fen=FEN, **W0),  # the same moves from a FEN
        _game("n", 2, swap=False, rules="yeshou", **W0),  # under other rules
    ]
    ending = {"moves": None, "captures": None, "plies": 57, "winner": "red", "reason": "den"}
    other = {**ending, "plies": 61, "winner": "draw", "reason": "no_capture"}
    o = [*_pair("o", 0, ending, other), *_pair("o", 1, ending, other)]
    r = [{**g, "red": "random", "blue": "greedy"} for g in _pair("r", 0, ending, ending)]
    r += [{**g, "red": "random", "blue": "greedy"} for g in _pair("r", 1, ending, ending)]
    p = [{**g, "opening_plies": 8} for g in (*_pair("p", 0, ending, ending),
                                             *_pair("p", 1, ending, ending))]  # fmt: skip
    for batch, rows in (("m", m), ("n", n), ("o", o), ("r", r), ("p", p)):
        write_games_chunk(tmp_path, batch, rows_table(rows))
    return tmp_path


def test_copies_within_a_batch_and_the_distinct_pairs_pentanomial(data: Path) -> None:
    with open_dataset(data) as ds:
        m = distinct_games(ds.con, Selection(batches=("m",))).batches["m"]
    assert (m.games, m.distinct, m.pairs, m.distinct_pairs) == (8, 5, 4, 3)
    assert m.repeats
    # bot a over the first of each distinct game: W (m0) D (m1) L L (m4, m5) W (m7)
    assert m.wdl == (2, 1, 2)
    # distinct pairs: 0 (W+D: WD), 2 (L+L: LL), 3 (W+W: WW); pair 1 repeats pair 0
    assert m.ptnml == (1, 0, 0, 1, 1)


def test_start_and_rules_are_part_of_a_game_and_totals_count_across_batches(
    data: Path,
) -> None:
    with open_dataset(data) as ds:
        found = distinct_games(ds.con, Selection(batches=("m", "n")))
    n = found.batches["n"]
    assert (n.games, n.distinct) == (3, 3)  # another start, other rules: other games
    assert (found.total.games, found.total.distinct) == (11, 7)  # n's first is m's first
    assert (found.total.pairs, found.total.distinct_pairs) == (4, 3)
    assert found.total.wdl is None and found.total.ptnml is None


def test_games_without_moves_are_told_apart_by_what_decides_them(data: Path) -> None:
    with open_dataset(data) as ds:
        found = distinct_games(ds.con, Selection(batches=("o", "r", "p")))
    o, r, p = (found.batches[b] for b in "orp")
    # deterministic bots from the start: the same ending is the same game
    assert (o.games, o.distinct, o.pairs, o.distinct_pairs) == (4, 2, 2, 1)
    assert o.ptnml == (0, 0, 0, 1, 0)  # a wins as red, draws as blue: one WD pair
    # seeded bots, or random opening plies: each seed its own game, however it ended
    assert (r.games, r.distinct, r.distinct_pairs) == (4, 4, 2)
    assert (p.games, p.distinct, p.distinct_pairs) == (4, 4, 2)
    assert not r.repeats and not p.repeats


def test_a_batch_read_from_its_folder_alone(data: Path) -> None:
    o = batch_distinct(data, "o")
    assert o is not None and (o.games, o.distinct) == (4, 2)
    assert batch_distinct(data, "absent") is None


def test_the_distinct_connection_keeps_each_distinct_pair_whole(data: Path) -> None:
    with open_dataset(data) as ds:
        con = distinct_connection(ds.con, Selection(batches=("m", "o")))
    rows = con.execute("SELECT batch_id, game_index FROM games ORDER BY 1, 2").fetchall()
    # m: pairs 0, 2, 3 whole (pair 3 holds a copy of game 0, kept with its pair); o: pair 0
    assert rows == [("m", i) for i in (0, 1, 4, 5, 6, 7)] + [("o", 0), ("o", 1)]
    table = matchup_table(con, Selection(batches=("m",)))
    a = table[table["bot"] == A].iloc[0]
    assert (a["games"], a["pairs"], list(a["ptnml"])) == (6, 3, [1, 0, 0, 1, 1])
