"""The figures of one study cell (docs/studies.md defines each; Ludii's name where it has
one): the same statistics functions as ``dsq stats`` over the cell's batches, plus the
design metrics computed here (balance, completion, draws by kind, coverage, endings) and
those of the games' search scores (:mod:`sim.study.score_metrics`). Games void under their
rule set's scoring rule (yeshou's games of 20 plies or fewer) are left out of every figure,
as ``dsq stats`` leaves them out; ``void_games`` counts them.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import numpy as np

from sim.stats import Selection, general_stats, length_histogram
from sim.stats.intervals import proportion, z_value
from sim.stats.query import query_rows
from sim.study.score_metrics import PLIES_SQL, SCORE_METRICS, SCORES_SQL, score_metrics

SQUARES = 63
# Per game: distinct squares entered (a move's destination), and plies for the weighting
# of the branching factor (legal moves per position, over all positions of the cell).
EXTRA_SQL = """
SELECT avg(len(list_distinct(list_transform(moves, lambda m: m % 64))))::DOUBLE,
       sum(branching * plies)::DOUBLE / nullif(sum(plies), 0),
       quantile_cont(plies, 0.25)::DOUBLE, quantile_cont(plies, 0.75)::DOUBLE
FROM sel
"""

METRICS = (
    "first_move_elo",
    "first_move_score",
    "first_player_score",
    "balance",
    "draw_rate",
    "natural_draw_rate",
    "ply_cap_draw_rate",
    "completion",
    "mean_plies",
    "sd_plies",
    "median_plies",
    "branching",
    "coverage",
    "den_rate",
    "capture_all_rate",
    "no_moves_rate",
    "forbidden_7_3",
    "forbidden_17_5",
    *SCORE_METRICS,
)
"""Every per-cell figure by name, in the order tables show them."""


def _num(x: Any) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def _prop(k: int, n: int) -> dict[str, float | None]:
    p = proportion(k, n)
    return {"value": _num(p.rate), "low": _num(p.low), "high": _num(p.high), "count": k}


def fair_balance(n: int, decisive: float) -> float:
    """The expected balance ``1 - |Red's win rate - Blue's win rate|`` of ``n`` games of a
    fair game (Red and Blue as likely to win) whose share of won games is ``decisive``:
    below 1 by the noise of ``n`` games alone (about 0.98 at 1,600 games with no draw)."""
    if n <= 0:
        return math.nan
    # lazy: start-up time (scipy)
    from scipy.special import gammaln
    from scipy.stats import binom

    k = np.arange(1, n + 1)
    m = k // 2 + 1
    # E|red wins - blue wins| of k won games, each Red's with probability 1/2: twice the
    # binomial's mean absolute deviation (de Moivre: m C(k, m) / 2^k, m = floor(k/2) + 1)
    log_c = gammaln(k + 1) - gammaln(m + 1) - gammaln(k - m + 1)
    gap = 2.0 * m * np.exp(log_c - k * math.log(2.0))
    return float(1.0 - (binom.pmf(k, n, decisive) * gap).sum() / n)


def balance(red: int, blue: int, n: int, confidence: float = 0.95) -> dict[str, Any]:
    """``1 - |pR - pB|`` of ``red`` and ``blue`` wins in ``n`` games with its interval (from
    that of ``diff = pR - pB``, normal with the multinomial variance), and ``fair_value``
    (:func:`fair_balance` at the observed share of won games)."""
    pr, pb = red / n, blue / n
    d = pr - pb
    half = z_value(confidence) * math.sqrt(max(pr + pb - d * d, 0.0) / n)
    lo, hi = max(d - half, -1.0), min(d + half, 1.0)
    far = max(abs(lo), abs(hi))
    near = 0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi))
    return {
        "value": 1.0 - abs(d),
        "low": 1.0 - far,
        "high": 1.0 - near,
        "diff": d,
        "diff_low": lo,
        "diff_high": hi,
        "fair_value": fair_balance(n, pr + pb),
    }


def cell_metrics(con: duckdb.DuckDBPyConnection, batches: list[str]) -> dict[str, Any]:
    """Every figure of the games of ``batches`` (one cell), each a dict with ``value`` and,
    where it has one, its 95% interval ``low``/``high``; ``void_games``: the games the
    rules' void rule left out of them."""
    if not batches:
        return {"games": 0, "void_games": 0}
    sel = Selection(batches=tuple(batches))
    g = general_stats(con, sel)
    n = g.games
    if n == 0:
        return {"games": 0, "void_games": g.void}
    fm = g.first_move
    cov, branching, q1, q3 = query_rows(con, sel, EXTRA_SQL)[0]
    reasons = g.reasons
    out: dict[str, Any] = {"games": n, "void_games": g.void}
    out["first_move_elo"] = {
        "value": _num(fm.elo) if fm else None,
        "low": _num(fm.elo_low) if fm else None,
        "high": _num(fm.elo_high) if fm else None,
        "p": _num(fm.p_value) if fm else None,
        "verdict": fm.verdict if fm else None,
    }
    out["first_move_score"] = {
        "value": _num(fm.score) if fm else None,
        "low": _num(fm.low) if fm else None,
        "high": _num(fm.high) if fm else None,
    }
    fp = g.first_player
    out["first_player_score"] = {
        "value": _num(fp.score),
        "low": _num(fp.low),
        "high": _num(fp.high),
        "p": _num(fp.p_value),
    }
    out["balance"] = balance(g.red.count, g.blue.count, n)
    out["draw_rate"] = _prop(g.draw.count, n)
    out["natural_draw_rate"] = _prop(reasons.get("no_capture", 0), n)
    out["ply_cap_draw_rate"] = _prop(reasons.get("ply_cap", 0), n)
    out["completion"] = _prop(g.red.count + g.blue.count, n)
    ln = g.length
    out["mean_plies"] = {"value": _num(ln.mean), "low": _num(ln.low), "high": _num(ln.high)}
    out["sd_plies"] = {"value": _num(ln.sd)}
    out["median_plies"] = {
        "value": _num(ln.median),
        "q1": _num(q1),
        "q3": _num(q3),
        "min": ln.min,
        "max": ln.max,
    }
    hist = length_histogram(con, sel, bins=20)
    out["length_distribution"] = [
        {"start": int(r["start"]), "end": int(r["end"]), "games": int(r["games"])}
        for r in hist.to_dict("records")
    ]
    out["branching"] = {"value": _num(branching)}
    out["coverage"] = {"value": _num(cov / SQUARES) if cov is not None else None}
    for reason in ("den", "capture_all", "no_moves"):
        out[f"{reason}_rate"] = _prop(reasons.get(reason, 0), n)
    plies = query_rows(con, sel, PLIES_SQL)[0][0]
    out.update(score_metrics(query_rows(con, sel, SCORES_SQL), int(plies)))
    return out


def value(metrics: dict[str, Any], name: str) -> float | None:
    """The point value of metric ``name`` of a cell (None when it has none)."""
    m = metrics.get(name)
    if isinstance(m, dict):
        return m.get("value")
    return _num(m) if isinstance(m, (int, float)) else None
