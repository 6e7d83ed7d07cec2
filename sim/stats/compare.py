"""Rule variants compared on equal terms, and game-design metrics per rule set.

For two or more rules specs (normally the same bots, same seeds: one ``dsq simulate``
call with several ``--rules``), :func:`compare_rules` gives, per rule set, the
first-player score, draw rate and length with intervals and the design metrics of the
Ludii game-evaluation work, and for every pair of rule sets the differences with
intervals and p-values:

- first move: per rule set the first-move advantage fitted jointly with the bots'
  strengths (:mod:`sim.stats.firstmove`), and for a pair its Elo difference with a normal
  interval and z test from the two standard errors (none where either rule set cannot
  separate the first move from the bots); the raw first-player scores and their
  difference are figures with intervals, not tests;
- draw-rate difference: Newcombe's hybrid Wilson interval, pooled two-proportion z test;
- lengths: Mann-Whitney U (normal approximation with tie and continuity corrections, as
  ``scipy.stats.mannwhitneyu(method="asymptotic")``) computed exactly from the per-length
  counts, so it scales to millions of games;
- end-reason mix: Pearson chi-square on the reasons x rule sets table (no Yates
  correction; empty rows dropped).

The pairwise tests (first move, draw rate, lengths, end reasons, for every pair) are one
family: their p-values are corrected together by Holm's method
(:mod:`sim.stats.multiplicity`), and a difference is significant when its corrected
p-value is below ``1 - confidence`` (5% at 95%).

Omnibus tests over all rule sets: chi-square on the red/blue/draw mix and on the reason
mix, Kruskal-Wallis on lengths (also from counts).

Design metrics: ``balance = 1 - |first - second|`` with draws as half (1 = perfectly
fair); ``completion`` = share of decisive games; ``rule_draws`` = share drawn by a rule of
the game (no-capture rule; not the draws adjudicated on the players' scores) and
``ply_cap_draws`` = share stopped by the simulator's ply cap (not a rule: a high value
means the cap, not the game, ended games); ``drawishness``
= ``rule_draws``; duration as mean and standard deviation of plies; ``branching`` = mean
of the per-game mean number of legal moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import duckdb
import numpy as np
import pandas as pd

from engine.errors import DsqError
from engine.rules import canonical_rules
from sim.stats.firstmove import first_move_difference
from sim.stats.general import general_stats_by
from sim.stats.intervals import (
    newcombe_difference,
    score_variance,
    two_proportion_p,
    two_sided_p,
    z_value,
)
from sim.stats.multiplicity import holm
from sim.stats.query import CELLS, Selection, query_rows
from sim.storage.schema import REASONS


def _chi2_sf(x: float, df: int) -> float:
    # lazy: start-up time (scipy)
    from scipy.special import chdtrc

    return float(chdtrc(df, x)) if df > 0 else math.nan


def chi_square(table: np.ndarray) -> tuple[float, int, float]:
    """Pearson chi-square test of independence: ``(statistic, dof, p)``.

    All-zero rows and columns are dropped; no continuity correction.
    """
    t = np.asarray(table, dtype=float)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0] if t.size else t
    if t.ndim != 2 or t.shape[0] < 2 or t.shape[1] < 2:
        return (0.0, 0, 1.0)
    expected = t.sum(axis=1, keepdims=True) * t.sum(axis=0, keepdims=True) / t.sum()
    stat = float(((t - expected) ** 2 / expected).sum())
    dof = (t.shape[0] - 1) * (t.shape[1] - 1)
    return (stat, dof, _chi2_sf(stat, dof))


def _merge_counts(
    a: dict[int, int], b: dict[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    values = np.array(sorted(set(a) | set(b)), dtype=float)
    ca = np.array([a.get(int(v), 0) for v in values], dtype=float)
    cb = np.array([b.get(int(v), 0) for v in values], dtype=float)
    return values, ca, cb


def mann_whitney_counts(a: dict[int, int], b: dict[int, int]) -> tuple[float, float]:
    """Mann-Whitney U of sample ``a`` against ``b`` given as ``{value: count}``.

    Returns ``(U_a, p)`` with the two-sided asymptotic p-value (tie and continuity
    corrected), equal to ``scipy.stats.mannwhitneyu(x, y, method="asymptotic")``.
    """
    _, ca, cb = _merge_counts(a, b)
    n1, n2 = ca.sum(), cb.sum()
    if n1 == 0 or n2 == 0:
        return (math.nan, math.nan)
    below_b = np.concatenate([[0.0], np.cumsum(cb)[:-1]])
    u1 = float((ca * (below_b + 0.5 * cb)).sum())
    n = n1 + n2
    t = ca + cb
    tie = float((t**3 - t).sum())
    var = n1 * n2 / 12.0 * ((n + 1) - tie / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        return (u1, 1.0)
    mu = n1 * n2 / 2.0
    u = max(u1, n1 * n2 - u1)
    z = (u - mu - 0.5) / math.sqrt(var)
    return (u1, min(1.0, two_sided_p(z) if z > 0 else 1.0))


def kruskal_counts(groups: Sequence[dict[int, int]]) -> tuple[float, int, float]:
    """Kruskal-Wallis H test from per-group ``{value: count}``: ``(H, dof, p)`` (ties
    corrected), equal to ``scipy.stats.kruskal`` on the expanded samples."""
    groups = [g for g in groups if sum(g.values()) > 0]
    if len(groups) < 2:
        return (0.0, 0, 1.0)
    values = sorted(set().union(*[set(g) for g in groups]))
    counts = np.array([[g.get(v, 0) for v in values] for g in groups], dtype=float)
    t = counts.sum(axis=0)
    n = t.sum()
    ranks = np.cumsum(t) - t + (t + 1) / 2.0
    r = (counts * ranks).sum(axis=1)
    ni = counts.sum(axis=1)
    h = 12.0 / (n * (n + 1)) * float((r**2 / ni).sum()) - 3.0 * (n + 1)
    tie = 1.0 - float((t**3 - t).sum()) / (n**3 - n)
    if tie <= 0:
        return (0.0, len(groups) - 1, 1.0)
    h /= tie
    return (float(h), len(groups) - 1, _chi2_sf(float(h), len(groups) - 1))


@dataclass(frozen=True)
class RuleComparison:
    """Result of :func:`compare_rules`.

    ``per_rules``: one row per rules spec (in the order given) with ``games``,
    ``first_score``/``first_low``/``first_high`` (raw), the first move's
    (:class:`~sim.stats.firstmove.FirstMove`) ``first_move_score``, ``first_move_elo``/
    ``_low``/``_high``/``_p``/``_verdict``, ``draw_rate``/``draw_low``/
    ``draw_high``, ``mean_plies``/``mean_low``/``mean_high``, ``sd_plies``,
    ``median_plies``, ``balance``, ``completion``, ``drawishness``, ``rule_draws``,
    ``ply_cap_draws``, ``branching``. ``pairs``: one row per pair of rule sets
    (``rules_a``, ``rules_b``) with ``first_diff`` (+ ``_low``, ``_high``: raw scores),
    ``first_move_diff`` (+ ``_low``, ``_high``, ``_p``: first-move Elo),
    ``draw_diff`` (same), ``mean_plies_diff``, ``length_u``, ``length_p`` (Mann-Whitney),
    ``reasons_chi2``, ``reasons_dof``, ``reasons_p``, and for each test of
    :data:`PAIR_TESTS` its Holm-corrected p-value (``<test>_holm``) and verdict
    (``first_move_diff_significant``, ``draw_diff_significant``, ``length_significant``,
    ``reasons_significant``: corrected p below ``1 - confidence``); ``tests``: how many
    tests that family holds. ``reasons``: games per reason (rows) and rules (columns).
    ``omnibus``: the tests over all rule sets.
    """

    specs: list[str]
    per_rules: pd.DataFrame
    pairs: pd.DataFrame
    reasons: pd.DataFrame
    omnibus: dict[str, dict[str, float]]
    confidence: float
    notes: list[str] = field(default_factory=list)
    tests: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (tables as lists of records)."""
        return {
            "specs": list(self.specs),
            "per_rules": self.per_rules.to_dict("records"),
            "pairs": self.pairs.to_dict("records"),
            "reasons": self.reasons.reset_index().to_dict("records"),
            "omnibus": self.omnibus,
            "confidence": self.confidence,
            "notes": list(self.notes),
            "tests": self.tests,
        }


