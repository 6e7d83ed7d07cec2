"""Statistics over real parquet files read through ``sim.storage.open_dataset``."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.stats as ss

from engine.errors import DsqError
from sim.stats import (
    Selection,
    bot_table,
    capture_matrix,
    capture_squares,
    den_animals,
    end_reasons,
    general_stats,
    general_stats_by,
    length_histogram,
    matchup_table,
    pentanomial_counts,
    square_grid,
)
from sim.stats.synthetic import rows_table, synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.schema import REASONS
from sim.storage.writing import write_games_chunk


def dataset(tmp: Path, batches: dict[str, Sequence[dict[str, Any]]]) -> Any:
    """Write each batch's rows as a parquet chunk and open the folder."""
    for batch_id, rows in batches.items():
        rows = [
            dict(
                r, batch_id=batch_id, game_index=r.get("game_index", i), pair_id=r.get("pair_id", i)
            )
            for i, r in enumerate(rows)
        ]
        write_games_chunk(tmp, batch_id, rows_table(rows))
    return open_dataset(tmp)


@pytest.fixture()
def small(tmp_path: Path) -> Iterator[Any]:
    rows = (
        [dict(winner="red", reason="den", plies=30, den_animal="rat")] * 5
        + [dict(winner="blue", reason="capture_all", plies=50)] * 3
        + [dict(winner="draw", reason="no_capture", plies=210)] * 2
    )
    other = [
        dict(
            rules="yeshou",
            red="greedy",
            blue="random",
            winner="blue",
            reason="den",
            plies=22,  # round 11: scores under yeshou (void_rounds=10)
            den_animal="lion",
        )
    ] * 4
    ds = dataset(tmp_path, {"b1": rows, "b2": other})
    yield ds
    ds.close()


def test_general_stats_exact_counts(small: Any) -> None:
    g = general_stats(small.con, Selection(batches=("b1",)))
    assert g.games == 10
    assert (g.red.count, g.blue.count, g.draw.count) == (5, 3, 2)
    assert g.red.rate == 0.5
    assert (g.red.low, g.red.high) == pytest.approx(
        ss.binomtest(5, 10).proportion_ci(method="wilson")
    )
    assert g.first_player.score == pytest.approx((5 + 1) / 10)
    assert g.second_player_score == pytest.approx(0.4)
    plies = np.array([30] * 5 + [50] * 3 + [210] * 2)
    assert g.length.mean == pytest.approx(plies.mean())
    assert g.length.sd == pytest.approx(plies.std(ddof=1))
    assert g.length.median == 40 and g.length.min == 30 and g.length.max == 210
    expected = {"den": 5, "capture_all": 3, "no_capture": 2}
    assert g.reasons == {r: expected.get(r, 0) for r in REASONS}  # every reason, even unseen
    assert g.to_dict()["first_player"]["wins"] == 5


def test_selection_filters(small: Any) -> None:
    con = small.con
    assert general_stats(con).games == 14
    assert general_stats(con, Selection(rules=("yeshou",))).games == 4
    assert general_stats(con, Selection(bots=("greedy",))).games == 4
    assert general_stats(con, Selection(bots=("random",))).games == 14
    assert general_stats(con, Selection(bots=("random",), colour="red")).games == 10
    assert general_stats(con, Selection(bots=("greedy",), colour="blue")).games == 0
    assert general_stats(con, Selection(bots=("greedy", "random"), between=True)).games == 14
    assert general_stats(con, Selection(bots=("greedy", "x"), between=True)).games == 0
    assert general_stats(con, Selection(bots=("random",), between=True)).games == 10  # self-play
    assert general_stats(con, Selection(min_plies=25)).games == 10  # a length filter
    assert general_stats(con, Selection(batches=("b1", "b2"), min_plies=31)).games == 5


def test_selection_values_are_parameters_not_sql(small: Any) -> None:
    evil = "standard' OR '1'='1"
    assert general_stats(small.con, Selection(rules=(evil,))).games == 0
    assert general_stats(small.con, Selection(bots=("x'); DROP VIEW games; --",))).games == 0
    assert general_stats(small.con).games == 14


def test_selection_validation() -> None:
    with pytest.raises(DsqError):
        Selection(colour="red")  # needs a bot
    with pytest.raises(DsqError):
        Selection(bots=("a",), colour="green")
    with pytest.raises(DsqError):
        Selection(min_plies=-1)
    with pytest.raises(DsqError):
        Selection(between=True)
    assert Selection(rules="standard").rules == ("standard",)


