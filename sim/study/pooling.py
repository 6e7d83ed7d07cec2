"""Pooling one finding's estimates across a study's conditions: a random-effects
meta-analysis (statsmodels' ``combine_effects``, DerSimonian-Laird), tests of whether the
estimate depends on an axis (Cochran's Q between the axis's levels, among conditions equal
on every other axis), and the verdict (docs/studies.md, "Findings")."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from scipy.stats import chi2, norm

AXES = ("bots", "level", "openings", "seed")
"""The robustness axes of a condition, in the order verdicts name them."""

Z95 = float(norm.ppf(0.975))


def two_sided_p(est: float, se: float) -> float | None:
    """The two-sided normal p-value of ``est`` against 0 (None without a standard error)."""
    if not se > 0 or math.isnan(est):
        return None
    return float(2 * norm.sf(abs(est) / se))


def pooled(estimates: Sequence[float], ses: Sequence[float]) -> dict[str, Any]:
    """The random-effects pooled estimate of ``estimates`` with standard errors ``ses``:
    ``value``, ``low``/``high`` (95%), ``se``, ``p`` (against 0), ``tau`` (the between-
    condition standard deviation), ``i2`` (the share of the variation beyond chance, 0..1)
    and ``conditions``. One condition: its own estimate, τ and I² None."""
    k = len(estimates)
    if k == 0:
        return {"value": None, "conditions": 0}
    if k == 1:
        e, s = float(estimates[0]), float(ses[0])
        return {"value": e, "low": e - Z95 * s, "high": e + Z95 * s, "se": s,
                "p": two_sided_p(e, s), "tau": None, "i2": None, "conditions": 1}  # fmt: skip
    # lazy: start-up time (statsmodels)
    import numpy as np
    from statsmodels.stats.meta_analysis import combine_effects

    var = np.asarray(ses, dtype=float) ** 2
    eff = np.asarray(estimates, dtype=float)
    w = 1.0 / var
    q = float((w * (eff - (w * eff).sum() / w.sum()) ** 2).sum())
    tau2 = 0.0
    if q > 1e-12 * max(1.0, float((w * eff**2).sum())):  # else equal estimates
        with warnings.catch_warnings():  # a degenerate fit is caught just below
            warnings.simplefilter("ignore", RuntimeWarning)
            tau2 = float(combine_effects(eff, var, method_re="chi2").tau2)
        if not math.isfinite(tau2):
            tau2 = 0.0
    tau2 = max(tau2, 0.0)
    # the DerSimonian-Laird pool: weights 1 / (v + tau^2); statsmodels' tau^2 (its own
    # standard error of the pool scales by the residual chi-square below tau^2 = 0)
    wr = 1.0 / (var + tau2)
    est, se = float((wr * eff).sum() / wr.sum()), float(1.0 / math.sqrt(wr.sum()))
    i2 = max(0.0, (q - (k - 1)) / q) if q > 0 else 0.0
    return {"value": est, "low": est - Z95 * se, "high": est + Z95 * se, "se": se,
            "p": two_sided_p(est, se), "tau": math.sqrt(tau2), "i2": i2, "q": q,
            "conditions": k}  # fmt: skip


def interaction_p(rows: Sequence[dict[str, Any]], axis: str) -> float | None:
    """Whether the estimate depends on ``axis``: among the ``rows`` (each with ``est``,
    ``se`` and the condition's level on every axis of :data:`AXES`) grouped by their levels
    on the other axes, Cochran's Q of the estimates across ``axis``'s levels, summed over
    the groups (df: the sum of levels − 1); None where no group has two levels."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        key = tuple(r[a] for a in AXES if a != axis)
        groups.setdefault(key, []).append(r)
    q_total, df = 0.0, 0
    for members in groups.values():
        levels = {r[axis] for r in members}
        if len(levels) < 2:
            continue
        w = [1.0 / r["se"] ** 2 for r in members]
        mean = sum(wi * r["est"] for wi, r in zip(w, members, strict=True)) / sum(w)
        q_total += sum(wi * (r["est"] - mean) ** 2 for wi, r in zip(w, members, strict=True))
        df += len(members) - 1
    if df == 0:
        return None
    return float(chi2.sf(q_total, df))


def verdict(finding: dict[str, Any]) -> tuple[str, list[str]]:
    """The verdict of a finding whose per-condition rows carry ``p_holm`` and ``est`` and
    whose ``interactions`` carry ``p_holm``: ``robust`` (the same sign, significant after
    the correction, in every condition), ``depends on`` (with the axes whose interaction
    test is significant after correction) or ``not established``; and the axes."""
    rows = finding["conditions"]
    axes = [a for a, t in finding.get("interactions", {}).items() if t.get("significant")]
    if axes:
        return "depends on", axes
    signs = {r["est"] > 0 for r in rows if r.get("est") is not None}
    if rows and len(signs) == 1 and all(r.get("significant") for r in rows):
        return "robust", []
    return "not established", []