PAIR_TESTS = ("first_move_diff_p", "draw_diff_p", "length_p", "reasons_p")


def significant_column(test: str) -> str:
    """The verdict column of a pairwise test: ``draw_diff_p`` -> ``draw_diff_significant``."""
    return test.removesuffix("_p") + "_significant"


def correct_pairs(pairs: pd.DataFrame, alpha: float) -> tuple[pd.DataFrame, int]:
    """``pairs`` with each test's Holm-corrected p-value (``<test>_holm``, None where the
    test has no p-value) and its verdict at ``alpha`` (:func:`significant_column`), the
    family being every p-value of :data:`PAIR_TESTS` in every pair; and that family's size."""
    family = [
        {"row": i, "test": test, "p": None if _missing(p) else float(p)}
        for i, r in enumerate(pairs.to_dict("records"))
        for test in PAIR_TESTS
        for p in [r.get(test)]
    ]
    holm(family, alpha)
    out = pairs.copy()
    for test in PAIR_TESTS:
        rows = [e for e in family if e["test"] == test]
        out[f"{test}_holm"] = pd.Series([e["p_holm"] for e in rows], index=out.index, dtype=float)
        out[significant_column(test)] = [e["significant"] for e in rows]
    return out, sum(e["p"] is not None for e in family)


