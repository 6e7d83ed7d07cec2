"""Intervals, tests and Elo formulas against known values and scipy/statsmodels."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import scipy.stats as ss
from statsmodels.stats.proportion import proportion_confint

from engine.errors import DsqError
from sim.stats.elo import elo_from_score, los, match_score, pentanomial, score_from_elo
from sim.stats.intervals import (
    mean_interval,
    newcombe_difference,
    proportion,
    score_interval,
    sign_test,
    two_proportion_p,
    wilson,
    z_value,
)

# cutechess's phiInv(0.975) with its approximate inverse erf (a = 8(pi-3)/(3 pi (4-pi))).
CUTECHESS_Z = 1.9571619316560245
CUTECHESS_CONFIDENCE = 2 * ss.norm.cdf(CUTECHESS_Z) - 1


def test_wilson_seven_of_ten() -> None:
    lo, hi = wilson(7, 10)
    assert round(lo, 3) == 0.397
    assert round(hi, 3) == 0.892


@pytest.mark.parametrize("k,n", [(0, 1), (0, 10), (3, 10), (10, 10), (512, 1000), (1, 100000)])
@pytest.mark.parametrize("conf", [0.9, 0.95, 0.99])
def test_wilson_matches_statsmodels(k: int, n: int, conf: float) -> None:
    lo, hi = wilson(k, n, conf)
    slo, shi = proportion_confint(k, n, alpha=1 - conf, method="wilson")
    assert lo == pytest.approx(slo, abs=1e-12)
    assert hi == pytest.approx(shi, abs=1e-12)


def test_wilson_empty_and_proportion() -> None:
    assert all(math.isnan(x) for x in wilson(0, 0))
    p = proportion(7, 10)
    assert (p.count, p.n, p.rate) == (7, 10, 0.7)
    assert p.to_dict()["low"] == pytest.approx(0.3968, abs=1e-4)


def test_z_value() -> None:
    assert z_value(0.95) == pytest.approx(1.959963984540054)
    with pytest.raises(DsqError):
        z_value(1.5)


def test_score_interval_without_draws_is_wilson() -> None:
    for w, lo_ in [(7, 3), (0, 10), (10, 0), (55, 45)]:
        assert score_interval(w, 0, lo_) == pytest.approx(wilson(w, w + lo_))


def test_score_interval_with_draws_is_narrower_and_consistent_with_test() -> None:
    lo1, hi1 = score_interval(30, 0, 20)
    lo2, hi2 = score_interval(30, 40, 20)  # same W-L, many draws: score closer to 0.5
    assert lo1 < 0.6 < hi1
    s2 = (30 + 20) / 90
    assert lo2 < s2 < hi2
    # the interval excludes 0.5 exactly when the score test rejects at 5%
    for w, d, lo_ in [(60, 10, 40), (58, 30, 42), (540, 100, 460), (30, 500, 10)]:
        lo, hi = score_interval(w, d, lo_)
        _, p, _ = sign_test(w, lo_)
        assert (lo > 0.5 or hi < 0.5) == (p < 0.05)


def test_score_interval_all_draws_and_all_wins() -> None:
    # All draws: no decided game seen is not none possible (rule of three): an interval
    # around 0.5 that narrows as the draws grow, never a point.
    lo10, hi10 = score_interval(0, 10, 0)
    lo400, hi400 = score_interval(0, 400, 0)
    assert lo10 < lo400 < 0.5 < hi400 < hi10
    assert 0.5 - lo400 == pytest.approx(hi400 - 0.5)
    # 400 draws: a decided share up to z^2 / (n + z^2) = 0.95%, so about +-0.48%
    assert 0.004 < hi400 - 0.5 < 0.006
    lo, hi = score_interval(10, 0, 0)
    assert hi == 1.0 and 0.6 < lo < 0.8  # never collapses to a point


def test_sign_test_against_scipy() -> None:
    for w, lo_ in [(10, 3), (3, 10), (50, 50), (0, 7), (1038, 1037)]:
        z, p, p_exact = sign_test(w, lo_)
        assert z == pytest.approx((w - lo_) / math.sqrt(w + lo_))
        assert p_exact == pytest.approx(ss.binomtest(w, w + lo_, 0.5).pvalue, rel=1e-9)
        assert p == pytest.approx(2 * ss.norm.sf(abs(z)))
    assert sign_test(0, 0) == (0.0, 1.0, 1.0)


def test_mean_interval_against_scipy() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(80, 20, 57)
    lo, hi = mean_interval(float(x.mean()), float(x.std(ddof=1)), len(x))
    slo, shi = ss.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=ss.sem(x))
    assert (lo, hi) == pytest.approx((slo, shi))
    assert all(math.isnan(v) for v in mean_interval(5.0, math.nan, 1))


def test_newcombe_and_two_proportion() -> None:
    d, lo, hi = newcombe_difference(56, 70, 48, 80)
    # Newcombe (1998) example 1 (method 10): 0.2 -> [0.0524, 0.3339]
    assert d == pytest.approx(0.2)
    assert (lo, hi) == pytest.approx((0.0524, 0.3339), abs=5e-4)
    chi2, p, _, _ = ss.chi2_contingency([[56, 14], [48, 32]], correction=False)
    assert two_proportion_p(56, 70, 48, 80) == pytest.approx(p)


# ----------------------------------------------------------------------------- Elo


def test_cutechess_example() -> None:
    m = match_score(1038, 1925, 1037)
    assert f"{m.elo:.1f}" == "0.1"
    assert f"{100 * m.los:.1f}" == "50.9"
    assert f"{100 * m.draw_ratio:.1f}" == "48.1"
    # exact normal quantile: 7.76; cutechess's approximate quantile prints 7.7
    assert m.elo_error == pytest.approx(7.756, abs=1e-3)
    mc = match_score(1038, 1925, 1037, confidence=CUTECHESS_CONFIDENCE)
    assert f"{mc.elo_error:.1f}" == "7.7"


@pytest.mark.parametrize(
    "w,d,l,elo,err,los_",
    [
        # real cutechess-cli outputs ("Score of X vs Y: W - L - D", "Elo difference: ...")
        (99, 104, 97, "2.3", "31.8", "55.7"),
        (45, 18, 37, "27.9", "62.4", "81.2"),
    ],
)
def test_cutechess_outputs(w: int, d: int, l: int, elo: str, err: str, los_: str) -> None:
    m = match_score(w, d, l, confidence=CUTECHESS_CONFIDENCE)
    assert f"{m.elo:.1f}" == elo
    assert f"{m.elo_error:.1f}" == err
    assert f"{100 * m.los:.1f}" == los_


def test_elo_score_roundtrip_and_limits() -> None:
    for e in (-400.0, -35.5, 0.0, 12.0, 700.0):
        assert elo_from_score(score_from_elo(e)) == pytest.approx(e)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert los(0, 0) == 0.5
    m = match_score(10, 0, 0)
    assert m.elo == math.inf and m.los > 0.99


def test_a_near_sweep_has_a_finite_asymmetric_wilson_interval() -> None:
    # 117-1-2: the normal interval passes 1 (cutechess would say +668.8 +/- inf).
    m = match_score(117, 1, 2)
    e = m.logistic()
    assert e.kind == "logistic" and f"{e.point:.1f}" == "668.8"
    assert math.isnan(e.error) and not (e.low_open or e.high_open)
    assert 400 < e.low < e.point < e.high < 1000 and e.high - e.point != e.point - e.low
    # Wilson's with the observed spread: both score bounds solve n (mu - p)^2 = z^2 V(p).
    n, mu, z = 120, 117.5 / 120, z_value(0.95)
    k = mu * (1 - mu) - ((117 + 0.25) / n - mu * mu)
    for s in (score_from_elo(e.low), score_from_elo(e.high)):
        assert n * (mu - s) ** 2 == pytest.approx(z * z * (s * (1 - s) - k), rel=1e-9)
    # more losses: a lower interval, never above the sweep's
    assert match_score(119, 0, 1).elo_low < match_score(120, 0, 0).elo_low


def test_a_sweep_is_bounded_below_only() -> None:
    m = match_score(120, 0, 0)
    e = m.logistic()
    assert e.point == math.inf and e.high_open and not e.low_open
    z = z_value(0.95)
    assert score_from_elo(e.low) == pytest.approx(120 / (120 + z * z))
    d = e.to_dict()
    assert (d["point"], d["high"], d["error"], d["high_open"]) == (None, None, None, True)
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    lost = match_score(0, 0, 120).logistic()
    assert lost.low_open and lost.high == pytest.approx(-e.low)
    p = pentanomial([0, 0, 0, 0, 60]).logistic()  # by pairs: Wilson over 60 pairs
    assert p.high_open and score_from_elo(p.low) == pytest.approx(60 / (60 + z * z))


def test_an_even_match_keeps_the_cutechess_interval() -> None:
    m = match_score(50, 20, 50)
    e = m.logistic()
    assert e.point == 0.0 and str(e.point) == "0.0"  # not -0.0
    assert e.error == pytest.approx((e.high - e.low) / 2) and e.error == m.elo_error
    assert f"{e.error:.1f}" == "57.3"
    assert m.normalized().kind == "normalized" and m.normalized().point == 0.0


def test_match_score_is_antisymmetric() -> None:
    a, b = match_score(60, 25, 40), match_score(40, 25, 60)
    assert a.elo == pytest.approx(-b.elo)
    assert a.elo_error == pytest.approx(b.elo_error)
    assert a.los == pytest.approx(1 - b.los)
    assert a.nelo == pytest.approx(-b.nelo)


def test_match_score_rejects_bad_counts() -> None:
    with pytest.raises(DsqError):
        match_score(-1, 0, 3)


def _pentanomial_reference(counts: list[int]) -> tuple[float, float, float]:
    values = np.array([0, 0.25, 0.5, 0.75, 1.0])
    c = np.array(counts, dtype=float)
    n = c.sum()
    mu = (values * c).sum() / n
    var = (c * (values - mu) ** 2).sum() / n
    z = ss.norm.ppf(0.975)
    f = lambda s: -400 * np.log10(1 / s - 1)  # noqa: E731
    err = (f(mu + z * np.sqrt(var / n)) - f(mu - z * np.sqrt(var / n))) / 2
    nelo = (mu - 0.5) / np.sqrt(2 * var) * 800 / np.log(10)
    return f(mu), err, nelo


@pytest.mark.parametrize(
    "counts", [[10, 50, 200, 60, 12], [0, 3, 10, 4, 1], [100, 0, 0, 0, 120], [5, 5, 5, 5, 5]]
)
def test_pentanomial_against_reference(counts: list[int]) -> None:
    p = pentanomial(counts)
    elo, err, nelo = _pentanomial_reference(counts)
    assert p.elo == pytest.approx(elo)
    assert p.elo_error == pytest.approx(err)
    assert p.nelo == pytest.approx(nelo)
    assert p.pairs == sum(counts) and p.games == 2 * sum(counts)
    assert p.nelo_low < p.nelo < p.nelo_high
    mirrored = pentanomial(counts[::-1])
    assert mirrored.elo == pytest.approx(-p.elo)


def test_pentanomial_degenerate() -> None:
    p = pentanomial([0, 0, 7, 0, 0])
    assert p.elo == 0.0 and p.los == 0.5 and math.isnan(p.nelo)
    with pytest.raises(DsqError):
        pentanomial([1, 2, 3])


def test_a_match_or_first_move_of_only_draws_has_an_interval() -> None:
    """400 draws (or 20 pairs all split 1-1): the Elo interval is a few Elo wide, not
    +-0.0, and the first-move fit says the same as the score interval."""
    from sim.stats.elo import match_score, pentanomial
    from sim.stats.firstmove import first_move_from_cells

    draws = match_score(0, 400, 0).logistic()
    pairs = pentanomial([0, 0, 20, 0, 0]).logistic()
    fm = first_move_from_cells([("a", "a", 0, 400, 0)])
    assert draws.point == 0.0 and 2.0 < draws.high < 5.0
    assert draws.low == pytest.approx(-draws.high)
    assert pairs.point == 0.0 and pairs.high > 10.0
    assert fm.elo_high == pytest.approx(draws.high, rel=0.05)
    assert (fm.low, fm.high) == pytest.approx(score_interval(0, 400, 0))
