"""Confidence intervals and simple tests on counts, in plain Python (no scipy.stats import).

Conventions: ``confidence`` is two-sided (0.95 -> 95%); every interval is returned as
``(low, high)``; proportions and scores are fractions in ``[0, 1]``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

from engine.errors import DsqError

_NORMAL = NormalDist()


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile for ``confidence`` (0.95 -> 1.959964)."""
    if not 0.0 < confidence < 1.0:
        raise DsqError(f"confidence must be between 0 and 1, got {confidence}")
    return _NORMAL.inv_cdf(0.5 + confidence / 2.0)


def normal_cdf(x: float) -> float:
    """The standard normal cumulative distribution function."""
    return _NORMAL.cdf(x)


def two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal test statistic ``z``."""
    if math.isnan(z):
        return math.nan
    return min(1.0, 2.0 * _NORMAL.cdf(-abs(z)))


def wilson(k: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``k / n``; ``(nan, nan)`` when ``n == 0``.

    Wilson 7 of 10 at 95% gives ``(0.3968, 0.8922)``.
    """
    if n <= 0:
        return (math.nan, math.nan)
    z = z_value(confidence)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(max(p * (1.0 - p) / n + z2 / (4.0 * n * n), 0.0)) / denom
    # clamp: rounding must not put the estimate outside its own interval (k = n, k = 0)
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


@dataclass(frozen=True)
class Proportion:
    """A count out of ``n`` with its rate and Wilson interval."""

    count: int
    n: int
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields."""
        return asdict(self)


def proportion(k: int, n: int, confidence: float = 0.95) -> Proportion:
    """``k`` of ``n`` as a :class:`Proportion` with its Wilson interval."""
    lo, hi = wilson(k, n, confidence)
    return Proportion(int(k), int(n), (k / n) if n else math.nan, lo, hi)


def score_variance(wins: float, draws: float, losses: float) -> tuple[float, float]:
    """Mean score ``(wins + draws/2) / n`` and the per-game variance of the score."""
    n = wins + draws + losses
    if n <= 0:
        return (math.nan, math.nan)
    s = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - s) ** 2 + losses * s**2 + draws * (0.5 - s) ** 2) / n
    return (s, var)


def variance_draw_share(draws: float, games: float, confidence: float = 0.95) -> float:
    """The draw share that enters one game's score variance ``p (1 - p) - d / 4``: the
    observed ``draws / games``, except when every game was drawn, where the observed share
    (1) would say no game can be decided and collapse any interval to a point; then the
    lower end of Wilson's interval for it, ``n / (n + z^2)`` (as the rule of three does
    for an event never seen)."""
    if games <= 0:
        return 0.0
    if draws >= games:
        return games / (games + z_value(confidence) ** 2)
    return draws / games


def score_interval(
    wins: float, draws: float, losses: float, confidence: float = 0.95
) -> tuple[float, float]:
    """Wilson-type interval for a score ``(wins + draws/2) / n`` (draws count half).

    It inverts the score test: the interval holds every mean score ``p`` with
    ``n (p - s)^2 <= z^2 (p (1 - p) - d / 4)``, the variance of one game's score when the
    draw ratio is ``d`` (the observed one; when every game was drawn,
    :func:`variance_draw_share`'s bound). With no draws this is exactly Wilson's
    interval; unlike the Wald interval it never collapses to a point (all wins, all
    losses, all draws), and it excludes 0.5 exactly when :func:`sign_test`'s normal p-value
    is below ``1 - confidence``.
    """
    n = wins + draws + losses
    if n <= 0:
        return (math.nan, math.nan)
    s = (wins + 0.5 * draws) / n
    d = variance_draw_share(draws, n, confidence)
    z2 = z_value(confidence) ** 2
    a = n + z2
    b = -(2.0 * n * s + z2)
    c = n * s * s + z2 * d / 4.0
    disc = max(b * b - 4.0 * a * c, 0.0)
    root = math.sqrt(disc)
    lo = (-b - root) / (2.0 * a)
    hi = (-b + root) / (2.0 * a)
    return (max(0.0, min(lo, s)), min(1.0, max(hi, s)))


def sign_test(wins: int, losses: int) -> tuple[float, float, float]:
    """Test of "wins and losses equally likely" (draws ignored): ``(z, p_normal, p_exact)``.

    ``z = (W - L) / sqrt(W + L)`` is the score test of a mean score of 0.5 with draws
    counting half; ``p_exact`` is the two-sided exact binomial test of ``W`` of ``W + L``
    at 1/2. With no decisive game both p-values are 1.
    """
    m = wins + losses
    if m == 0:
        return (0.0, 1.0, 1.0)
    z = (wins - losses) / math.sqrt(m)
    return (z, two_sided_p(z), binom_test_half(int(wins), int(m)))


def binom_test_half(k: int, n: int) -> float:
    """Exact two-sided binomial test of ``k`` successes in ``n`` at p = 1/2."""
    if n == 0:
        return 1.0
    from scipy.special import bdtr  # lazy: keeps ``dsq stats`` start-up fast

    lo = min(k, n - k)
    # symmetric distribution: P(X <= lo) + P(X >= n - lo)
    p = 2.0 * float(bdtr(lo, n, 0.5))
    return min(1.0, p)


def t_quantile(confidence: float, df: float) -> float:
    """Two-sided Student t quantile (normal when ``df`` is very large)."""
    if df > 1e6:
        return z_value(confidence)
    # lazy: start-up time (scipy)
    from scipy.special import stdtrit

    return float(stdtrit(df, 0.5 + confidence / 2.0))


def mean_interval(mean: float, sd: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Student t interval for a mean from its sample standard deviation."""
    if n is None or n < 2 or sd is None or math.isnan(sd):
        return (math.nan, math.nan)
    half = t_quantile(confidence, n - 1) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def newcombe_difference(
    k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Difference of two proportions ``k1/n1 - k2/n2`` with Newcombe's hybrid Wilson interval.

    Returns ``(difference, low, high)``.
    """
    if n1 <= 0 or n2 <= 0:
        return (math.nan, math.nan, math.nan)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, confidence)
    l2, u2 = wilson(k2, n2, confidence)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (d, lo, hi)


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z test (= Pearson chi-square 2x2)."""
    if n1 <= 0 or n2 <= 0:
        return math.nan
    p = (k1 + k2) / (n1 + n2)
    var = p * (1.0 - p) * (1.0 / n1 + 1.0 / n2)
    if var <= 0:
        return 1.0
    return two_sided_p((k1 / n1 - k2 / n2) / math.sqrt(var))
