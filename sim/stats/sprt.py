"""Sequential probability ratio test (GSPRT) of a match, the way fishtest runs it.

Hypotheses are Elo differences ``elo0`` (H0) and ``elo1`` (H1) of the tested bot over
its opponent. The log-likelihood ratio is fishtest's *generalized* LLR (``LLR_logistic``
"exact"): the results are a multinomial sample (W/D/L, or colour-swapped pairs in the
pentanomial form); under each hypothesis the distribution is the maximum-likelihood one
whose mean score equals the hypothesis' score, and the LLR is ``N * sum p_i log(q1_i /
q0_i)`` over the observed frequencies ``p`` (zero counts regularised to 1e-3 as fishtest
does). ``model="logistic"``: ``score = 1 / (1 + 10^(-elo/400))``; ``model="normalized"``:
``score = 0.5 + nelo * sigma / (800 / ln 10)`` with ``sigma`` the observed per-game
standard deviation (fishtest's normalized Elo). The bounds are Wald's
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)`` (no overshoot correction).

``dsq simulate --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`` is parsed by
:func:`parse_sprt`; :func:`make_stop_check` builds the ``stop_check(counts) -> bool``
callable the simulator runs after every game or pair (its ``first_decision`` tests many
states of a match at once, through :func:`sprt_llr_many`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from engine.errors import DsqError

MODELS = ("logistic", "normalized")
_REG = 1e-3  # fishtest's regularisation of zero counts
MAX_ELO = 1000.0  # |elo0|, |elo1| at most this (a 99.7% score); beyond, nothing is testable
_SCORE_EPS = 1e-6  # hypothesis scores are kept inside (0, 1) by this much


@dataclass(frozen=True)
class SprtConfig:
    """The parameters of an SPRT: Elo under H0 and H1, error rates, Elo model."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or not math.isfinite(v):
                raise DsqError(f"sprt: {name} must be a finite number, got {v!r}")
        for name in ("elo0", "elo1"):
            if abs(getattr(self, name)) > MAX_ELO:
                raise DsqError(
                    f"sprt: {name} must be between -{MAX_ELO:g} and {MAX_ELO:g}, "
                    f"got {getattr(self, name):g}"
                )
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0):
            raise DsqError("sprt: alpha and beta must be between 0 and 1 (exclusive)")
        if self.alpha + self.beta >= 1.0:
            raise DsqError("sprt: alpha + beta must be below 1")
        if self.elo0 >= self.elo1:
            raise DsqError(f"sprt: elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if self.model not in MODELS:
            raise DsqError(f"sprt: model must be one of {', '.join(MODELS)}, got {self.model!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The (lower, upper) LLR bounds."""
        return sprt_bounds(self.alpha, self.beta)

    @property
    def spec(self) -> str:
        """Canonical text form, accepted by :func:`parse_sprt`."""
        out = f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"
        if self.model != "logistic":
            out += f",model={self.model}"
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields plus the bounds."""
        d = asdict(self)
        d["lower"], d["upper"] = self.bounds
        return d


def parse_sprt(text: str) -> SprtConfig:
    """Parse ``elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic|normalized]``.

    Keys may come in any order; missing ones take the defaults (0, 10, 0.05, 0.05,
    logistic). Raises :class:`DsqError` on unknown keys, bad numbers or impossible values.
    """
    if not isinstance(text, str) or not text.strip():
        raise DsqError("sprt: empty specification (expected e.g. elo0=0,elo1=10)")
    values: dict[str, Any] = {}
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        key, sep, val = part.partition("=")
        key = key.strip().lower()
        if not sep or not val.strip():
            raise DsqError(f"sprt: expected key=value, got {part!r}")
        if key in values:
            raise DsqError(f"sprt: {key} given twice")
        if key == "model":
            values[key] = val.strip().lower()
        elif key in ("elo0", "elo1", "alpha", "beta"):
            try:
                values[key] = float(val)
            except ValueError:
                raise DsqError(f"sprt: {key} must be a number, got {val!r}") from None
        else:
            raise DsqError(f"sprt: unknown key {key!r} (elo0, elo1, alpha, beta, model)")
    return SprtConfig(**values)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's LLR bounds ``(log(beta/(1-alpha)), log((1-beta)/alpha))``: (-2.944, 2.944)."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise DsqError("sprt: alpha and beta must be between 0 and 1 (exclusive)")
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def _results_pdf(results: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """(N, values, probabilities) of W/D/L (3) or pentanomial (5) counts, regularised."""
    counts = [float(c) for c in results]
    if len(counts) == 3:
        w, d, lo = counts
        counts = [lo, d, w]  # ascending score 0, 1/2, 1
    elif len(counts) != 5:
        raise DsqError("sprt: results must be (wins, draws, losses) or 5 pentanomial counts")
    if any(c < 0 or math.isnan(c) for c in counts):
        raise DsqError("sprt: counts must be non-negative")
    k = len(counts)
    values = [i / (k - 1) for i in range(k)]
    counts = [c if c > 0 else _REG for c in counts]
    n = sum(counts)
    return n, values, [c / n for c in counts]


def _mle_logratio_terms(values: list[float], pdf: list[float], s: float) -> list[float]:
    """``log(p_i / q_i)`` where ``q`` is the max-likelihood pdf with mean ``s``."""
    # lazy: start-up time (scipy)
    from scipy.optimize import brentq

    a = [v - s for v in values]
    amax, amin = max(a), min(a)
    if amax <= 0 or amin >= 0:
        raise DsqError("sprt: hypothesis score outside the range of possible results")
    lo, hi = -1.0 / amax, -1.0 / amin
    eps = 1e-12 * (hi - lo)

    def g(lam: float) -> float:
        return sum(p * x / (1.0 + lam * x) for p, x in zip(pdf, a, strict=True))

    lam = brentq(g, lo + eps, hi - eps, xtol=1e-14, maxiter=500)
    return [math.log(1.0 + lam * x) for x in a]


def _hypothesis_scores(
    values: list[float], pdf: list[float], elo0: float, elo1: float, model: str
) -> tuple[float, float]:
    """The expected scores under H0 and H1, kept strictly inside (0, 1): a normalized Elo
    times a large observed deviation can point past a certain win or loss."""
    s0, s1 = _raw_scores(values, pdf, elo0, elo1, model)
    return (
        min(1.0 - _SCORE_EPS, max(_SCORE_EPS, s0)),
        min(1.0 - _SCORE_EPS, max(_SCORE_EPS, s1)),
    )


def _raw_scores(
    values: list[float], pdf: list[float], elo0: float, elo1: float, model: str
) -> tuple[float, float]:
    if model == "logistic":
        return tuple(1.0 / (1.0 + 10.0 ** (-e / 400.0)) for e in (elo0, elo1))
    if model == "normalized":
        mu = sum(v * p for v, p in zip(values, pdf, strict=True))
        var = sum(p * (v - mu) ** 2 for v, p in zip(values, pdf, strict=True))
        sigma = math.sqrt(var * (2.0 if len(values) == 5 else 1.0))  # per game
        nt = 800.0 / math.log(10.0)
        return (0.5 + elo0 / nt * sigma, 0.5 + elo1 / nt * sigma)
    raise DsqError(f"sprt: model must be one of {', '.join(MODELS)}, got {model!r}")


def sprt_llr(results: Sequence[float], elo0: float, elo1: float, model: str = "logistic") -> float:
    """Generalized log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``).

    ``results`` is ``(wins, draws, losses)`` from the tested side's point of view, or the
    five pentanomial counts of colour-swapped pairs ordered by pair score 0..2 (LL, LD,
    DD+WL, WD, WW; fishtest's order). Zero games give 0.
    """
    if sum(float(c) for c in results) <= 0:
        return 0.0
    n, values, pdf = _results_pdf(results)
    s0, s1 = _hypothesis_scores(values, pdf, elo0, elo1, model)
    t0 = _mle_logratio_terms(values, pdf, s0)  # log(p / q0)
    t1 = _mle_logratio_terms(values, pdf, s1)  # log(p / q1)
    # log(q1 / q0) = log(p / q0) - log(p / q1)
    return n * sum(p * (x0 - x1) for p, x0, x1 in zip(pdf, t0, t1, strict=True))


@dataclass(frozen=True)
class SprtResult:
    """The state of an SPRT: its LLR, bounds and decision (``"H1"``, ``"H0"`` or ``None``)."""

    llr: float
    lower: float
    upper: float
    decision: str | None
    results: tuple[float, ...]
    config: SprtConfig

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (config flattened under ``config``)."""
        return {
            "llr": self.llr,
            "lower": self.lower,
            "upper": self.upper,
            "decision": self.decision,
            "results": list(self.results),
            "config": self.config.to_dict(),
        }


def sprt_test(results: Sequence[float], config: SprtConfig) -> SprtResult:
    """Run the SPRT on ``results`` (W/D/L or pentanomial, as :func:`sprt_llr`)."""
    llr = sprt_llr(results, config.elo0, config.elo1, config.model)
    lo, hi = config.bounds
    decision = "H1" if llr >= hi else "H0" if llr <= lo else None
    return SprtResult(llr, lo, hi, decision, tuple(float(c) for c in results), config)


def counts_to_results(counts: Mapping[str, Any], bot: str | None = None) -> tuple[float, ...]:
    """Extract SPRT results from a simulator ``counts`` mapping.

    Accepted forms, first match wins:

    - ``{"pentanomial": [LL, LD, DD+WL, WD, WW]}`` (colour-swapped pairs, tested bot's view);
    - ``{"wins": W, "draws": D, "losses": L}`` (tested bot's view);
    - ``{"bots": {spec: {"wins", "draws", "losses"}}}`` with ``bot`` naming the tested one;
    - ``{"red": R, "blue": B, "draw": D}``: the tested bot is Red in every game (no swap).
    """
    if counts.get("pentanomial") is not None:
        p = list(counts["pentanomial"])
        if len(p) != 5:
            raise DsqError("sprt: pentanomial counts must have 5 entries")
        return tuple(float(x) for x in p)
    if "wins" in counts:
        return (float(counts["wins"]), float(counts.get("draws", 0)), float(counts["losses"]))
    if bot is not None and isinstance(counts.get("bots"), Mapping) and bot in counts["bots"]:
        c = counts["bots"][bot]
        return (float(c["wins"]), float(c.get("draws", 0)), float(c["losses"]))
    if "red" in counts and "blue" in counts:
        return (float(counts["red"]), float(counts.get("draw", 0)), float(counts["blue"]))
    raise DsqError("sprt: cannot read results from the simulator's counts")


@dataclass
class SprtStopCheck:
    """``stop_check(counts) -> bool`` for the simulator: True once the LLR leaves the bounds.

    The latest :class:`SprtResult` is kept in :attr:`last` (for progress lines and for the
    batch record: ``check.last.to_dict()``).
    """

    config: SprtConfig
    bot: str | None = None
    last: SprtResult | None = field(default=None)

    def __call__(self, counts: Mapping[str, Any]) -> bool:
        self.last = sprt_test(counts_to_results(counts, self.bot), self.config)
        return self.last.decision is not None

    def first_decision(self, steps: Sequence[Mapping[str, Any]]) -> int | None:
        """The index of the first of ``steps`` (counts, as for a call) the test decides on,
        or None: the same answer as calling the check on each in turn, and :attr:`last` is
        left as those calls would leave it. :func:`sprt_llr_many` screens them all at once;
        only the states it finds near or past a bound are tested one by one."""
        if not steps:
            return None
        rows = [counts_to_results(c, self.bot) for c in steps]
        lo, hi = self.config.bounds
        if len({len(r) for r in rows}) == 1:
            c = self.config
            llr = sprt_llr_many(rows, c.elo0, c.elo1, c.model)
            margin = 1e-6 + 1e-9 * max(sum(rows[-1]), sum(rows[0]))
            near = [int(i) for i in ((llr >= hi - margin) | (llr <= lo + margin)).nonzero()[0]]
        else:
            near = list(range(len(rows)))
        for i in near:
            if self(steps[i]):
                return i
        self.last = sprt_test(rows[-1], self.config)
        return None


def make_stop_check(config: SprtConfig | str, bot: str | None = None) -> SprtStopCheck:
    """A stop check for ``dsq simulate``'s driver from a config or an ``--sprt`` string."""
    if isinstance(config, str):
        config = parse_sprt(config)
    return SprtStopCheck(config=config, bot=bot)


def sprt_llr_many(
    rows: Sequence[Sequence[float]], elo0: float, elo1: float, model: str = "logistic"
) -> Any:
    """:func:`sprt_llr` of every row of ``rows`` (all W/D/L, or all pentanomial) at once,
    as a numpy array, equal to it within about ``1e-12`` per game: a screen that finds
    where a test may decide among many states of a match (:meth:`SprtStopCheck.first_decision`
    confirms each with :func:`sprt_test`)."""
    c = np.asarray(rows, dtype=float).reshape(len(rows), -1)
    if c.shape[1] == 3:
        c = c[:, ::-1]  # ascending score: L, D, W
    elif c.shape[1] != 5:
        raise DsqError("sprt: results must be (wins, draws, losses) or 5 pentanomial counts")
    k = c.shape[1]
    values = np.arange(k) / (k - 1)
    empty = c.sum(axis=1) <= 0
    c = np.where(c > 0, c, _REG)
    n = c.sum(axis=1)
    pdf = c / n[:, None]
    if model == "logistic":
        s0, s1 = (np.full(len(c), 1.0 / (1.0 + 10.0 ** (-e / 400.0))) for e in (elo0, elo1))
    elif model == "normalized":
        mu = pdf @ values
        sigma = np.sqrt((pdf * (values - mu[:, None]) ** 2).sum(axis=1) * (2.0 if k == 5 else 1.0))
        nt = 800.0 / math.log(10.0)
        s0, s1 = 0.5 + elo0 / nt * sigma, 0.5 + elo1 / nt * sigma
    else:
        raise DsqError(f"sprt: model must be one of {', '.join(MODELS)}, got {model!r}")
    t0, t1 = (
        _log_terms_many(values, pdf, np.clip(s, _SCORE_EPS, 1 - _SCORE_EPS)) for s in (s0, s1)
    )
    return np.where(empty, 0.0, n * (pdf * (t0 - t1)).sum(axis=1))


def _log_terms_many(values: Any, pdf: Any, s: Any) -> Any:
    """``log(p_i / q_i)`` of :func:`_mle_logratio_terms` for every row, by safeguarded Newton
    steps on each row's multiplier (bisection when a step leaves its bracket)."""
    a = values[None, :] - s[:, None]
    lo, hi = -1.0 / a.max(axis=1), -1.0 / a.min(axis=1)
    eps = 1e-12 * (hi - lo)
    lo, hi = lo + eps, hi - eps
    lam = np.zeros(len(a))
    for _ in range(200):
        d = 1.0 + lam[:, None] * a
        g = (pdf * a / d).sum(axis=1)  # decreasing in lam, zero at the root
        slope = -(pdf * a * a / (d * d)).sum(axis=1)
        lo, hi = np.where(g > 0, lam, lo), np.where(g > 0, hi, lam)
        new = lam - g / slope
        new = np.where((new >= lo) & (new <= hi), new, 0.5 * (lo + hi))
        done = np.all(np.abs(new - lam) <= 1e-15 * np.maximum(1.0, np.abs(lam)))
        lam = new
        if done:
            break
    return np.log1p(lam[:, None] * a)
