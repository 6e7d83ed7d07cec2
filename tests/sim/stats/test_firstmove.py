"""The first-move advantage fitted with the bots' strengths, on parquet through the reader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from sim.report import fmt
from sim.report.text import first_move_text, general_text
from sim.stats import Selection, general_stats
from sim.stats.firstmove import (
    ELO_PER_LOGIT,
    first_move,
    first_move_by,
    first_move_difference,
    first_move_from_cells,
)
from sim.stats.synthetic import rows_table, synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk


def _games(rows: list[tuple[str, str, str]], start: int = 0) -> list[dict[str, Any]]:
    return [
        dict(
            red=r,
            blue=b,
            winner=w,
            reason="den" if w != "draw" else "no_capture",
            game_index=start + i,
            pair_id=start + i,
        )
        for i, (r, b, w) in enumerate(rows)
    ]


def _read(path: Path, fun: Any) -> Any:
    ds = open_dataset(path)
    try:
        return ds.read(lambda: fun(ds.con))
    finally:
        ds.close()


def test_one_bot_on_both_sides_is_the_score_test(tmp_path: Path) -> None:
    rows = [("g", "g", "red")] * 61 + [("g", "g", "draw")] * 17 + [("g", "g", "blue")] * 42
    write_games_chunk(tmp_path, "s", rows_table(_games(rows)))
    fm, g = _read(tmp_path, lambda con: (first_move(con), general_stats(con)))
    fp = g.first_player
    assert fm.identifiable and fm.games == 120 and fm.bots == 1
    assert fm.score == pytest.approx(fp.score, abs=1e-9)
    assert fm.z == pytest.approx(fp.z, rel=1e-9)
    assert fm.p_value == pytest.approx(fp.p_value, rel=1e-9)
    assert (fm.low, fm.high) == pytest.approx((fp.low, fp.high), abs=1e-8)
    assert fm.elo == pytest.approx(ELO_PER_LOGIT * np.log(fp.score / (1 - fp.score)))


def test_unswapped_pair_is_not_identifiable(tmp_path: Path) -> None:
    rows = [("greedy", "random", "red")] * 90 + [("greedy", "random", "draw")] * 8
    rows += [("greedy", "random", "blue")] * 2
    write_games_chunk(tmp_path, "u", rows_table(_games(rows)))
    fm, g = _read(tmp_path, lambda con: (first_move(con), general_stats(con)))
    assert g.first_player.score > 0.9  # the raw figure is the bots' difference
    assert not fm.identifiable and fm.verdict == "not_identifiable"
    assert fm.p_value is None and fm.score is None and fm.elo_low is None
    assert "cannot be separated" in fm.note


def test_identification_follows_the_design() -> None:
    chain = [("A", "B", 30, 5, 10), ("B", "C", 20, 5, 20), ("D", "C", 40, 0, 5)]
    assert first_move_from_cells(chain).verdict == "not_identifiable"
    # a pairing played in both colours links the first move apart from the bots
    fm = first_move_from_cells([*chain, ("B", "A", 15, 5, 25)])
    assert fm.identifiable and fm.p_value is not None
    # so does a cycle: (A-B) + (B-C) - (A-C) leaves the first move alone
    cycle = [("A", "B", 30, 5, 10), ("B", "C", 20, 5, 20), ("A", "C", 40, 0, 5)]
    assert first_move_from_cells(cycle).identifiable


def test_colour_swapped_mix_recovers_the_first_move(tmp_path: Path) -> None:
    common: dict[str, Any] = dict(moves=False, rules="datou", first_player_elo=80.0)
    tables = [
        synthetic_table(3000, bots=("A", "B"), elo={"A": 200}, seed=1, batch_id="1", **common),
        synthetic_table(1000, bots=("B", "C"), elo={"C": -150}, seed=2, batch_id="2", **common),
        # unswapped games of a strong Red lift the raw score, not the estimate
        synthetic_table(
            2000,
            bots=("A", "C"),
            elo={"A": 200, "C": -150},
            swap=False,
            seed=3,
            batch_id="3",
            **common,
        ),  # fmt: skip
    ]
    for t in tables:
        write_games_chunk(tmp_path, t.column("batch_id")[0].as_py(), t)
    fm = _read(tmp_path, first_move)
    assert fm.identifiable and fm.verdict == "first_favoured" and fm.p_value < 1e-6
    assert fm.elo_low < 80.0 < fm.elo_high and 0 < fm.elo_low
    assert fm.low < fm.score < fm.high and fm.score > 0.5
    # swapped games with no first-move effect: no verdict
    t = synthetic_table(3000, bots=("A", "B"), elo={"A": 200}, seed=9, batch_id="n", moves=False)
    write_games_chunk(tmp_path / "none", "n", t)
    none = _read(tmp_path / "none", first_move)
    assert none.identifiable and none.elo_low < 0 < none.elo_high
    assert none.verdict == "no_evidence"


def test_estimate_is_the_maximum_likelihood_of_the_glm() -> None:
    cells = [
        ("A", "B", 50, 10, 20),
        ("B", "A", 30, 12, 40),
        ("B", "C", 44, 8, 30),
        ("C", "A", 10, 5, 50),
        ("A", "A", 20, 4, 16),
    ]
    fm = first_move_from_cells(cells)
    bots = ["A", "B", "C"]
    x = np.array([[(b == r) - (b == u) for b in bots[1:]] + [1.0] for r, u, *_ in cells], float)
    games = np.array([w + d + lo for _, _, w, d, lo in cells], float)
    y = np.array([(w + d / 2) for _, _, w, d, _ in cells]) / games
    glm = sm.GLM(y, x, family=sm.families.Binomial(), freq_weights=games).fit()
    assert fm.elo == pytest.approx(glm.params[-1] * ELO_PER_LOGIT, rel=1e-6)
    assert fm.se_elo == pytest.approx(
        glm.bse[-1] * ELO_PER_LOGIT, rel=0.15
    )  # same order as the model standard error (the draws make it smaller)


def test_by_group_and_difference(tmp_path: Path) -> None:
    common: dict[str, Any] = dict(moves=False, bots=("A", "B"), elo={"A": 100})
    a = synthetic_table(4000, rules="standard", first_player_elo=0, seed=1, batch_id="a", **common)
    b = synthetic_table(4000, rules="datou", first_player_elo=90, seed=2, batch_id="b", **common)
    write_games_chunk(tmp_path, "a", a)
    write_games_chunk(tmp_path, "b", b)
    by = _read(tmp_path, lambda con: first_move_by(con, Selection(), "rules"))
    assert set(by) == {"standard", "datou"}
    a, b = by["datou"], by["standard"]
    d = first_move_difference(a.elo, a.se_elo, b.elo, b.se_elo)
    assert d["low"] > 0 and d["p"] < 1e-3
    fm = first_move_from_cells([("A", "B", 5, 0, 5)])
    assert first_move_difference(fm.elo, fm.se_elo, b.elo, b.se_elo)["p"] is None


def test_no_games_and_all_wins() -> None:
    assert first_move_from_cells([]).verdict == "no_games"
    fm = first_move_from_cells([("A", "A", 10, 0, 0)])
    assert fm.identifiable and fm.verdict == "first_favoured" and fm.prior_draws > 0


def test_the_worked_example_of_the_docs(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[3] / "docs" / "first-move.md").read_text(encoding="utf-8")
    rows = [("A", "B", "red")] * 105 + [("A", "B", "draw")] * 18 + [("A", "B", "blue")] * 27
    rows += [("B", "A", "red")] * 10 + [("B", "A", "draw")] * 6 + [("B", "A", "blue")] * 34
    write_games_chunk(tmp_path, "w", rows_table(_games(rows)))
    g = _read(tmp_path, general_stats)
    text = general_text(g, pd.DataFrame(columns=["reason"]), 0.95).splitlines()
    for start in ("first-player score", "first-move advantage"):
        (line,) = [x for x in text if x.startswith(start)]
        assert f"\n{line}\n" in doc
    assert f"z = {fmt.num(g.first_player.z, 2)}, p < 0.001" in doc
    for cells in ([("A", "B", 105, 18, 27)], [("A", "A", 52, 16, 32)]):
        assert f"\n{first_move_text(first_move_from_cells(cells))}\n" in doc
