"""The first-move advantage, estimated jointly with the bots' strengths.

Red moves first (or, in a game set up from a FEN, the side to move there: see
``FIRST_SIDE_SQL``), so the raw share of points the first mover took mixes two things: the
first move and which bots moved first. The model separates them (a Bradley-Terry model with
a first-move term, as Elo's home advantage): the first mover's expected score in a game of
bot ``i`` (moving first) against bot ``j`` is ``1 / (1 + exp(-(b_i - b_j + h)))``, a draw
counting half. ``h`` is the first-move term in natural log-odds; it is shown as Elo
(``h * 400 / ln 10``) and as the score the first player would make against an equal
opponent (``logistic(h)``).

Fit (on the games aggregated per (first mover's bot, second mover's bot): W, D, L): the
bots' strengths and ``h`` maximise the points (quasi-)likelihood, as
:mod:`sim.stats.ratings` does (Newton's method on the small aggregated table; no optimiser
library import, which would cost more than the fit). The test
of ``h = 0`` and the interval are score tests: ``z(h) = U(h) / sd(U(h))``, where ``sd`` is
the efficient score's standard deviation (the bots' strengths profiled out) with each game's
score variance ``q (1 - q) - d / 4`` (``q`` its expected score, ``d`` its pairing's observed
draw share). The interval holds every ``h`` with ``|z(h)| <= z_crit``. With one bot on both
sides this is exactly the score test and score interval of :func:`sim.stats.score_estimate`.

``h`` is identified only when the design links it apart from the bots: some pairing was
played in both colours, a bot played itself, or a cycle of pairings does it. When it is not
(each bot only ever played one colour against the others: the first move and the bots'
difference are the same column of the design), :func:`first_move` says so and gives no
estimate and no p-value. See docs/first-move.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

import duckdb
import numpy as np

from sim.stats.intervals import two_sided_p, variance_draw_share, z_value
from sim.stats.query import CELLS, Selection, query_rows
from sim.stats.ratings import _components

ELO_PER_LOGIT = 400.0 / math.log(10.0)
H_MAX = 12.0  # |h| searched, in log-odds (about 2,100 Elo)

# Per (first mover's bot, second mover's bot): the first mover's wins, draws and losses
# (the first mover is Red unless the game began from a FEN with Blue to move).
CELLS_SQL = """
SELECT CASE WHEN first_side = 'red' THEN red ELSE blue END AS first,
       CASE WHEN first_side = 'red' THEN blue ELSE red END AS second,
       coalesce(sum(games) FILTER (WHERE winner = first_side), 0)::BIGINT AS wins,
       coalesce(sum(games) FILTER (WHERE winner = 'draw'), 0)::BIGINT AS draws,
       coalesce(sum(games) FILTER (WHERE winner NOT IN ('draw', first_side)), 0)::BIGINT
           AS losses
FROM sel GROUP BY 1, 2 ORDER BY 1, 2
"""

VERDICTS = ("no_games", "not_identifiable", "first_favoured", "second_favoured", "no_evidence")


@dataclass(frozen=True)
class FirstMove:
    """The first-move advantage of a selection (see the module notes).

    ``score``/``low``/``high``: the first player's expected score against an equal
    opponent with its interval; ``elo``/``elo_low``/``elo_high`` the same on the Elo scale;
    ``z``/``p_value``: the score test of no advantage (``None`` when not identifiable);
    ``se_elo``: a standard error at the estimate (for differences between selections);
    ``verdict``: one of :data:`VERDICTS`; ``pairings``: (red, blue) bot pairs played.
    """

    games: int
    identifiable: bool
    score: float | None
    low: float | None
    high: float | None
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    se_elo: float | None
    z: float | None
    p_value: float | None
    verdict: str
    confidence: float
    pairings: int
    bots: int
    prior_draws: float = 0.0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields."""
        return asdict(self)


def _logistic(x: np.ndarray | float) -> Any:
    return 1.0 / (1.0 + np.exp(-np.asarray(x, dtype=float)))


def _to_score(h: float) -> float:
    return 0.0 if h == -math.inf else 1.0 if h == math.inf else float(_logistic(h))


