"""The dashboard applies each rule set's scoring rule as the statistics do: yeshou's games
that end within 10 rounds are void, left out of the figures and counted apart, and the
sidebar's "Count void games" counts them."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.i18n import text
from sim.report import fmt
from sim.stats import Selection, general_stats
from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk
from tests.support.apptest import metrics, run_app


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """Yeshou games of 20 plies (void: round 10) and 21 (round 11), standard ones of 20."""
    games = [("yeshou", 20, "red")] * 7 + [("yeshou", 21, "blue")] * 5
    games += [("standard", 20, "red")] * 4
    rows = [
        dict(rules=r, plies=p, winner=w, reason="den", red="greedy", blue="random",
             batch_id="v", game_index=i, pair_id=i)
        for i, (r, p, w) in enumerate(games)
    ]  # fmt: skip
    write_games_chunk(tmp_path, "v", rows_table(rows))
    return tmp_path


def test_overview_leaves_void_games_out_and_says_so(monkeypatch, data: Path) -> None:
    with open_dataset(data) as ds:
        g = general_stats(ds.con, Selection())
        counted = general_stats(ds.con, Selection(voids=True))
    assert (g.games, g.void, g.red.count, g.blue.count) == (9, 7, 4, 5)
    at = run_app(monkeypatch, data)
    shown = metrics(at)
    assert shown["Games played"][0] == fmt.count(g.games) == "9"
    assert shown["Red wins"][0] == fmt.count(g.red.count)
    captions = " ".join(c.value for c in at.caption)
    assert "9 of 16 games" in captions
    assert "Void games, left out of every figure: 7." in captions
    at.sidebar.checkbox(key="f_voids").check().run()
    assert not at.exception
    shown = metrics(at)
    assert shown["Games played"][0] == fmt.count(counted.games) == "16"
    assert shown["Red wins"][0] == fmt.count(counted.red.count) == "11"
    captions = " ".join(c.value for c in at.caption)
    assert "void games counted" in captions
    assert "Void games, counted as results as the sidebar asks: 7" in captions


def test_min_plies_is_a_length_filter_beside_the_scoring_rule(monkeypatch, data: Path) -> None:
    at = run_app(monkeypatch, data)
    at.sidebar.multiselect(key="f_rules").set_value(["yeshou"]).run()
    assert metrics(at)["Games played"][0] == "5"
    at.sidebar.multiselect(key="f_rules").set_value([]).run()
    at.sidebar.checkbox(key="f_min_plies").check().run()  # keeps the standard games of 20
    assert metrics(at)["Games played"][0] == "9"


def test_the_games_page_lists_a_void_game(monkeypatch, data: Path) -> None:
    """A yeshou game within 10 rounds is no result, but it is a game: the Games page lists
    it even when the selection holds nothing else (a saved Play game's own batch)."""
    write_games_chunk(
        data, "p", rows_table([dict(rules="yeshou", plies=6, winner="red", reason="den",
                                    red="greedy", blue="random", batch_id="p", game_index=0,
                                    pair_id=0)]),
    )  # fmt: skip
    at = run_app(monkeypatch, data, page="games")
    at.sidebar.multiselect(key="f_batches").set_value(["p"]).run()
    assert not at.exception
    assert text("en", "common.no_match") not in [w.value for w in at.warning]
    captions = " ".join(c.value for c in at.caption)
    assert "Void games, left out of every figure: 1." in captions
    assert len(at.dataframe) >= 1 and len(at.dataframe[0].value) == 1
