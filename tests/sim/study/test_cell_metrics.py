"""A study cell's balance (with its interval and a fair game's value), its count of void
games, and its first-move figure in a mixed pairing, on crafted games."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import pytest

from sim.stats.firstmove import ELO_PER_LOGIT, first_move_from_cells
from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk
from sim.study.metrics import balance, cell_metrics, fair_balance

BLUE_FIRST = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"


def _rows(batch: str, games: list[tuple[str, str, str, int]], **extra: Any) -> list[dict]:
    """Game rows of ``(red, blue, winner, count)``."""
    rows: list[dict] = []
    for red, blue, winner, count in games:
        for _ in range(count):
            reason = "den" if winner != "draw" else "no_capture"
            rows.append(
                dict(batch_id=batch, game_index=len(rows), red=red, blue=blue, winner=winner,
                     reason=reason, plies=60, **extra)
            )  # fmt: skip
    return rows


def _cell(tmp_path: Path, rows: list[dict]) -> dict[str, Any]:
    write_games_chunk(tmp_path, rows[0]["batch_id"], rows_table(rows))
    with open_dataset(tmp_path) as ds:
        return cell_metrics(ds.con, [rows[0]["batch_id"]])


def test_a_fair_games_balance_is_below_one_by_the_noise_alone() -> None:
    # exact expectation over every outcome of 4 games, each won by Red or Blue with
    # probability 0.3 each (drawn 0.4)
    n, p = 4, {"red": 0.3, "blue": 0.3, "draw": 0.4}
    exact = sum(
        math.prod(p[w] for w in games) * (1 - abs(games.count("red") - games.count("blue")) / n)
        for games in itertools.product(p, repeat=n)
    )
    assert fair_balance(n, 0.6) == pytest.approx(exact, rel=1e-12)
    assert fair_balance(1600, 1.0) == pytest.approx(1 - math.sqrt(2 / (math.pi * 1600)), abs=1e-4)
    assert fair_balance(1600, 1.0) < 0.981
    assert fair_balance(50, 0.0) == 1.0  # every game drawn: balanced by construction


def test_balance_has_the_multinomial_interval() -> None:
    b = balance(800, 800, 1600)
    assert b["value"] == 1.0 and b["high"] == 1.0 and b["diff"] == 0.0
    half = 1.959964 * math.sqrt(1.0 / 1600)
    assert (b["diff_low"], b["diff_high"]) == (pytest.approx(-half), pytest.approx(half))
    assert b["low"] == pytest.approx(1 - half) and b["low"] < b["fair_value"] < 1.0
    lop = balance(700, 300, 1000)  # diff 0.4, variance (1 - 0.16) / 1000
    half = 1.959964 * math.sqrt(0.84 / 1000)
    assert lop["value"] == pytest.approx(0.6)
    assert (lop["low"], lop["high"]) == (pytest.approx(0.6 - half), pytest.approx(0.6 + half))


def test_the_cell_reports_balance_with_its_interval(tmp_path: Path) -> None:
    m = _cell(tmp_path, _rows("b", [("A", "A", "red", 45), ("A", "A", "blue", 35),
                                    ("A", "A", "draw", 20)]))  # fmt: skip
    b = m["balance"]
    assert b["value"] == pytest.approx(0.9) and b["diff"] == pytest.approx(0.1)
    assert b["low"] < 0.9 < b["high"] == 1.0  # the interval of the difference holds 0
    assert b["fair_value"] == pytest.approx(fair_balance(100, 0.8))


def test_void_games_are_counted(tmp_path: Path) -> None:
    # yeshou's void rule: a game over within 10 rounds (20 plies) does not score
    rows = _rows("v", [("A", "A", "red", 6), ("A", "A", "blue", 4)], rules="yeshou")
    for r in rows[:3]:
        r["plies"] = 20  # void
    rows[3]["plies"] = 21  # not void
    m = _cell(tmp_path, rows)
    assert m["void_games"] == 3 and m["games"] == 7
    assert m["completion"]["count"] == 7
    every = _rows("w", [("A", "A", "red", 2)], rules="yeshou")
    for r in every:
        r["plies"] = 9
    assert _cell(tmp_path, every) == {"games": 0, "void_games": 2}


@pytest.mark.parametrize("fen", [None, BLUE_FIRST], ids=["red-first", "blue-first"])
def test_a_mixed_cells_first_move_is_fitted_with_the_bots(tmp_path: Path, fen: str | None) -> None:
    # A much stronger than B, colours swapped: A scores 0.9 moving first, 0.6 moving second
    first, second = ("A", "B"), ("B", "A")
    if fen is not None:  # Blue moves first: the first mover plays Blue
        first, second = ("B", "A"), ("A", "B")
    win_first = "red" if fen is None else "blue"
    win_second = "blue" if fen is None else "red"
    games = [
        (*first, win_first, 90), (*first, win_second, 10),
        (*second, win_first, 40), (*second, win_second, 60),
    ]  # fmt: skip
    m = _cell(tmp_path, _rows("m", games, start_fen=fen))
    joint = first_move_from_cells([("A", "B", 90, 0, 10), ("B", "A", 40, 0, 60)])
    h = (math.log(90 / 10) + math.log(40 / 60)) / 2 * ELO_PER_LOGIT  # the saturated fit
    diluted = math.log(130 / 70) * ELO_PER_LOGIT  # the logit of the first mover's points
    fm = m["first_move_elo"]
    assert fm["value"] == pytest.approx(joint.elo) == pytest.approx(h)
    assert abs(fm["value"] - diluted) > 40
    assert fm["low"] < h < fm["high"]
    assert m["first_player_score"]["value"] == pytest.approx(130 / 200)
