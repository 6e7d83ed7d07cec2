"""The study figures of the search scores on a crafted set of games, by hand: per game,
then through a dataset's ``games`` view (cell_metrics), the report's text and CSV."""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path

import pytest

from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk
from sim.study.metrics import METRICS, cell_metrics
from sim.study.report import cells_frame, report_text
from sim.study.score_metrics import (
    SCORE_METRICS,
    decisiveness_threshold,
    lead_change,
    score_metrics,
    swing,
)

# (scores, winner, plies): a game Blue won, a draw, one with no scored ply, one with NULL
G1 = ([None, 0.5, 0.2, -0.1, 0.0, -0.4], "blue", 6)
G2 = ([0.1, -0.3, 0.6, None], "draw", 4)
G3 = ([None, None], "red", 2)
G4 = (None, "red", 10)
GAMES = [G1, G2, G3, G4]


def test_each_game_by_hand() -> None:
    # G1: one side scored 0.2, 0.0 (a tie, skipped), the other 0.5, -0.1, -0.4: one change
    # in that side's two pairs
    assert lead_change(G1[0]) == pytest.approx(1 / 2)
    assert lead_change(G2[0]) == pytest.approx(0.0)  # 0.1 then 0.6; -0.3 alone
    assert lead_change(G3[0]) is None and lead_change([0.0, 0.3, 0.0, None, 0.4]) is None
    # G1's second side moves -0.6 then -0.3: one way; the first side has one change only
    assert swing(G1[0]) == pytest.approx(0.0)
    assert swing(G2[0]) is None and swing([0.3]) is None
    # one side: 0.1, 0.4 (up), 0.2 (down), 0.2 (no change, skipped), 0.5 (up): 2 reversals
    # in 2 pairs; the other: -0.1, -0.2, -0.3 (down, down): 0 in 1
    assert swing([0.1, -0.1, 0.4, -0.2, 0.2, -0.3, 0.2, None, 0.5]) == pytest.approx(2 / 3)
    assert decisiveness_threshold(G1[0], "blue") == pytest.approx(0.5)  # Red's best, lost
    assert decisiveness_threshold(G1[0], "red") == pytest.approx(0.4)  # Blue's best, lost
    assert decisiveness_threshold(G2[0], "draw") == pytest.approx(0.6)  # both count
    assert decisiveness_threshold(G3[0], "red") is None


def _check_cell(m: dict) -> None:
    assert m["lead_change"]["value"] == pytest.approx(1 / 4)
    assert m["lead_change"]["games"] == 2
    assert m["lead_change"]["low"] < 1 / 4 < m["lead_change"]["high"]
    assert m["swing"] == {"value": 0.0, "games": 1}
    d = m["decisiveness_threshold"]
    assert d["value"] == pytest.approx(0.55) and d["median"] == pytest.approx(0.55)
    assert (d["q1"], d["q3"]) == (pytest.approx(0.525), pytest.approx(0.575))
    assert m["scored_share"]["value"] == pytest.approx(8 / 22)
    assert (m["scored_share"]["count"], m["scored_share"]["plies"]) == (8, 22)


def test_a_cell_by_hand() -> None:
    _check_cell(score_metrics([(s, w) for s, w, _ in GAMES], plies=22))
    empty = score_metrics([(None, "red"), ([None], "draw")], plies=30)
    assert empty == {name: {"value": None} for name in SCORE_METRICS}
    assert set(SCORE_METRICS) <= set(METRICS)  # the Studies page's chooser lists them


def test_through_the_games_view_and_the_report(tmp_path: Path) -> None:
    rows = [
        dict(batch_id="scored", game_index=i, scores=s, winner=w, plies=p)
        for i, (s, w, p) in enumerate(GAMES)
    ]
    write_games_chunk(tmp_path, "scored", rows_table(rows))
    write_games_chunk(tmp_path, "plain", rows_table([dict(batch_id="plain", plies=9)]))
    with open_dataset(tmp_path) as ds:
        scored = cell_metrics(ds.con, ["scored"])
        plain = cell_metrics(ds.con, ["plain"])
    _check_cell(scored)
    assert all(plain[name]["value"] is None for name in SCORE_METRICS)
    cells = [
        {"cell": i, "rules": "standard", "pairing": p, "bots": ["a", "b"], "batches": [p], **m}
        for i, (p, m) in enumerate([("scored", scored), ("plain", plain)])
    ]
    rep = {"study": "s", "title": "t", "data": str(tmp_path), "cells": cells, "ladder": []}
    lines = report_text(rep).splitlines()
    header = lines[2].split()
    assert header[-5:] == ["lead", "chg", "swing", "decisive", "scored"]
    assert lines[3].split()[-4:] == ["0.250", "0.000", "0.550", "36.4%"]
    assert lines[4].split()[-4:] == ["-"] * 4
    frame = cells_frame(rep)
    assert frame.loc[0, "lead_change"] == pytest.approx(1 / 4)
    assert frame["swing"].isna().tolist() == [False, True]


def _old_lead_change(scores: list[float]) -> float:
    """The former definition: the leader compared between consecutive plies (two sides)."""
    signs = [x > 0 for x in scores if x != 0]
    return sum(a != b for a, b in zip(signs, signs[1:], strict=False)) / (len(signs) - 1)


def test_two_searchers_disagreeing_is_no_lead_change() -> None:
    # Red's searcher sees Red a little ahead, Blue's sees Blue a little ahead, ply after
    # ply: neither side's view of the leader ever changes.
    disagree = [0.12, -0.13, 0.12, -0.15, 0.14, -0.12, 0.13, -0.14]
    assert _old_lead_change(disagree) == 1.0  # every ply "changed the lead"
    assert lead_change(disagree) == 0.0
    # Both sides see Red's lead turn into Blue's once: one change in each side's 3 pairs.
    turn = [0.3, 0.2, 0.1, 0.1, -0.1, -0.2, -0.3, -0.4]
    assert lead_change(turn) == pytest.approx(2 / 6)


def test_a_steady_win_has_no_swing_whatever_the_scale() -> None:
    climb = [i / 20 for i in range(21)]  # Red's score rising steadily from 0 to 1
    assert statistics.pvariance(climb) > 0.09  # the former "stability" called it unsteady
    assert swing(climb) == 0.0
    rng = random.Random(5)
    walk = [0.0]
    for _ in range(200):
        walk.append(walk[-1] + rng.gauss(0.0, 0.05))
    squashed = [math.tanh(3 * x) for x in walk]  # the same game on another evaluation scale
    assert statistics.pvariance(squashed) != pytest.approx(statistics.pvariance(walk), rel=0.1)
    assert swing(squashed) == swing(walk)
    reversals = swing(walk)
    assert reversals is not None and 0.35 < reversals < 0.65  # about half, as a random walk
