"""SPRT: bounds, the generalized LLR against an independent optimiser, parsing, stop check."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from engine.errors import DsqError
from sim.stats.sprt import (
    SprtConfig,
    counts_to_results,
    make_stop_check,
    parse_sprt,
    sprt_bounds,
    sprt_llr,
    sprt_test,
)


def _reference_llr(results: list[float], elo0: float, elo1: float) -> float:
    """N * [max log-lik with mean s1 - max log-lik with mean s0], by SLSQP."""
    c = [float(x) for x in results]
    if len(c) == 3:
        c = [c[2], c[1], c[0]]
    c = [x if x > 0 else 1e-3 for x in c]
    n = sum(c)
    p = np.array(c) / n
    v = np.linspace(0, 1, len(c))

    def best(s: float) -> float:
        cons = [
            {"type": "eq", "fun": lambda q: q.sum() - 1},
            {"type": "eq", "fun": lambda q: (q * v).sum() - s},
        ]
        res = minimize(
            lambda q: -(p * np.log(np.clip(q, 1e-300, None))).sum(),
            p.copy(),
            constraints=cons,
            bounds=[(1e-12, 1)] * len(p),
            method="SLSQP",
            options={"ftol": 1e-15, "maxiter": 1000},
        )
        return -res.fun

    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    return n * (best(s1) - best(s0))


def test_bounds() -> None:
    lo, hi = sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert hi == pytest.approx(2.944, abs=1e-3)
    assert SprtConfig(alpha=0.05, beta=0.1).bounds == pytest.approx(
        (math.log(0.1 / 0.95), math.log(0.9 / 0.05))
    )


@pytest.mark.parametrize(
    "results,elo0,elo1",
    [
        ((1038, 1925, 1037), 0, 10),
        ((600, 1925, 400), 0, 10),
        ((120, 30, 80), -5, 5),
        ((10, 50, 200, 60, 12), 0, 10),
        ((40, 210, 900, 260, 50), 0, 5),
        ((0, 5, 20, 7, 0), 0, 10),
    ],
)
def test_llr_matches_independent_optimiser(results: tuple, elo0: float, elo1: float) -> None:
    assert sprt_llr(results, elo0, elo1) == pytest.approx(
        _reference_llr(list(results), elo0, elo1), rel=1e-4, abs=1e-6
    )


def test_llr_close_to_the_normal_approximation() -> None:
    w, d, l = 5200, 9000, 4900
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + l * s**2 + d * (0.5 - s) ** 2) / n
    s0, s1 = 0.5, 1 / (1 + 10 ** (-5 / 400))
    approx = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert sprt_llr((w, d, l), 0, 5) == pytest.approx(approx, rel=0.02)


def test_llr_signs_and_zero() -> None:
    assert sprt_llr((700, 200, 300), 0, 10) > 0  # strong: evidence for H1
    assert sprt_llr((300, 200, 700), 0, 10) < 0
    assert sprt_llr((0, 0, 0), 0, 10) == 0.0
    assert sprt_llr((600, 1925, 400), 0, 10, model="normalized") > 0


def test_sprt_test_decisions() -> None:
    cfg = parse_sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05")
    assert sprt_test((700, 200, 300), cfg).decision == "H1"
    assert sprt_test((300, 200, 700), cfg).decision == "H0"
    r = sprt_test((10, 10, 10), cfg)
    assert r.decision is None and r.lower < r.llr < r.upper
    d = r.to_dict()
    assert d["config"]["elo1"] == 10 and d["upper"] == pytest.approx(2.944, abs=1e-3)


def test_parse_sprt() -> None:
    c = parse_sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05")
    assert c == SprtConfig(0.0, 10.0, 0.05, 0.05, "logistic")
    assert parse_sprt("elo1=5, elo0=-2, model=normalized") == SprtConfig(
        -2.0, 5.0, 0.05, 0.05, "normalized"
    )
    assert parse_sprt(c.spec) == c
    for bad in [
        "",
        "elo0",
        "elo0=x",
        "elo0=10,elo1=0",
        "alpha=1.5",
        "foo=1",
        "elo0=1,elo0=2",
        "model=bayes",
        "alpha=0.6,beta=0.6",
        "elo1=inf",
    ]:
        with pytest.raises(DsqError):
            parse_sprt(bad)


def test_counts_to_results_forms() -> None:
    driver = {
        "games": 6,
        "red": 3,
        "blue": 2,
        "draw": 1,
        "a_wins": 2,
        "b_wins": 3,
        "wins": 2,
        "draws": 1,
        "losses": 3,
    }
    assert counts_to_results(driver) == (2.0, 1.0, 3.0)
    assert counts_to_results(dict(driver, pentanomial=[0, 1, 1, 1, 0])) == (0, 1, 1, 1, 0)
    assert counts_to_results({"red": 5, "blue": 1, "draw": 2}) == (5.0, 2.0, 1.0)
    with pytest.raises(DsqError):
        counts_to_results({"games": 3})


def test_stop_check_stops_and_keeps_its_state() -> None:
    check = make_stop_check("elo0=0,elo1=10")
    assert check({"wins": 10, "draws": 10, "losses": 10}) is False
    assert check.last is not None and check.last.decision is None
    assert check({"wins": 700, "draws": 200, "losses": 300}) is True
    assert check.last.decision == "H1"
    assert check.last.to_dict()["llr"] > check.last.upper