class _Design:
    """The aggregated games as a design: one row per (red, blue) pairing."""

    def __init__(
        self, cells: list[tuple[str, str, int, int, int]], prior_draws: float, confidence: float
    ):
        bots = sorted({c[0] for c in cells} | {c[1] for c in cells})
        ix = {b: i for i, b in enumerate(bots)}
        n = len(bots)
        self.red = np.array([ix[c[0]] for c in cells], dtype=int)
        self.blue = np.array([ix[c[1]] for c in cells], dtype=int)
        w, d, lo = (np.array([c[k] for c in cells], dtype=float) for k in (2, 3, 4))
        self.games = w + d + lo
        # (a pairing drawn in every game: a bound that lets a decided game be possible)
        self.draw_share = np.array(
            [variance_draw_share(di, gi, confidence) for di, gi in zip(d, self.games, strict=True)]
        )
        self.points = w + 0.5 * d
        self.prior = 0.0
        # a pairing won or lost in every game puts the estimate at infinity: then, as
        # sim.stats.ratings does, every pairing gets a few virtual draws
        if np.any((self.points == 0) | (self.points == self.games)):
            self.prior = float(prior_draws)
            self.games = self.games + self.prior
            self.points = self.points + self.prior / 2.0
        # one bot fixed at 0 per group of bots that met: the others are free parameters
        comps = _components(n, [(int(i), int(j)) for i, j in zip(self.red, self.blue, strict=True)])
        fixed = {c[0] for c in comps}
        self.free = [k for k in range(n) if k not in fixed]
        col = {k: m for m, k in enumerate(self.free)}
        x = np.zeros((len(cells), len(self.free)))
        for r, (i, j) in enumerate(zip(self.red, self.blue, strict=True)):
            if i in col:
                x[r, col[i]] += 1.0
            if j in col:
                x[r, col[j]] -= 1.0
        self.x = x
        self.n_bots = n
        self._start = np.zeros(len(self.free))
        full = np.column_stack([x, np.ones(len(cells))])
        self.identifiable = bool(
            len(cells) > 0 and np.linalg.matrix_rank(full) > np.linalg.matrix_rank(x)
        )

    def fit_bots(self, h: float) -> np.ndarray:
        """The bots' strengths maximising the points likelihood with the first-move term ``h``."""
        self._start = _newton(self.x, self.games, self.points, h, self._start)
        return self._start  # the next h is near: start from here

    def fit_joint(self) -> float:
        """The maximum-likelihood ``h`` of the joint fit (bots and first move together)."""
        full = np.column_stack([self.x, np.ones(len(self.games))])
        sol = _newton(full, self.games, self.points, 0.0, np.append(self._start, 0.0))
        self._start = sol[:-1]
        return float(sol[-1])

    def score_z(self, h: float) -> tuple[float, float, float]:
        """``(U, sd(U), slope)`` of the efficient score of ``h`` at ``h`` (bots profiled
        out); ``slope`` is the efficient information (for a standard error)."""
        b = self.fit_bots(h)
        q = _logistic(self.x @ b + h)
        u = float((self.points - self.games * q).sum())
        w = self.games * q * (1 - q)
        var_game = np.clip(q * (1 - q) - self.draw_share / 4.0, 1e-12, None)
        if self.free:
            x = self.x
            i_bb = (x.T * w) @ x
            i_bh = x.T @ w
            a_b = -np.linalg.lstsq(i_bb, i_bh, rcond=None)[0]
            c = x @ a_b + 1.0
        else:
            c = np.ones(len(q))
        var_u = float((c * c * self.games * var_game).sum())
        info = float((c * c * w).sum())
        return u, math.sqrt(var_u), info


def _newton(
    x: np.ndarray, games: np.ndarray, points: np.ndarray, offset: float, start: np.ndarray
) -> np.ndarray:
    """Newton's method for the points likelihood ``sum p eta - g log(1 + e^eta)`` with
    ``eta = x b + offset`` (concave; steps capped as in :mod:`sim.stats.ratings`)."""
    b = np.array(start, dtype=float)
    if b.size == 0:
        return b
    for _ in range(200):
        q = _logistic(x @ b + offset)
        grad = x.T @ (points - games * q)
        hess = (x.T * (games * q * (1 - q))) @ x
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        m = float(np.abs(step).max())
        if m > 2.0:
            step *= 2.0 / m
        b += step
        if m < 1e-12:
            break
    return b


def _crossing(fun: Any, inside: float, outside: float) -> float:
    """Where ``fun`` (negative at ``inside``, positive at ``outside``) crosses 0: bisection
    to machine precision (60 halvings of at most ``2 * H_MAX``)."""
    for _ in range(60):
        mid = 0.5 * (inside + outside)
        if fun(mid) > 0:
            outside = mid
        else:
            inside = mid
    return 0.5 * (inside + outside)


def _bound(z_of: Any, est: float, zc: float, direction: int) -> float:
    """The end of the interval ``|z(h)| <= zc`` on one side of ``est`` (``-inf``/``inf``
    when it reaches ``H_MAX``)."""
    edge = direction * H_MAX
    if abs(z_of(edge)) <= zc:
        return direction * math.inf
    return _crossing(lambda h: abs(z_of(h)) - zc, est, edge)


