"""Holm's correction, the one of the studies and of a rules comparison's pairwise tests."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sim.stats.compare import PAIR_TESTS, compare_rules, correct_pairs
from sim.stats.multiplicity import holm
from sim.stats.query import Selection
from sim.storage.reading import open_dataset


def test_holm_is_the_step_down_correction_and_skips_missing_p_values():
    tests = [{"p": 0.01}, {"p": 0.04}, {"p": 0.03}, {"p": 0.005}, {"p": None}, {"p": math.nan}]
    holm(tests, alpha=0.05)
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, then running maxima
    assert [t["p_holm"] for t in tests[:4]] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [t["significant"] for t in tests] == [True, False, False, True, False, False]
    assert tests[4]["p_holm"] is None and tests[5]["p_holm"] is None


def test_the_pairwise_tests_are_one_family_judged_at_the_level_chosen():
    pairs = pd.DataFrame({"first_move_diff_p": [0.004, None], "draw_diff_p": [0.02, 0.5],
                          "length_p": [0.9, 0.012], "reasons_p": [0.001, math.nan]})  # fmt: skip
    at_95, tests = correct_pairs(pairs, 0.05)
    assert tests == 6
    # 6 p-values: 0.001*6, 0.004*5, 0.012*4, 0.02*3, 0.5*2, 0.9*1
    assert at_95["reasons_p_holm"][0] == pytest.approx(0.006)
    assert at_95["first_move_diff_p_holm"][0] == pytest.approx(0.02)
    assert at_95["length_p_holm"][1] == pytest.approx(0.048)
    assert at_95["draw_diff_p_holm"][0] == pytest.approx(0.06)
    assert list(at_95["length_significant"]) == [False, True]
    assert list(at_95["draw_diff_significant"]) == [False, False]  # 0.02 alone would be
    at_99, _ = correct_pairs(pairs, 0.01)
    assert list(at_99["reasons_significant"]) == [True, False]
    assert list(at_99["length_significant"]) == [False, False]
    assert math.isnan(at_99["first_move_diff_p_holm"][1])


def test_compare_rules_corrects_its_pairs_at_its_confidence(fixture_data):
    with open_dataset(fixture_data) as ds:
        specs = ["standard", "datou", "yeshou"]
        loose = compare_rules(ds.con, specs, Selection(), confidence=0.8)
        strict = compare_rules(ds.con, specs, Selection(), confidence=0.99)
    assert loose.tests == strict.tests == 4 * len(loose.pairs) == 12
    for test in PAIR_TESTS:
        name = test.removesuffix("_p") + "_significant"
        for cmp, alpha in ((loose, 0.2), (strict, 0.01)):
            adjusted = cmp.pairs[f"{test}_holm"]
            assert (adjusted >= cmp.pairs[test] - 1e-12).all()
            assert list(cmp.pairs[name]) == [bool(p < alpha) for p in adjusted]
    assert loose.to_dict()["tests"] == 12
