"""The effects of a grid's options on the figures, from regressions over every game.

For each pairing (a rung of the ladder, or a mixed pairing) the games of the grid's cells
are regressed on one indicator per option value that differs from the base (and, when the
study asks, the products of two indicators: two-way interactions):

- the first-move advantage: a logistic regression of Red's points (1, ½, 0; a fractional
  logit, quasi-likelihood with robust HC0 standard errors; Red moves first from the
  initial position), the effect in Elo (the coefficient × 400 / ln 10, Wald interval). The
  bots' strengths are not in the model: in a mixed pairing it is the change of the logit
  of Red's points over both colourings, smaller than the change of the fitted edge;
- the draw rate (natural draws and ply-cap draws together) and the den-win rate: linear
  probability models with robust (HC1) standard errors, the effect the change of the rate
  in percentage points. A logistic fit is not used for rates: a cell where no game (or
  every game) was drawn separates the data, and the logit's Wald intervals then collapse
  (a 1-in-20 against 0-in-20 difference came out "significant"); the linear model's
  robust interval is the plain difference of proportions' interval there;
- game length: a linear regression of plies with robust (HC1) standard errors, the effect
  in plies, and a rank-based check (Mann-Whitney of the option's cells against the base).

The p-values of every test of the study are corrected together by Holm's method; a
sentence is written for each effect significant after the correction.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from sim.stats.multiplicity import holm

ELO_PER_LOGIT = 400.0 / math.log(10.0)
OUTCOMES = {
    "first_move_elo": ("elo", "the first-move advantage"),
    "draw_rate": ("points", "the draw rate"),
    "den_rate": ("points", "den wins"),
    "mean_plies": ("plies", "game length"),
}
GAMES_SQL = """
SELECT batch_id, CASE winner WHEN 'red' THEN 1.0 WHEN 'draw' THEN 0.5 ELSE 0.0 END AS points,
       (winner = 'draw')::INT AS draw, (reason = 'den')::INT AS den, plies::DOUBLE AS plies
FROM games WHERE batch_id IN (SELECT unnest(?)) ORDER BY batch_id, game_index
"""


def _term(option: str, value: Any) -> str:
    if isinstance(value, bool):
        return option if value else f"{option}=false"
    return f"{option}={value}"


def design_frame(con: Any, cells: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per game of ``cells`` (each with ``batches`` and ``options``): the outcomes
    and one 0/1 column per option value away from the base."""
    by_batch = {b: c for c in cells for b in c["batches"]}
    if not by_batch:
        return pd.DataFrame()
    df = con.execute(GAMES_SQL, [list(by_batch)]).df()
    terms = sorted({_term(o, v) for c in cells for o, v in c["options"].items()})
    for t in terms:
        on = {b for b, c in by_batch.items() if t in {_term(o, v) for o, v in c["options"].items()}}
        df[t] = df["batch_id"].isin(on).astype(float)
    df.attrs["terms"] = terms
    return df


def _p(p: float) -> float | None:
    """A p-value, or None when the fit could not give one (no variance)."""
    return None if p is None or math.isnan(float(p)) else float(p)


def _fit(df: pd.DataFrame, outcome: str, kind: str, cols: list[str]) -> list[dict[str, Any]]:
    # (the model modules alone: statsmodels.api imports every model and costs seconds)
    # lazy: start-up time (statsmodels, only when a grid's effects are asked for)
    from scipy.stats import mannwhitneyu
    from statsmodels.discrete.discrete_model import Logit
    from statsmodels.regression.linear_model import OLS

    x = np.column_stack([np.ones(len(df)), df[cols].to_numpy()])
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "points":
            res = OLS(df[outcome].to_numpy(), x).fit(cov_type="HC1")
            ci = res.conf_int()
            return [
                {"effect": float(res.params[i]), "low": float(ci[i][0]),
                 "high": float(ci[i][1]), "p": _p(res.pvalues[i])}
                for i in range(1, len(cols) + 1)
            ]  # fmt: skip
        if kind == "plies":
            res = OLS(df[outcome].to_numpy(), x).fit(cov_type="HC1")
            ci = res.conf_int()
            for i, c in enumerate(cols, start=1):
                base = df.loc[df[cols].sum(axis=1) == 0, outcome]
                alone = df.loc[(df[c] == 1) & (df[cols].sum(axis=1) == 1), outcome]
                rank_p = (
                    float(mannwhitneyu(alone, base).pvalue) if len(alone) and len(base) else None
                )
                out.append(
                    {
                        "effect": float(res.params[i]),
                        "low": float(ci[i][0]),
                        "high": float(ci[i][1]),
                        "p": _p(res.pvalues[i]),
                        "rank_p": rank_p,
                    }
                )
            return out
        y = df["points" if kind == "elo" else outcome].to_numpy()
        if y.min() == y.max():
            return [
                {
                    "effect": None,
                    "low": None,
                    "high": None,
                    "p": None,
                    "note": "every game has the same outcome",
                }
                for _ in cols
            ]
        res = Logit(y, x).fit(disp=0, cov_type="HC0", maxiter=100)
        if kind == "elo":
            ci = res.conf_int()
            for i, _c in enumerate(cols, start=1):
                out.append(
                    {
                        "effect": float(res.params[i]) * ELO_PER_LOGIT,
                        "low": float(ci[i][0]) * ELO_PER_LOGIT,
                        "high": float(ci[i][1]) * ELO_PER_LOGIT,
                        "p": _p(res.pvalues[i]),
                    }
                )
            return out
    return out