def test_empty_selection(small: Any) -> None:
    g = general_stats(small.con, Selection(rules=("datou",)))
    assert g.games == 0 and math.isnan(g.red.rate) and g.length.min is None
    assert length_histogram(small.con, Selection(rules=("datou",))).empty
    assert end_reasons(small.con, Selection(rules=("datou",)))["games"].sum() == 0
    assert general_stats_by(small.con, Selection(rules=("datou",))).empty


def test_general_stats_by(small: Any) -> None:
    by = general_stats_by(small.con, by="rules")
    assert list(by["rules"]) == ["standard", "yeshou"]
    assert list(by["games"]) == [10, 4]
    assert by.loc[1, "first_score"] == 0.0
    bb = general_stats_by(small.con, by="batch")
    assert list(bb["batch"]) == ["b1", "b2"]
    with pytest.raises(DsqError):
        general_stats_by(small.con, by="colour")


def test_histogram_and_reasons(small: Any) -> None:
    h = length_histogram(small.con, bins=5)
    assert h["games"].sum() == 14
    assert h["start"].iloc[0] == 22 and h["end"].iloc[-1] > 210
    h2 = length_histogram(small.con, bins=[0, 25, 100, 1000])
    assert list(h2["games"]) == [4, 8, 2]
    r = end_reasons(small.con).set_index("reason")
    assert list(r.index) == list(REASONS)  # every reason of the vocabulary, in its order
    assert r.loc["den", "games"] == 9 and r.loc["den", "red"] == 5 and r.loc["den", "blue"] == 4
    assert r["share"].sum() == pytest.approx(1.0)


def test_open_dataset_view_has_schema_columns(small: Any) -> None:
    cols = [c[0] for c in small.con.execute("DESCRIBE games").fetchall()]
    assert "captures" in cols and "pair_id" in cols


# ----------------------------------------------------------------------------- bots


def _pair(a: str, b: str, pair: int, w1: str, w2: str) -> list[dict[str, Any]]:
    """Two games sharing a pair id: a red in the first, b red in the second."""
    return [
        dict(
            red=a,
            blue=b,
            winner=w1,
            reason="den" if w1 != "draw" else "no_capture",
            pair_id=pair,
            game_index=2 * pair,
        ),
        dict(
            red=b,
            blue=a,
            winner=w2,
            reason="den" if w2 != "draw" else "no_capture",
            pair_id=pair,
            game_index=2 * pair + 1,
        ),
    ]


def test_matchups_and_pentanomial(tmp_path: Path) -> None:
    rows = (
        _pair("A", "B", 0, "red", "blue")  # A wins both: WW (4 half-points)
        + _pair("A", "B", 1, "red", "red")  # A wins, B wins: WL (2)
        + _pair("A", "B", 2, "draw", "blue")  # A draws, A wins: WD (3)
        + _pair("A", "B", 3, "blue", "draw")  # A loses, draw: LD (1)
        + _pair("A", "B", 4, "draw", "draw")  # DD (2)
    )
    lone = [dict(red="B", blue="A", winner="blue", reason="den", pair_id=99, game_index=99)]
    selfplay = [dict(red="A", blue="A", winner="red", reason="den", pair_id=100, game_index=100)]
    ds = dataset(tmp_path, {"m": rows + lone + selfplay})
    try:
        ptn = pentanomial_counts(ds.con)
        assert ptn[("A", "B")] == [0, 1, 2, 1, 1]
        assert ptn[("B", "A")] == [1, 1, 2, 1, 0]
        t = matchup_table(ds.con).set_index(["bot", "opponent"])
        a = t.loc[("A", "B")]
        # A: games 11 (self-play left out); wins: p0 2, p1 1, p2 1, p3 0, p4 0, lone 1 = 5
        assert (a["games"], a["wins"], a["draws"], a["losses"]) == (11, 5, 4, 2)
        assert a["score"] == pytest.approx(7 / 11)
        assert a["pairs"] == 5 and a["ptnml"] == [0, 1, 2, 1, 1]
        b = t.loc[("B", "A")]
        assert (b["wins"], b["losses"]) == (2, 5)
        assert b["elo"] == pytest.approx(-a["elo"])
        assert a["games_as_red"] == 5
        assert matchup_table(ds.con, Selection(bots=("A",)))["bot"].tolist() == ["A"]
        assert len(matchup_table(ds.con, mirror=False)) == 1
        bt = bot_table(ds.con).set_index("bot")
        assert bt.loc["A", "games"] == 11 and bt.loc["A", "opponents"] == 1
    finally:
        ds.close()


