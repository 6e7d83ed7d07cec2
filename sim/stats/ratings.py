"""Ratings of every bot at once: a Bradley-Terry fit on the Elo scale.

Model: bot ``i`` scores ``1 / (1 + 10^((r_j - r_i) / 400))`` on average against ``j``;
a draw counts as half a win and half a loss. The ratings maximise the (quasi-)likelihood
``sum_ij s_ij log p_ij`` over all games (``s_ij`` = points of i against j), found by
Newton's method on the aggregated pair table (one small DuckDB query; the fit is in
numpy). Intervals come from the inverse Fisher information scaled by the Pearson
dispersion (quasi-binomial: draws make scores less variable than wins and losses alone,
as ``statsmodels`` GLM ``scale="X2"``). With ``anchor=None`` the ratings have mean 0
and the covariance is the pseudo-inverse of the information matrix; with an anchor bot
its rating is 0 and the others' intervals are relative to it.

The maximum-likelihood estimate exists exactly when, within each group of bots that met,
the directed graph "i took points from j" (a win or a draw of i against j) is strongly
connected (Ford's condition): it fails when some set of bots scored 100% (or 0%) against
everyone else of its group. Only then does the fit add ``prior_draws`` virtual drawn games
to every pairing that was played (a BayesElo-style prior), and say so in ``note``; a
pairing won in every game is no reason on its own (A beats B, B beats C, C beats A). Bots
that are not connected by games at all cannot be compared; ``note`` says so too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import duckdb
import numpy as np
import pandas as pd

from engine.errors import DsqError
from sim.stats.intervals import z_value
from sim.stats.query import CELLS, Selection, bot_label, matching_bots, query_rows

_LN10_400 = math.log(10.0) / 400.0

_PAIRS = """
SELECT red, blue,
       sum(games)::BIGINT AS games,
       (coalesce(sum(games) FILTER (WHERE winner = 'red'), 0)
        + 0.5 * coalesce(sum(games) FILTER (WHERE winner = 'draw'), 0))::DOUBLE AS red_points,
       coalesce(sum(games) FILTER (WHERE winner = 'draw'), 0)::BIGINT AS draws
FROM sel WHERE red <> blue GROUP BY 1, 2
"""


@dataclass(frozen=True)
class Ratings:
    """Result of :func:`ratings`.

    ``table`` columns: ``bot``, ``rating``, ``error`` (± at the confidence level),
    ``low``, ``high``, ``games``, ``score`` (points / games), ``opponents``; sorted by
    rating, best first. ``covariance`` is indexed by bot.
    """

    table: pd.DataFrame
    covariance: pd.DataFrame
    anchor: str | None
    confidence: float
    games: int
    converged: bool
    prior_draws: float = 0.0
    note: str = ""
    dispersion: float = 1.0
    components: list[list[str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (``table`` as a list of records)."""
        return {
            "table": self.table.to_dict("records"),
            "anchor": self.anchor,
            "confidence": self.confidence,
            "games": self.games,
            "converged": self.converged,
            "prior_draws": self.prior_draws,
            "dispersion": self.dispersion,
            "note": self.note,
        }