def first_move_from_cells(
    cells: Iterable[tuple[str, str, int, int, int]],
    confidence: float = 0.95,
    prior_draws: float = 0.5,
) -> FirstMove:
    """:class:`FirstMove` of games given as ``(red bot, blue bot, wins, draws, losses)``
    per pairing (Red's wins), e.g. the rows of :data:`CELLS_SQL`."""
    cells = [
        (str(r), str(b), int(w), int(d), int(lo))
        for r, b, w, d, lo in cells
        if int(w) + int(d) + int(lo) > 0
    ]
    n = sum(c[2] + c[3] + c[4] for c in cells)
    bots = len({c[0] for c in cells} | {c[1] for c in cells})
    empty: dict[str, Any] = dict(
        games=n, identifiable=False, score=None, low=None, high=None, elo=None,
        elo_low=None, elo_high=None, se_elo=None, z=None, p_value=None,
        confidence=confidence, pairings=len(cells), bots=bots,
    )  # fmt: skip
    if n == 0:
        return FirstMove(verdict="no_games", **empty)
    design = _Design(cells, prior_draws, confidence)
    if not design.identifiable:
        note = "each bot played only one colour against the others: the first move cannot be "
        note += "separated from the bots' strengths"
        return FirstMove(verdict="not_identifiable", note=note, **empty)
    zc = z_value(confidence)

    def z_of(h: float) -> float:
        u, sd, _ = design.score_z(h)
        return u / sd if sd > 0 else math.copysign(math.inf, u)

    est = design.fit_joint()
    est = 0.0 if abs(est) < 1e-9 else est  # an exact balance, less its round-off
    low = _bound(z_of, est, zc, -1)
    high = _bound(z_of, est, zc, 1)
    u0, sd0, _ = design.score_z(0.0)
    z0 = u0 / sd0 if sd0 > 0 else 0.0
    p = two_sided_p(z0)
    se = None
    _, sd_e, info = design.score_z(est)
    if info > 0:
        se = sd_e / info * ELO_PER_LOGIT
    if p >= 1 - confidence:
        verdict = "no_evidence"
    else:
        verdict = "first_favoured" if z0 > 0 else "second_favoured"
    note = ""
    if design.prior:
        note = f"a pairing was won or lost in every game: the fit adds {design.prior:g} "
        note += "virtual draws per pairing"
    return FirstMove(
        games=n,
        identifiable=True,
        score=_to_score(est),
        low=_to_score(low),
        high=_to_score(high),
        elo=est * ELO_PER_LOGIT,
        elo_low=low * ELO_PER_LOGIT,
        elo_high=high * ELO_PER_LOGIT,
        se_elo=se,
        z=z0,
        p_value=p,
        verdict=verdict,
        confidence=confidence,
        pairings=len(cells),
        bots=bots,
        prior_draws=design.prior,
        note=note,
    )


def first_move(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    confidence: float = 0.95,
) -> FirstMove:
    """The first-move advantage of the selected games, fitted jointly with the bots'
    strengths on the games aggregated per (red bot, blue bot) in one DuckDB query."""
    rows = query_rows(con, selection or Selection(), CELLS_SQL, source=CELLS)
    return first_move_from_cells(rows, confidence)


def first_move_by(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    column: str = "rules",
    confidence: float = 0.95,
) -> dict[str, FirstMove]:
    """:func:`first_move` per value of ``column`` (``rules`` or ``batch_id``), one query."""
    if column not in ("rules", "batch_id"):
        raise ValueError(f"cannot group the first move by {column!r}")
    sql = CELLS_SQL.replace("SELECT CASE", f"SELECT {column} AS key, CASE", 1).replace(
        "GROUP BY 1, 2 ORDER BY 1, 2", "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
    )
    groups: dict[str, list[tuple[str, str, int, int, int]]] = {}
    rows = query_rows(con, selection or Selection(), sql, source=CELLS)
    for key, red, blue, wins, draws, losses in rows:
        groups.setdefault(str(key), []).append((red, blue, wins, draws, losses))
    return {k: first_move_from_cells(v, confidence) for k, v in groups.items()}


def first_move_difference(
    elo_a: float | None,
    se_a: float | None,
    elo_b: float | None,
    se_b: float | None,
    confidence: float = 0.95,
) -> dict[str, float | None]:
    """First-move Elo ``a - b`` (two selections' :attr:`FirstMove.elo` and
    :attr:`FirstMove.se_elo`) with a normal interval and p-value; ``None`` values where
    either is not identified or not finite."""
    out: dict[str, float | None] = {"diff": None, "low": None, "high": None, "p": None}
    vals = (elo_a, se_a, elo_b, se_b)
    if any(v is None or not math.isfinite(v) for v in vals):
        return out
    diff = float(elo_a) - float(elo_b)  # type: ignore[arg-type]
    se = math.hypot(float(se_a), float(se_b))  # type: ignore[arg-type]
    zc = z_value(confidence)
    out.update(diff=diff, low=diff - zc * se, high=diff + zc * se)
    out["p"] = two_sided_p(diff / se) if se > 0 else None
    return out
