"""Match scores in Elo: the cutechess/fishtest formulas for W/D/L and pentanomial results.

Logistic Elo: ``elo(s) = -400 log10(1/s - 1)`` for a mean score ``s``. For W/D/L
(trinomial) results the interval is cutechess's: the score's normal interval
``mu ± z * sd / sqrt(n)`` mapped through ``elo`` and halved into a symmetric error
(cutechess prints that error; its approximate inverse erf gives ``z = 1.9572`` instead of
1.9600, which is why it shows ``0.1 +/- 7.7`` for 1038 W, 1925 D, 1037 L where the exact
quantile gives 7.76). LOS is ``Phi((W - L) / sqrt(W + L))`` (cutechess).

Near a sweep the normal interval leaves [0, 1] (Elo is infinite at a score of 0 or 1:
cutechess prints ``+668.8 +/- inf`` for 117-1-2). There the score's interval is Wilson's
instead, with the observed spread: the ``p`` with ``n (mu - p)^2 = z^2 (p (1 - p) - k)``,
``k = mu (1 - mu) - var`` (``k = d/4`` for a draw ratio ``d``: plain Wilson without draws),
which stays inside [0, 1], reaches 1 only for a sweep (every game, or pair, won: its lower
bound is ``n / (n + z^2)``) and tends to the normal interval as ``n`` grows. Such an Elo
interval is asymmetric and given by its bounds, with no ``±`` error (``elo_error`` NaN);
a sweep's Elo is infinite and its interval open at the top (``elo_high = inf``): it has
only its lower bound. :class:`EloEstimate` holds one figure in that form, and says which
Elo it is (``logistic`` or ``normalized``).

Pentanomial results count colour-swapped game pairs by the pair's score for the bot whose
point of view is taken: index 0..4 = pair score 0, 1/2, 1, 3/2, 2 (LL, LD, DD or WL, WD,
WW), fishtest's order. The mean and variance are per pair (pair score / 2), as in
fishtest's ``get_elo``; normalized Elo is fishtest's
``nElo = (mu - 0.5) / (sqrt(2) * sd_pair) * 800 / ln 10`` with its interval from the
t-value's variance ``1 - t * skew + t^2 (kurt_excess + 2) / 4``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from engine.errors import DsqError
from sim.stats.intervals import normal_cdf, z_value

NELO_PER_T = 800.0 / math.log(10.0)  # 347.4355855226...


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for a mean score in ``[0, 1]`` (±inf at 1 and 0)."""
    if math.isnan(score):
        return math.nan
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0.0" at a score of 1/2


ELO_KINDS = ("logistic", "normalized")


def normalized_estimate(
    point: float, low: float, high: float, confidence: float = 0.95
) -> EloEstimate:
    """A normalized Elo (nElo) with its interval (NaN without spread)."""
    return EloEstimate("normalized", point, (high - low) / 2.0, low, high, confidence)


