"""Property tests of the intervals and tests (hypothesis)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.stats.elo import match_score, pentanomial
from sim.stats.general import score_estimate
from sim.stats.intervals import score_interval, wilson
from sim.stats.sprt import sprt_llr

counts = st.integers(min_value=0, max_value=5000)


@given(k=counts, extra=counts, conf=st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_contains_estimate(k: int, extra: int, conf: float) -> None:
    n = k + extra
    if n == 0:
        return
    lo, hi = wilson(k, n, conf)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@given(k=st.integers(0, 200), extra=st.integers(1, 200), factor=st.integers(2, 20))
def test_wilson_shrinks_with_more_games(k: int, extra: int, factor: int) -> None:
    n = k + extra
    lo1, hi1 = wilson(k, n)
    lo2, hi2 = wilson(k * factor, n * factor)
    assert hi2 - lo2 < hi1 - lo1


@given(w=counts, d=counts, l=counts)
def test_score_interval_contains_estimate(w: int, d: int, l: int) -> None:
    n = w + d + l
    if n == 0:
        return
    s = (w + d / 2) / n
    lo, hi = score_interval(w, d, l)
    assert 0.0 <= lo <= s + 1e-12 and s - 1e-12 <= hi <= 1.0


@given(
    w=st.integers(0, 300), d=st.integers(0, 300), l=st.integers(0, 300), factor=st.integers(2, 10)
)
def test_score_interval_shrinks_with_more_games(w: int, d: int, l: int, factor: int) -> None:
    if w + l == 0:
        return  # all draws: a point already
    lo1, hi1 = score_interval(w, d, l)
    lo2, hi2 = score_interval(w * factor, d * factor, l * factor)
    assert hi2 - lo2 < hi1 - lo1


@given(w=st.integers(0, 2000), d=st.integers(0, 2000))
def test_balanced_results_show_no_advantage(w: int, d: int) -> None:
    e = score_estimate(w, d, w)
    if e.games == 0:
        return
    assert e.score == 0.5 and e.p_value == 1.0 and e.p_exact == 1.0
    assert e.low <= 0.5 <= e.high
    m = match_score(w, d, w)
    assert abs(m.elo) < 1e-9 and m.los == 0.5


@given(l=st.integers(50, 2000), d=st.integers(0, 2000))
def test_biased_results_show_an_advantage(l: int, d: int) -> None:
    w = 2 * l  # twice as many wins as losses, at least 50 losses
    e = score_estimate(w, d, l)
    assert e.p_value < 0.05 and e.p_exact < 0.05 and e.low > 0.5
    m = match_score(w, d, l)
    assert m.elo > 0 and m.elo_low > 0 and m.los > 0.975


@settings(max_examples=50)
@given(w=st.integers(1, 3000), d=st.integers(0, 3000), l=st.integers(1, 3000))
def test_elo_interval_contains_estimate(w: int, d: int, l: int) -> None:
    m = match_score(w, d, l)
    if math.isfinite(m.elo_low) and math.isfinite(m.elo_high):
        assert m.elo_low <= m.elo <= m.elo_high


@settings(max_examples=50)
@given(c=st.lists(st.integers(0, 500), min_size=5, max_size=5))
def test_pentanomial_symmetry(c: list[int]) -> None:
    if sum(c) == 0 or c[0] + c[1] + c[3] + c[4] == 0:
        return
    a, b = pentanomial(c), pentanomial(c[::-1])
    assert math.isclose(a.score, 1 - b.score, abs_tol=1e-12)
    if math.isfinite(a.elo):
        assert math.isclose(a.elo, -b.elo, abs_tol=1e-9)


@settings(max_examples=40, deadline=None)
@given(w=st.integers(0, 2000), d=st.integers(0, 2000), l=st.integers(0, 2000))
def test_llr_antisymmetric_under_swapping_sides(w: int, d: int, l: int) -> None:
    if w + d + l == 0:
        return
    # H1: +5 vs H0: -5 for one side equals -(the same) for the other side
    a = sprt_llr((w, d, l), -5, 5)
    b = sprt_llr((l, d, w), -5, 5)
    assert math.isclose(a, -b, rel_tol=1e-6, abs_tol=1e-6)