def _components(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in edges:
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _mle_exists(n: int, pts: np.ndarray, games: np.ndarray) -> bool:
    """Ford's condition: in the 'took points from' digraph every bot reaches every other
    bot of its component (strong connectivity per component)."""
    took = (pts > 0) & (games > 0)  # took[i, j]: i scored something against j
    for start in range(n):
        # bots reachable from start via "start took points from ..." edges
        seen = {start}
        stack = [start]
        while stack:
            x = stack.pop()
            for y in np.nonzero(took[x])[0]:
                if y not in seen:
                    seen.add(int(y))
                    stack.append(int(y))
        comp_games = games[start] > 0
        if comp_games.any() and len(seen) < _component_size(start, games):
            return False
    return True


def _component_size(start: int, games: np.ndarray) -> int:
    seen = {start}
    stack = [start]
    while stack:
        x = stack.pop()
        for y in np.nonzero(games[x] > 0)[0]:
            if int(y) not in seen:
                seen.add(int(y))
                stack.append(int(y))
    return len(seen)


def _fit(pts: np.ndarray, games: np.ndarray, iters: int = 100) -> tuple[np.ndarray, bool]:
    """Newton's method for the BT log-likelihood in natural units (``b = r * ln10/400``)."""
    n = pts.shape[0]
    b = np.zeros(n)
    converged = False
    for _ in range(iters):
        diff = b[:, None] - b[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (pts - games * p).sum(axis=1)
        w = games * p * (1.0 - p)
        h = np.diag(w.sum(axis=1)) - w
        step = np.linalg.pinv(h) @ grad
        # damp very long steps (far from the optimum the quadratic model is poor)
        m = np.abs(step).max() if n else 0.0
        if m > 2.0:
            step *= 2.0 / m
        b += step
        b -= b.mean()
        if m < 1e-10:
            converged = True
            break
    return b, converged


def resolve_anchor(anchor: str, bots: list[str]) -> str:
    """The one rated bot (of ``bots``) that the bot filter value ``anchor`` names; DsqError
    naming the rated bots when it names none, or several."""

    if not bots:
        raise DsqError(f"anchor bot {bot_label(anchor)!r}: no games between different bots")
    found = matching_bots(anchor, bots)
    if len(found) == 1:
        return found[0]
    if not found:
        rated = ", ".join(bot_label(b) for b in bots)
        raise DsqError(
            f"anchor bot {bot_label(anchor)!r} has no games in the selection; rated bots: {rated}"
        )
    several = ", ".join(bot_label(b) for b in found)
    raise DsqError(f"anchor {anchor!r} names several rated bots ({several}): name one")


def ratings(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    anchor: str | None = None,
    confidence: float = 0.95,
    prior_draws: float = 0.5,
) -> Ratings:
    """Bradley-Terry (Elo scale) maximum-likelihood ratings of every bot in the selection.

    ``anchor``: a bot whose rating is fixed at 0 (``None``: the ratings' mean is 0), named
    as a bot filter is (:func:`sim.stats.query.bot_filter`: a kind names its one rated
    parameter set).
    ``prior_draws``: virtual draws per played pairing, used only when the plain maximum
    likelihood estimate does not exist (Ford's condition fails, :func:`_mle_exists`).
    """
    rows = query_rows(con, selection or Selection(), _PAIRS, source=CELLS)
    bots = sorted({r[0] for r in rows} | {r[1] for r in rows})
    cols = ["bot", "rating", "error", "low", "high", "games", "score", "opponents"]
    if anchor is not None:
        anchor = resolve_anchor(anchor, bots)
    n = len(bots)
    if n < 2:
        empty = pd.DataFrame(columns=cols)
        return Ratings(
            empty, pd.DataFrame(), anchor, confidence, 0, True, note="fewer than two bots"
        )
    ix = {b: i for i, b in enumerate(bots)}
    games = np.zeros((n, n))
    pts = np.zeros((n, n))
    for red, blue, g, red_points, _ in rows:
        i, j = ix[red], ix[blue]
        games[i, j] += g
        games[j, i] += g
        pts[i, j] += red_points
        pts[j, i] += g - red_points
    total_games = int(games.sum() / 2)
    notes = []
    comps = _components(n, [(i, j) for i in range(n) for j in range(n) if games[i, j] > 0])
    if len(comps) > 1:
        notes.append(
            f"the bots form {len(comps)} groups that never met; ratings compare only within a group"
        )
    used_prior = 0.0
    if not _mle_exists(n, pts, games):
        used_prior = float(prior_draws)
        if used_prior <= 0:
            raise DsqError(
                "the maximum-likelihood ratings do not exist (a bot or group won or lost every "
                "game); use prior_draws > 0"
            )
        played = games > 0
        games = games + played * used_prior
        pts = pts + played * used_prior / 2.0
        notes.append(
            f"some bots won or lost every game: the fit adds {used_prior:g} virtual draws "
            "per pairing"
        )
    b, converged = _fit(pts, games)
    # Fisher information and covariance (natural units), then to Elo.
    diff = b[:, None] - b[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    w = games * p * (1.0 - p)
    info = np.diag(w.sum(axis=1)) - w
    if anchor is None:
        cov = np.linalg.pinv(info)
        r = b / _LN10_400
    else:
        k = ix[anchor]
        keep = [i for i in range(n) if i != k]
        sub = info[np.ix_(keep, keep)]
        cov = np.zeros((n, n))
        cov[np.ix_(keep, keep)] = np.linalg.pinv(sub)
        r = (b - b[k]) / _LN10_400
    cov_elo = cov / (_LN10_400**2)
    z = z_value(confidence)
    real_games = np.zeros((n, n))
    real_pts = np.zeros((n, n))
    pearson = 0.0
    for red, blue, g, red_points, draws in rows:
        i, j = ix[red], ix[blue]
        real_games[i, j] += g
        real_games[j, i] += g
        real_pts[i, j] += red_points
        real_pts[j, i] += g - red_points
        # Pearson residuals of this pairing's games (scores 1, 1/2, 0 for red)
        q = float(p[i, j])
        wins = red_points - 0.5 * draws
        losses = g - wins - draws
        pearson += (wins * (1 - q) ** 2 + draws * (0.5 - q) ** 2 + losses * q**2) / (q * (1 - q))
    dof = total_games - (n - len(comps))
    dispersion = pearson / dof if dof > 0 and pearson > 0 else 1.0
    cov_elo = cov_elo * dispersion
    se = np.sqrt(np.clip(np.diag(cov_elo), 0.0, None))
    g_i = real_games.sum(axis=1)
    table = pd.DataFrame(
        {
            "bot": bots,
            "rating": r,
            "error": z * se,
            "low": r - z * se,
            "high": r + z * se,
            "games": g_i.astype(np.int64),
            "score": np.where(g_i > 0, real_pts.sum(axis=1) / np.maximum(g_i, 1), np.nan),
            "opponents": (real_games > 0).sum(axis=1).astype(np.int64),
        }
    )
    table = table.sort_values(["rating", "bot"], ascending=[False, True]).reset_index(drop=True)
    covdf = pd.DataFrame(cov_elo, index=bots, columns=bots)
    if not converged:
        notes.append("the fit did not converge")
    return Ratings(
        table=table,
        covariance=covdf,
        anchor=anchor,
        confidence=confidence,
        games=total_games,
        converged=converged,
        prior_draws=used_prior,
        note="; ".join(notes),
        dispersion=dispersion,
        components=[[bots[i] for i in c] for c in comps],
    )
