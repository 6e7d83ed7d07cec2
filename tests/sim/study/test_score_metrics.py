"""The study figures of the search scores on a crafted set of games, by hand: per game,
then through a dataset's ``games`` view (cell_metrics), the report's text and CSV."""

from __future__ import annotations

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
    stability,
)

# (scores, winner, plies): a game Blue won, a draw, one with no scored ply, one with NULL
G1 = ([None, 0.5, 0.2, -0.1, 0.0, -0.4], "blue", 6)
G2 = ([0.1, -0.3, 0.6, None], "draw", 4)
G3 = ([None, None], "red", 2)
G4 = (None, "red", 10)
GAMES = [G1, G2, G3, G4]


def test_each_game_by_hand() -> None:
    # G1: leaders + + - (0 is a tie, skipped) -: one change in three
    assert lead_change(G1[0]) == pytest.approx(1 / 3)
    assert lead_change(G2[0]) == pytest.approx(1.0)  # + - +
    assert lead_change(G3[0]) is None and lead_change([0.0, 0.3]) is None
    # variance of 0.5, 0.2, -0.1, 0, -0.4: mean 0.04, mean square 0.092
    assert stability(G1[0]) == pytest.approx(0.092 - 0.04**2)
    assert stability(G2[0]) == pytest.approx(0.46 / 3 - (0.4 / 3) ** 2)
    assert stability([0.3]) is None
    assert decisiveness_threshold(G1[0], "blue") == pytest.approx(0.5)  # Red's best, lost
    assert decisiveness_threshold(G1[0], "red") == pytest.approx(0.4)  # Blue's best, lost
    assert decisiveness_threshold(G2[0], "draw") == pytest.approx(0.6)  # both count
    assert decisiveness_threshold(G3[0], "red") is None


def _check_cell(m: dict) -> None:
    assert m["lead_change"]["value"] == pytest.approx(2 / 3)
    assert m["lead_change"]["games"] == 2
    assert m["lead_change"]["low"] < 2 / 3 < m["lead_change"]["high"]
    assert m["stability"]["value"] == pytest.approx((0.0904 + 0.46 / 3 - (0.4 / 3) ** 2) / 2)
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
    assert header[-5:] == ["lead", "chg", "stability", "decisive", "scored"]
    assert lines[3].split()[-4:] == ["0.667", "0.113", "0.550", "36.4%"]
    assert lines[4].split()[-4:] == ["-"] * 4
    frame = cells_frame(rep)
    assert frame.loc[0, "lead_change"] == pytest.approx(2 / 3)
    assert frame["stability"].isna().tolist() == [False, True]
