"""The number formatters every figure of ``dsq stats`` and the dashboard goes through."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.report import fmt

NAN = float("nan")
INF = float("inf")
MISSING_VALUES = [None, NAN, np.float64("nan"), np.float32("nan"), pd.NA, pd.NaT]


@pytest.mark.parametrize("x", MISSING_VALUES)
def test_every_formatter_writes_a_dash_for_missing(x: object) -> None:
    assert fmt.is_missing(x)
    for f in (fmt.count, fmt.num, fmt.signed, fmt.pct, fmt.pts, fmt.p_text):
        assert f(x) == "-", f
    assert fmt.p_value(x) == "p = -"
    assert fmt.interval(x, 0.5) == fmt.interval(0.5, x) == "-"
    assert fmt.pct_interval(x, 0.5) == "95% CI -"
    assert fmt.num_interval(0.5, x) == "95% CI -"
    assert fmt.pts_interval(x, x) == "95% CI -"
    assert fmt.plus_minus(x, 3.0) == "-"


@pytest.mark.parametrize("x", [0, 0.0, -1, 3.5, np.int64(7), np.float32(0.25), "text", True])
def test_values_are_not_missing(x: object) -> None:
    assert not fmt.is_missing(x)


def test_counts() -> None:
    assert fmt.count(0) == "0"
    assert fmt.count(1234567) == "1,234,567"
    assert fmt.count(np.int64(-12345)) == "-12,345"
    assert fmt.count(10**20 + 1) == "100,000,000,000,000,000,001"  # exact, never via float
    assert fmt.count(3.0) == "3" and fmt.count(np.float64(1000.0)) == "1,000"
    assert fmt.count(INF) == "inf" and fmt.count(-INF) == "-inf"
    assert fmt.count("n/a") == "n/a"


def test_numbers() -> None:
    assert fmt.num(337.14) == "337.1"
    assert fmt.num(1234.56) == "1,234.6"
    assert fmt.num(-1234567.891, 2) == "-1,234,567.89"
    assert fmt.num(0.5234, 3) == "0.523"
    assert fmt.num(298.0, 0) == "298"
    assert fmt.num(INF) == "inf" and fmt.num(-INF) == "-inf"
    assert fmt.num(np.float64(2.25), 1) == "2.2"  # round half to even, as Python does
    assert fmt.num("greedy") == "greedy"


def test_signed_numbers_and_points() -> None:
    assert fmt.signed(3.21) == "+3.2" and fmt.signed(-1.0) == "-1.0"
    assert fmt.signed(0) == "+0.0" and fmt.signed(1012.7) == "+1,012.7"
    assert fmt.signed(3.21, 1, " pts") == "+3.2 pts"
    assert fmt.signed(INF) == "+inf" and fmt.signed(-INF, 0) == "-inf"
    assert fmt.pts(0.032) == "+3.2" and fmt.pts(-0.075) == "-7.5"
    assert fmt.pts(0.032, 1, " pts") == "+3.2 pts" and fmt.pts(None, 1, " pts") == "-"


def test_percentages() -> None:
    assert fmt.pct(0.52345) == "52.3%"
    assert fmt.pct(0.0) == "0.0%" and fmt.pct(1) == "100.0%"
    assert fmt.pct(-0.031, 2) == "-3.10%"
    assert fmt.pct(12.5) == "1,250.0%"
    assert fmt.pct(0.5, 0) == "50%"
    assert fmt.pct(INF) == "inf%"


def test_intervals() -> None:
    assert fmt.interval(0.1, 0.25) == "[10.0%, 25.0%]"
    assert fmt.interval(331.39, 342.72, fmt.num) == "[331.4, 342.7]"
    assert fmt.interval(-0.021, 0.044, fmt.signed, 3) == "[-0.021, +0.044]"
    assert fmt.interval(-0.018, 0.032, fmt.pts) == "[-1.8, +3.2]"
    assert fmt.interval(452.4, INF, fmt.num) == "[452.4, inf]"
    assert fmt.interval(1.0, 2345.67, fmt.num) == "[1.0, 2,345.7]"
    assert fmt.pct_interval(0.1, 0.25) == "95% CI [10.0%, 25.0%]"
    assert fmt.pct_interval(0.1, 0.25, 0, confidence=0.99) == "99% CI [10%, 25%]"
    assert fmt.num_interval(1.0, 2345.67) == "95% CI [1.0, 2,345.7]"
    assert fmt.pts_interval(-0.018, 0.032) == "95% CI [-1.8, +3.2] pts"


@pytest.mark.parametrize(
    "confidence,label", [(0.95, "95% CI"), (0.9, "90% CI"), (0.99, "99% CI"), (0.999, "99.9% CI")]
)
def test_confidence_labels(confidence: float, label: str) -> None:
    assert fmt.ci_label(confidence) == label
    assert fmt.level(confidence) == label.removesuffix(" CI")


def test_p_values() -> None:
    assert fmt.p_value(0.25) == "p = 0.250" and fmt.p_text(0.25) == "0.250"
    assert fmt.p_value(0.0313) == "p = 0.031"
    assert fmt.p_value(0.001) == "p = 0.001"
    assert fmt.p_value(0.00099) == "p < 0.001" and fmt.p_text(1e-12) == "<0.001"
    assert fmt.p_value(0.0) == "p < 0.001"
    assert fmt.p_value(1.0) == "p = 1.000"
    assert fmt.p_text(np.float64(0.5)) == "0.500"


def test_estimates_with_errors_and_records() -> None:
    assert fmt.plus_minus(544.7, 71.4) == "+544.7 ± 71.4"
    assert fmt.plus_minus(12.0, NAN) == "+12.0 ± -"
    assert fmt.plus_minus(np.float64(3.14159), 0.5, 0) == "+3 ± 0"
    assert fmt.signed(-0.0) == "-0.0"  # the statistics give +0.0 for an even score
    assert fmt.wdl(1079, 90, 31) == "1,079-90-31"
    assert fmt.wdl(np.int64(2), 0, 1234, " / ") == "2 / 0 / 1,234"


def test_an_elo_is_never_written_inf() -> None:
    # a normal interval: cutechess's symmetric error
    assert fmt.elo(12.34, 5.06, 7.1, 17.5) == "+12.3 ± 5.1"
    # an asymmetric interval (no error): its bounds
    assert fmt.elo(668.84, NAN, 466.66, 846.2) == "+668.8 [+466.7, +846.2]"
    assert fmt.elo(-668.84, None, -846.2, -466.66, 0) == "-669 [-846, -467]"
    # a sweep: infinite point, open interval: the finite bound alone
    assert fmt.elo(INF, INF, 597.87, INF) == "> +597.9"
    assert fmt.elo(-INF, INF, -INF, -597.87) == "< -597.9"
    # a finite point with an open end (not produced by the statistics, still no inf)
    assert fmt.elo(700.0, INF, 530.5, INF) == "+700.0 (> +530.5)"
    assert fmt.elo(NAN, NAN, NAN, NAN) == fmt.elo(None, 1, 2, 3) == "-"
    assert fmt.elo(INF, INF, INF, INF) == "-"
    assert fmt.elo_estimate(None) == "-"


def test_the_convention_is_plain_ascii() -> None:
    values = [None, NAN, INF, -INF, -0.5, 0, 0.031, 12345.678, 10**9]
    written = [f(x) for x in values for f in (fmt.count, fmt.num, fmt.signed, fmt.pct, fmt.pts)]
    written += [fmt.p_value(x) for x in values] + [fmt.pct_interval(-INF, x) for x in values]
    assert all(w.isascii() for w in written), [w for w in written if not w.isascii()]
