"""Rule comparisons and Bradley-Terry ratings against scipy/statsmodels."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
import scipy.stats as ss
import statsmodels.api as sm

from engine.errors import DsqError
from sim.stats import Selection, compare_rules, elo_from_score, ratings
from sim.stats.compare import chi_square, kruskal_counts, mann_whitney_counts
from sim.stats.synthetic import rows_table, synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk


def _counts(x: np.ndarray) -> dict[int, int]:
    return {int(k): int(v) for k, v in Counter(x.tolist()).items()}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mann_whitney_from_counts_matches_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(10, 60, 300)
    y = rng.integers(12, 70, 250)
    u, p = mann_whitney_counts(_counts(x), _counts(y))
    ref = ss.mannwhitneyu(x, y, method="asymptotic")
    assert u == pytest.approx(ref.statistic)
    assert p == pytest.approx(ref.pvalue, rel=1e-9)


def test_kruskal_and_chi_square_match_scipy() -> None:
    rng = np.random.default_rng(4)
    groups = [rng.integers(0, 30, n) for n in (100, 150, 80)]
    h, dof, p = kruskal_counts([_counts(g) for g in groups])
    ref = ss.kruskal(*groups)
    assert (h, p) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-9)
    assert dof == 2
    table = np.array([[30, 12, 0], [25, 20, 0], [5, 9, 0], [0, 0, 0]])
    stat, dof, p = chi_square(table)
    ref = ss.chi2_contingency(table[:3, :2], correction=False)
    assert (stat, dof, p) == pytest.approx((ref.statistic, ref.dof, ref.pvalue))
    assert chi_square(np.array([[1, 2]])) == (0.0, 0, 1.0)


def _write(tmp: Path, table: pa.Table, batch: str) -> None:
    write_games_chunk(tmp, batch, table)


def test_compare_rules_finds_a_real_difference_and_not_a_fake_one(tmp_path: Path) -> None:
    common = dict(bots=("alphabeta:depth=2", "random"), moves=False)
    _write(tmp_path, synthetic_table(6000, rules="standard", seed=1, batch_id="a", **common), "a")
    _write(tmp_path, synthetic_table(6000, rules="datou", seed=2, batch_id="b", **common), "b")
    _write(
        tmp_path,
        synthetic_table(
            6000,
            rules="yeshou",
            seed=3,
            batch_id="c",
            first_player_elo=60,
            draw_rate=0.3,
            mean_plies=95,
            **common,
        ),
        "c",
    )
    ds = open_dataset(tmp_path)
    try:
        c = compare_rules(ds.con, ["standard", "datou", "yeshou"])
        per = c.per_rules.set_index("rules")
        assert list(per.index) == ["standard", "datou", "yeshou"]
        assert per.loc["yeshou", "first_score"] > per.loc["standard", "first_score"]
        assert 0 <= per.loc["yeshou", "balance"] < per.loc["standard", "balance"] <= 1
        assert per.loc["standard", "completion"] == pytest.approx(
            1 - per.loc["standard", "draw_rate"]
        )
        assert per.loc["standard", "rule_draws"] + per.loc["standard", "ply_cap_draws"] == (
            pytest.approx(per.loc["standard", "draw_rate"])
        )
        pairs = c.pairs.set_index(["rules_a", "rules_b"])
        same = pairs.loc[("standard", "datou")]
        diff = pairs.loc[("standard", "yeshou")]
        assert same["first_diff_low"] < 0 < same["first_diff_high"]
        assert same["first_move_diff_low"] < 0 < same["first_move_diff_high"]
        assert diff["first_move_diff_p"] < 1e-4 and diff["first_move_diff_high"] < 0
        assert per.loc["yeshou", "first_move_low"] < 60 < per.loc["yeshou", "first_move_high"]
        assert per.loc["yeshou", "first_move_verdict"] == "first_favoured"
        assert diff["draw_diff_p"] < 1e-4 and diff["length_p"] < 1e-4
        assert c.omnibus["results_chi2"]["p"] < 1e-4
        assert not c.notes
        d = c.to_dict()
        assert d["pairs"][0]["rules_a"] == "standard"
        # specs are canonicalised; the selection's own rules filter is replaced
        c2 = compare_rules(ds.con, [" standard", "datou"], Selection(rules=("yeshou",)))
        assert c2.specs == ["standard", "datou"]
        with pytest.raises(DsqError):
            compare_rules(ds.con, ["standard", "standard"])
        with pytest.raises(DsqError):
            compare_rules(ds.con, ["standard", "nosuchrules"])
    finally:
        ds.close()


def test_compare_notes_missing_rules_and_other_bots(tmp_path: Path) -> None:
    _write(tmp_path, synthetic_table(200, rules="standard", batch_id="a", moves=False), "a")
    _write(
        tmp_path,
        synthetic_table(200, rules="datou", bots=("x", "y"), batch_id="b", moves=False),
        "b",
    )
    ds = open_dataset(tmp_path)
    try:
        c = compare_rules(ds.con, ["standard", "datou", "yeshou"])
        assert any("yeshou" in n for n in c.notes)
        assert any("same bots" in n for n in c.notes)
        assert c.per_rules.set_index("rules").loc["yeshou", "games"] == 0
    finally:
        ds.close()


def _games(rows: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
    return [
        dict(
            red=r,
            blue=b,
            winner=w,
            reason="den" if w != "draw" else "no_capture",
            game_index=i,
            pair_id=i,
        )
        for i, (r, b, w) in enumerate(rows)
    ]


def test_ratings_two_bots_equal_the_match_elo(tmp_path: Path) -> None:
    rows = (
        [("A", "B", "red")] * 30
        + [("B", "A", "red")] * 12
        + [("A", "B", "draw")] * 10
        + [("B", "A", "blue")] * 8
    )
    write_games_chunk(tmp_path, "r", rows_table(_games(rows)))
    ds = open_dataset(tmp_path)
    try:
        r = ratings(ds.con, anchor="B")
        t = r.table.set_index("bot")
        score_a = (30 + 8 + 5) / 60
        assert t.loc["A", "rating"] == pytest.approx(elo_from_score(score_a), abs=1e-6)
        assert t.loc["B", "rating"] == 0 and t.loc["A", "score"] == pytest.approx(score_a)
        m = ratings(ds.con)
        assert m.table["rating"].sum() == pytest.approx(0, abs=1e-9)
        with pytest.raises(DsqError):
            ratings(ds.con, anchor="C")
    finally:
        ds.close()


def test_ratings_match_statsmodels_glm(tmp_path: Path) -> None:
    tables = [
        synthetic_table(1500, bots=("A", "B"), elo={"A": 60}, seed=1, batch_id="1", moves=False),
        synthetic_table(1500, bots=("B", "C"), elo={"C": -80}, seed=2, batch_id="2", moves=False),
        synthetic_table(
            600,
            bots=("C", "A"),
            elo={"A": 60, "C": -80},
            seed=3,
            batch_id="3",
            moves=False,
            swap=False,
        ),
        synthetic_table(
            400, bots=("D", "A"), elo={"A": 60, "D": 10}, seed=4, batch_id="4", moves=False
        ),
    ]
    for t in tables:
        write_games_chunk(tmp_path, t.column("batch_id")[0].as_py(), t)
    ds = open_dataset(tmp_path)
    try:
        r = ratings(ds.con, anchor="A")
        df = ds.con.execute("SELECT red, blue, winner FROM games WHERE red <> blue").df()
        bots = ["A", "B", "C", "D"]
        x = np.column_stack(
            [(df.red == b).astype(float) - (df.blue == b).astype(float) for b in bots[1:]]
        )
        y = df.winner.map({"red": 1.0, "draw": 0.5, "blue": 0.0}).to_numpy()
        fit = sm.GLM(y, x, family=sm.families.Binomial()).fit(scale="X2")
        k = 400 / np.log(10)
        t = r.table.set_index("bot")
        z = ss.norm.ppf(0.975)
        for i, b in enumerate(bots[1:]):
            assert t.loc[b, "rating"] == pytest.approx(fit.params[i] * k, abs=1e-6)
            assert t.loc[b, "error"] == pytest.approx(z * fit.bse[i] * k, rel=1e-6)
        assert r.converged and not r.note
        assert list(r.table["bot"])[0] == "A"
    finally:
        ds.close()


def test_ratings_perfect_score_uses_the_prior_and_says_so(tmp_path: Path) -> None:
    rows = [("A", "B", "red")] * 5 + [("B", "A", "blue")] * 5 + [("B", "C", "draw")] * 4
    write_games_chunk(tmp_path, "p", rows_table(_games(rows)))
    ds = open_dataset(tmp_path)
    try:
        r = ratings(ds.con)
        assert "virtual draws" in r.note and r.prior_draws == 0.5
        t = r.table.set_index("bot")
        assert t.loc["A", "rating"] > t.loc["B", "rating"] and np.isfinite(t["rating"]).all()
        with pytest.raises(DsqError):
            ratings(ds.con, prior_draws=0)
        assert ratings(ds.con, Selection(bots=("C",), colour="red")).table.empty
    finally:
        ds.close()


def test_ratings_disconnected_groups_are_flagged(tmp_path: Path) -> None:
    rows = [("A", "B", "red"), ("B", "A", "red"), ("C", "D", "red"), ("D", "C", "draw")]
    write_games_chunk(tmp_path, "g", rows_table(_games(rows)))
    ds = open_dataset(tmp_path)
    try:
        r = ratings(ds.con)
        assert "groups" in r.note and len(r.components) == 2
    finally:
        ds.close()