def test_pair_cut_by_min_plies_is_not_counted(tmp_path: Path) -> None:
    rows = _pair("A", "B", 0, "red", "blue")
    rows[1]["plies"] = 5
    ds = dataset(tmp_path, {"m": rows})
    try:
        assert pentanomial_counts(ds.con) == {
            ("A", "B"): [0, 0, 0, 0, 1],
            ("B", "A"): [1, 0, 0, 0, 0],
        }
        assert pentanomial_counts(ds.con, Selection(min_plies=20)) == {}
    finally:
        ds.close()


def test_bot_selection_with_synthetic_strength(tmp_path: Path) -> None:
    write_games_chunk(
        tmp_path,
        "s",
        synthetic_table(4000, bots=("strong", "weak"), elo={"strong": 150}, seed=5, batch_id="s"),
    )
    ds = open_dataset(tmp_path)
    try:
        t = matchup_table(ds.con).set_index(["bot", "opponent"])
        row = t.loc[("strong", "weak")]
        assert (
            row["elo_low"] < 150 < row["elo_high"] or abs(row["elo"] - 150) < 3 * row["elo_error"]
        )
        assert row["los"] > 0.999
        assert row["ptnml_elo"] == pytest.approx(row["elo"], abs=1e-9)  # same games, same mean
    finally:
        ds.close()


# ----------------------------------------------------------------------------- details


def test_details(tmp_path: Path) -> None:
    caps1 = [
        {"ply": 3, "capturer": 7, "captured": 13, "square": 24},  # red lion x blue leopard, d4
        {"ply": 5, "capturer": 9, "captured": 8, "square": 24},  # blue rat x red elephant
    ]
    caps2 = [{"ply": 1, "capturer": 16, "captured": 2, "square": 0}]  # blue elephant x red cat
    rows = [
        dict(winner="red", reason="den", den_animal="lion", captures=caps1),
        dict(winner="blue", reason="den", den_animal="rat", captures=caps2),
        dict(winner="blue", reason="den", den_animal="rat"),
        dict(winner="draw", reason="no_capture"),
    ]
    ds = dataset(tmp_path, {"d": rows})
    try:
        den = den_animals(ds.con).set_index("animal")
        assert den.loc["lion", "red"] == 1 and den.loc["rat", "blue"] == 2
        assert den["total"].sum() == 3 and len(den) == 8
        m = capture_matrix(ds.con)
        assert m.loc["lion", "leopard"] == 1 and m.loc["rat", "elephant"] == 1
        assert m.loc["elephant", "cat"] == 1 and m.to_numpy().sum() == 3
        assert capture_matrix(ds.con, side="red").to_numpy().sum() == 1
        sq = capture_squares(ds.con)
        assert len(sq) == 63 and sq.loc[24, "captures"] == 2 and sq.loc[24, "name"] == "d4"
        assert sq.loc[0, "name"] == "a1" and sq.loc[62, "name"] == "g9"
        assert capture_squares(ds.con, animal="elephant")["captures"].sum() == 1
        grid = square_grid(sq)
        assert grid.loc[4, "d"] == 2 and grid.loc[1, "a"] == 1 and grid.shape == (9, 7)
        with pytest.raises(DsqError):
            capture_squares(ds.con, animal="dragon")
        with pytest.raises(DsqError):
            capture_matrix(ds.con, side="green")
    finally:
        ds.close()


def test_balanced_and_biased_synthetic_datasets(tmp_path: Path) -> None:
    # perfectly balanced: equal red and blue wins -> no significant first-player advantage
    bal = (
        [dict(winner="red")] * 300
        + [dict(winner="blue")] * 300
        + [dict(winner="draw", reason="no_capture")] * 100
    )
    biased = (
        [dict(winner="red")] * 360
        + [dict(winner="blue")] * 240
        + [dict(winner="draw", reason="no_capture")] * 100
    )
    ds = dataset(tmp_path, {"bal": bal, "bias": biased})
    try:
        g = general_stats(ds.con, Selection(batches=("bal",)))
        assert g.first_player.score == 0.5 and g.first_player.p_value == 1.0
        assert g.first_player.low < 0.5 < g.first_player.high
        g = general_stats(ds.con, Selection(batches=("bias",)))
        assert g.first_player.p_value < 1e-4 and g.first_player.low > 0.5
    finally:
        ds.close()


def test_histogram_counts_match_numpy(tmp_path: Path) -> None:
    t = synthetic_table(3000, seed=3, moves=False)
    write_games_chunk(tmp_path, "h", t)
    ds = open_dataset(tmp_path)
    try:
        plies = t.column("plies").to_numpy()
        h = length_histogram(ds.con, bins=[0, 50, 100, 200, 500])
        ref, _ = np.histogram(plies, bins=[0, 50, 100, 200, 500])
        assert list(h["games"]) == list(ref)
        assert isinstance(h, pd.DataFrame)
    finally:
        ds.close()