def _finite(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


@dataclass(frozen=True)
class EloEstimate:
    """One Elo figure with its interval at ``confidence``: ``kind`` is ``"logistic"`` (the
    Elo difference of a mean score) or ``"normalized"`` (nElo, per standard deviation).

    ``point``, ``low`` and ``high`` may be infinite: ``low == -inf`` / ``high == inf`` is an
    interval open at that end (a score bound of 0 or 1), ``point`` infinite a sweep.
    ``error`` is the symmetric ``±`` half-width of a normal interval (NaN for an
    asymmetric Wilson interval or an open one: see the module notes).
    :meth:`to_dict` writes infinities as null, with ``low_open`` / ``high_open`` flags.
    """

    kind: str
    point: float
    error: float
    low: float
    high: float
    confidence: float = 0.95

    @property
    def low_open(self) -> bool:
        """The interval has no lower bound (the score's reaches 0)."""
        return self.low == -math.inf

    @property
    def high_open(self) -> bool:
        """The interval has no upper bound (the score's reaches 1)."""
        return self.high == math.inf

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: infinities and NaN as null, the open ends flagged."""
        return {
            "kind": self.kind,
            "point": _finite(self.point),
            "error": _finite(self.error),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "low_open": self.low_open,
            "high_open": self.high_open,
            "confidence": self.confidence,
        }


def score_from_elo(elo: float) -> float:
    """Expected score for a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _check_counts(counts: Sequence[float], size: int, what: str) -> list[float]:
    vals = [float(c) for c in counts]
    if len(vals) != size:
        raise DsqError(f"{what}: expected {size} counts, got {len(vals)}")
    if any(c < 0 or math.isnan(c) for c in vals):
        raise DsqError(f"{what}: counts must be non-negative")
    return vals


def _moments(values: Sequence[float], counts: Sequence[float]) -> tuple[float, float, float, float]:
    """Mean, variance, skewness, excess kurtosis of a discrete sample given as counts."""
    n = sum(counts)
    mu = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    var = sum(c * (v - mu) ** 2 for v, c in zip(values, counts, strict=True)) / n
    if var <= 0:
        return mu, 0.0, 0.0, 0.0
    m3 = sum(c * (v - mu) ** 3 for v, c in zip(values, counts, strict=True)) / n
    m4 = sum(c * (v - mu) ** 4 for v, c in zip(values, counts, strict=True)) / n
    return mu, var, m3 / var**1.5, m4 / var**2 - 3.0


def wilson_spread(mu: float, var: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score interval for a mean ``mu`` of ``n`` scores in [0, 1] with variance
    ``var``: the roots of ``n (mu - p)^2 = z^2 (p (1 - p) - k)``, ``k = mu (1 - mu) - var``
    (plain Wilson for 0/1 scores); 1 is reached only at ``mu = 1`` with no spread."""
    k = min(max(mu * (1.0 - mu) - var, 0.0), 0.25)
    z2 = z * z
    b = 2.0 * n * mu + z2
    root = math.sqrt(max(z2 * (4.0 * n * var + z2 * (1.0 - 4.0 * k)), 0.0))
    lo, hi = (b - root) / (2.0 * (n + z2)), (b + root) / (2.0 * (n + z2))
    return max(lo, 0.0), min(hi, 1.0)


@dataclass(frozen=True, kw_only=True)
class ScoreRecord:
    """What every score of a match says, counted by games (:class:`MatchScore`) or by
    colour-swapped pairs (:class:`PentanomialScore`): the mean score with its interval,
    the logistic Elo with its symmetric error and interval, the LOS and the normalized
    Elo with its interval, at ``confidence``."""

    games: int
    score: float
    score_low: float
    score_high: float
    elo: float
    elo_error: float
    elo_low: float
    elo_high: float
    los: float
    nelo: float
    nelo_low: float
    nelo_high: float
    confidence: float = 0.95

    _COUNTS: ClassVar[tuple[str, ...]] = ()  # the record's own counts, first in to_dict
    _RATIO: ClassVar[str] = ""  # its draw share, after ``los`` in to_dict

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields: the counts, then the score and Elo, the draw share,
        the normalized Elo and the confidence."""
        d = asdict(self)
        head = ("games", *_CORE[:8])
        tail = ("nelo", "nelo_low", "nelo_high", "confidence")
        return {k: d[k] for k in (*self._COUNTS, *head, self._RATIO, *tail)}

    def logistic(self) -> EloEstimate:
        """The logistic Elo with its interval."""
        return EloEstimate(
            "logistic", self.elo, self.elo_error, self.elo_low, self.elo_high, self.confidence
        )

    def normalized(self) -> EloEstimate:
        """The normalized Elo (nElo) with its interval."""
        return normalized_estimate(self.nelo, self.nelo_low, self.nelo_high, self.confidence)


# the fields of ScoreRecord that _elo_core fills
_CORE: tuple[str, ...] = ("score", "score_low", "score_high", "elo", "elo_error", "elo_low")
_CORE += ("elo_high", "los", "nelo", "nelo_low", "nelo_high")


def _elo_core(
    values: Sequence[float], counts: Sequence[float], los: float, confidence: float, nelo_div: float
) -> dict[str, float]:
    n = sum(counts)
    if n <= 0:
        nan = math.nan
        return dict.fromkeys(_CORE, nan)
    z = z_value(confidence)
    mu, var, skew, kurt = _moments(values, counts)
    spread = var
    if var <= 0.0 < mu < 1.0:
        # every game (pair) ended alike: no spread seen is not no spread possible. As the
        # rule of three bounds an event never seen, another outcome may have a share up to
        # z^2 / (n + z^2), each at most max(mu, 1 - mu) away from the mean.
        spread = z * z / (n + z * z) * max(mu, 1.0 - mu) ** 2
    half = z * math.sqrt(spread / n)
    lo_s, hi_s = mu - half, mu + half
    elo = elo_from_score(mu)
    if lo_s > 0.0 and hi_s < 1.0:
        elo_lo, elo_hi = elo_from_score(lo_s), elo_from_score(hi_s)
        err = (elo_hi - elo_lo) / 2.0
    else:  # the normal interval leaves [0, 1]: Wilson's, with no symmetric error
        lo_s, hi_s = wilson_spread(mu, spread, n, z)
        elo_lo, elo_hi = elo_from_score(lo_s), elo_from_score(hi_s)
        err = math.nan
    if var > 0:
        t = (mu - 0.5) / math.sqrt(var)
        var_t = max(1.0 - t * skew + 0.25 * t * t * (kurt + 2.0), 0.0)
        t_half = z * math.sqrt(var_t / n)
        nelo = NELO_PER_T * t / nelo_div
        nelo_lo = NELO_PER_T * (t - t_half) / nelo_div
        nelo_hi = NELO_PER_T * (t + t_half) / nelo_div
    else:
        nelo = nelo_lo = nelo_hi = math.nan
    values_ = (mu, max(lo_s, 0.0), min(hi_s, 1.0), elo, err, elo_lo, elo_hi, los)
    return dict(zip(_CORE, (*values_, nelo, nelo_lo, nelo_hi), strict=True))


@dataclass(frozen=True, kw_only=True)
class MatchScore(ScoreRecord):
    """A W/D/L result from one side's point of view, in the cutechess form.

    ``elo_error`` is the symmetric ± margin cutechess prints; ``elo_low``/``elo_high`` the
    (asymmetric) interval the error was taken from (near a sweep Wilson's interval, with
    ``elo_error`` NaN: see the module notes). ``los`` and ``draw_ratio`` are
    fractions (0.509, not 50.9%). ``nelo`` is the normalized Elo (per-game standard
    deviation) with its interval.
    """

    wins: int
    draws: int
    losses: int
    draw_ratio: float

    _COUNTS: ClassVar[tuple[str, ...]] = ("wins", "draws", "losses")
    _RATIO: ClassVar[str] = "draw_ratio"


def los(wins: float, losses: float) -> float:
    """Likelihood of superiority, cutechess's ``Phi((W - L) / sqrt(W + L))``; 0.5 if W+L=0."""
    if wins + losses <= 0:
        return 0.5
    return normal_cdf((wins - losses) / math.sqrt(wins + losses))


def match_score(wins: int, draws: int, losses: int, confidence: float = 0.95) -> MatchScore:
    """Score, Elo difference with interval, LOS and draw ratio of a W/D/L result.

    ``match_score(1038, 1925, 1037)`` gives Elo 0.09 ± 7.76 and LOS 0.509 (cutechess
    prints ``0.1 +/- 7.7``: see the module notes).
    """
    w, d, lo = _check_counts((wins, draws, losses), 3, "match_score")
    core = _elo_core((1.0, 0.5, 0.0), (w, d, lo), los(w, lo), confidence, 1.0)
    n = w + d + lo
    return MatchScore(
        wins=int(w),
        draws=int(d),
        losses=int(lo),
        games=int(n),
        draw_ratio=(d / n) if n else math.nan,
        confidence=confidence,
        **core,
    )


PENTANOMIAL_LABELS = ("LL", "LD", "DD+WL", "WD", "WW")


@dataclass(frozen=True, kw_only=True)
class PentanomialScore(ScoreRecord):
    """Colour-swapped pairs counted by pair score (``ptnml``: LL, LD, DD+WL, WD, WW).

    ``score`` is the mean game score (pair score / 2) with its interval from the spread of
    pair scores; ``elo``/``elo_error``/``los`` as fishtest's ``get_elo`` on the five
    counts; ``nelo`` the normalized Elo; ``pair_draw_ratio`` the share of pairs scoring
    exactly 1 of 2 (DD or WL).
    """

    ptnml: tuple[int, int, int, int, int]
    pairs: int
    pair_draw_ratio: float

    _COUNTS: ClassVar[tuple[str, ...]] = ("ptnml", "pairs")
    _RATIO: ClassVar[str] = "pair_draw_ratio"

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields (``ptnml`` as a list)."""
        return super().to_dict() | {"ptnml": list(self.ptnml)}


def pentanomial(ptnml: Sequence[int], confidence: float = 0.95) -> PentanomialScore:
    """Elo, normalized Elo, LOS of colour-swapped pairs given as five counts (LL..WW)."""
    counts = _check_counts(ptnml, 5, "pentanomial")
    values = (0.0, 0.25, 0.5, 0.75, 1.0)
    n = sum(counts)
    if n > 0:
        mu, var, _, _ = _moments(values, counts)
        los_ = 0.5 if var <= 0 else normal_cdf((mu - 0.5) / math.sqrt(var / n))
        if var <= 0 and mu != 0.5:
            los_ = 1.0 if mu > 0.5 else 0.0
    else:
        los_ = math.nan
    core = _elo_core(values, counts, los_, confidence, math.sqrt(2.0))
    return PentanomialScore(
        ptnml=tuple(int(c) for c in counts),  # type: ignore[arg-type]
        pairs=int(n),
        games=int(2 * n),
        pair_draw_ratio=(counts[2] / n) if n else math.nan,
        confidence=confidence,
        **core,
    )