def _missing(p: Any) -> bool:
    return p is None or (isinstance(p, float) and math.isnan(p))


def design_metrics(row: dict[str, Any]) -> dict[str, float]:
    """Ludii-style design metrics from a row of :func:`general_stats_by`."""
    n = row["games"]
    if not n:
        return {
            k: math.nan
            for k in ("balance", "completion", "drawishness", "rule_draws", "ply_cap_draws")
        }
    first = row["first_score"]
    stopped = row.get("reason_ply_cap", 0) + row.get("reason_adjudicated_draw", 0)
    rule_draws = row["draw"] - stopped
    return {
        "balance": 1.0 - abs(first - (1.0 - first)),
        "completion": (row["red"] + row["blue"]) / n,
        "drawishness": rule_draws / n,
        "rule_draws": rule_draws / n,
        "ply_cap_draws": row.get("reason_ply_cap", 0) / n,
    }


def compare_rules(
    con: duckdb.DuckDBPyConnection,
    specs: Sequence[str],
    selection: Selection | None = None,
    confidence: float = 0.95,
    canonicalise: bool = True,
) -> RuleComparison:
    """Compare two or more rules specs over the selected games (the selection's own rules
    filter is replaced by ``specs``). See the module notes for the methods."""
    specs = [canonical_rules(s) if canonicalise else s for s in specs]
    specs = list(dict.fromkeys(specs))
    if len(specs) < 2:
        raise DsqError("compare needs at least two different rules specs")
    sel = (selection or Selection()).with_rules(*specs)
    by = general_stats_by(con, sel, by="rules", confidence=confidence)
    rows = {r["rules"]: r for r in by.to_dict("records")}
    notes = []
    missing = [s for s in specs if s not in rows]
    if missing:
        notes.append("no games for: " + ", ".join(missing))
    lengths: dict[str, dict[int, int]] = {s: {} for s in specs}
    for rules, plies, n in query_rows(
        con, sel, "SELECT rules, plies, sum(games)::BIGINT FROM sel GROUP BY 1, 2", source=CELLS
    ):
        lengths[rules][int(plies)] = int(n)
    pairings: dict[str, set[tuple[str, str]]] = {s: set() for s in specs}
    for rules, red, blue in query_rows(
        con, sel, "SELECT DISTINCT rules, red, blue FROM sel", source=CELLS
    ):
        pairings[rules].add((red, blue))
    present = [s for s in specs if s in rows]
    if len({frozenset(pairings[s]) for s in present}) > 1:
        notes.append("the rule sets were not played by the same bots: differences may be the bots'")

    per = []
    for s in specs:
        r = rows.get(s)
        if r is None:
            per.append({"rules": s, "games": 0})
            continue
        per.append(
            {
                "rules": s,
                "games": r["games"],
                "first_score": r["first_score"],
                "first_low": r["first_low"],
                "first_high": r["first_high"],
                **{k: v for k, v in r.items() if k.startswith("first_move_")},
                "red_rate": r["red_rate"],
                "blue_rate": r["blue_rate"],
                "draw_rate": r["draw_rate"],
                "draw_low": r["draw_low"],
                "draw_high": r["draw_high"],
                "mean_plies": r["mean_plies"],
                "mean_low": r["mean_low"],
                "mean_high": r["mean_high"],
                "sd_plies": r["sd_plies"],
                "median_plies": r["median_plies"],
                **design_metrics(r),
                "branching": r["branching"],
            }
        )
    per_df = pd.DataFrame(per)

    reasons = pd.DataFrame(
        {
            s: [int(rows[s].get(f"reason_{x}", 0)) if s in rows else 0 for x in REASONS]
            for s in specs
        },
        index=pd.Index(REASONS, name="reason"),
    )

    z = z_value(confidence)
    pair_rows = []
    for a, b in combinations(present, 2):
        ra, rb = rows[a], rows[b]
        sa, va = score_variance(ra["red"], ra["draw"], ra["blue"])
        sb, vb = score_variance(rb["red"], rb["draw"], rb["blue"])
        se = math.sqrt(va / ra["games"] + vb / rb["games"])
        diff = sa - sb
        fmd = first_move_difference(
            ra["first_move_elo"], ra["first_move_se"], rb["first_move_elo"], rb["first_move_se"],
            confidence,
        )  # fmt: skip
        dd, dlo, dhi = newcombe_difference(
            ra["draw"], ra["games"], rb["draw"], rb["games"], confidence
        )
        u, p_len = mann_whitney_counts(lengths[a], lengths[b])
        chi, dof, p_reason = chi_square(reasons[[a, b]].to_numpy())
        pair_rows.append(
            {
                "rules_a": a,
                "rules_b": b,
                "first_diff": diff,
                "first_diff_low": diff - z * se,
                "first_diff_high": diff + z * se,
                "first_move_diff": fmd["diff"],
                "first_move_diff_low": fmd["low"],
                "first_move_diff_high": fmd["high"],
                "first_move_diff_p": fmd["p"],
                "draw_diff": dd,
                "draw_diff_low": dlo,
                "draw_diff_high": dhi,
                "draw_diff_p": two_proportion_p(ra["draw"], ra["games"], rb["draw"], rb["games"]),
                "mean_plies_diff": ra["mean_plies"] - rb["mean_plies"],
                "length_u": u,
                "length_p": p_len,
                "reasons_chi2": chi,
                "reasons_dof": dof,
                "reasons_p": p_reason,
            }
        )
    pairs_df, tests = correct_pairs(pd.DataFrame(pair_rows), 1.0 - confidence)

    omnibus: dict[str, dict[str, float]] = {}
    if len(present) >= 2:
        wdl = np.array([[rows[s]["red"], rows[s]["blue"], rows[s]["draw"]] for s in present])
        chi, dof, p = chi_square(wdl.T)
        omnibus["results_chi2"] = {"statistic": chi, "dof": dof, "p": p}
        chi, dof, p = chi_square(reasons[present].to_numpy())
        omnibus["reasons_chi2"] = {"statistic": chi, "dof": dof, "p": p}
        h, dof, p = kruskal_counts([lengths[s] for s in present])
        omnibus["length_kruskal"] = {"statistic": h, "dof": dof, "p": p}
    return RuleComparison(specs, per_df, pairs_df, reasons, omnibus, confidence, notes, tests)