def grid_effects(
    con: Any, cells_by_pairing: dict[str, list[dict[str, Any]]], interactions: bool = False
) -> list[dict[str, Any]]:
    """Every option's effect on every outcome of :data:`OUTCOMES`, per pairing, with Holm-
    corrected p-values (``p_holm``), a ``significant`` flag and a ``sentence``."""
    effects: list[dict[str, Any]] = []
    for pairing, cells in cells_by_pairing.items():
        df = design_frame(con, cells)
        if df.empty or not df.attrs["terms"]:
            continue
        terms = [t for t in df.attrs["terms"] if df[t].nunique() > 1]
        cols = list(terms)
        if interactions:
            for i, a in enumerate(terms):
                for b in terms[i + 1 :]:
                    prod = df[a] * df[b]
                    if prod.nunique() > 1 and not (prod == df[a]).all():
                        df[f"{a} × {b}"] = prod
                        cols.append(f"{a} × {b}")
        if not cols:
            continue
        for outcome, (kind, _what) in OUTCOMES.items():
            column = {"draw_rate": "draw", "den_rate": "den", "mean_plies": "plies"}.get(outcome)
            try:
                fits = _fit(df, column or "points", kind, cols)
            except (np.linalg.LinAlgError, ValueError) as exc:
                fits = [
                    {
                        "effect": None,
                        "low": None,
                        "high": None,
                        "p": None,
                        "note": f"fit failed: {exc}",
                    }
                    for _ in cols
                ]
            for term, fit in zip(cols, fits, strict=True):
                effects.append(
                    {
                        "pairing": pairing,
                        "term": term,
                        "metric": outcome,
                        "unit": kind,
                        "games": int(len(df)),
                        **fit,
                    }
                )
    holm(effects)
    for e in effects:
        e["sentence"] = sentence(e) if e.get("significant") else None
    return effects


def sentence_parts(e: dict[str, Any]) -> dict[str, Any]:
    """What an effect's sentence says, as numbers and names: ``term``, ``pairing``,
    ``metric``, ``unit`` (``plies``, ``elo``, ``points``: percentage points), ``up``
    (whether the option raises the figure) and ``size``, ``low``, ``high``: the size of the
    change and its interval's bounds, nearer first, in that unit (the pages write them in
    their language; :func:`sentence` in English)."""
    lo, hi, x = e["low"], e["high"], e["effect"]
    k = 100.0 if e["unit"] == "points" else 1.0
    a, b = sorted((abs(lo) * k, abs(hi) * k))
    return {"term": e["term"], "pairing": e["pairing"], "metric": e["metric"],
            "unit": e["unit"], "up": x > 0, "size": abs(x) * k, "low": a, "high": b}  # fmt: skip


def effects_tally(effects: list[dict[str, Any]]) -> tuple[int, int]:
    """How many of a study's effects are significant after Holm's correction, and how
    many effects there are: ``9 of 24 significant``."""
    return sum(bool(e.get("significant")) for e in effects), len(effects)


def sentence(e: dict[str, Any]) -> str:
    """One plain sentence for an effect, e.g. "`rule_17_5` shortens games by 31 plies
    [22, 40] at alphabeta:depth=4"."""
    s = sentence_parts(e)
    if s["unit"] == "plies":
        verb = "lengthens games" if s["up"] else "shortens games"
        size = f"{s['size']:.0f} plies [{s['low']:.0f}, {s['high']:.0f}]"
    elif s["unit"] == "elo":
        verb = ("raises" if s["up"] else "lowers") + " the first-move advantage"
        size = f"{s['size']:.0f} Elo [{s['low']:.0f}, {s['high']:.0f}]"
    else:
        verb = ("raises " if s["up"] else "lowers ") + OUTCOMES[e["metric"]][1]
        size = f"{s['size']:.1f} percentage points [{s['low']:.1f}, {s['high']:.1f}]"
    return f"`{e['term']}` {verb} by {size} at {e['pairing']}"
