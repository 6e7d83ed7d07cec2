"""A study's findings: for each rule set's first-move advantage and for each rule set's
effect (against the base, and between the presets) on the draw rate, length and the
first-move advantage, the estimate in every condition, the estimate pooled across
conditions, and a verdict (docs/studies.md, "Findings").

Only self-play cells count (a mixed pairing's first move is confounded with the bots'
gap). Games are counted once: a game repeated move for move within a cell is kept once,
and games void under their rule set's scoring rule are left out (and counted). Effects are
paired: two cells of one condition share their batch seeds, so game ``i`` of round ``k``
starts from the same opening in both, and the effect is the mean of the per-game
differences (common random numbers become power). The first-move effect is the change of
the first player's score, in Elo at the two cells' mean score (delta method).

Three families of tests are each corrected by Holm's method: the first move per cell,
the effects per condition, and the interaction tests (whether a finding depends on an
axis); the pooled estimates' p-values form a fourth family.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sim.stats.multiplicity import holm
from sim.storage.gamesql import FIRST_SIDE_SQL, VOID_SQL
from sim.study.curves import curvature, skill_curves
from sim.study.pooling import AXES, interaction_p, pooled, two_sided_p, verdict

ELO = 400.0 / math.log(10.0)
METRICS = {
    "first_move": "the first-move advantage (Elo)",
    "draw_rate": "the draw rate (percentage points)",
    "plies": "game length (plies)",
}
GAMES_SQL = f"""
SELECT batch_id, game_index,
       CASE WHEN winner = 'draw' THEN 0.5 WHEN winner = {FIRST_SIDE_SQL} THEN 1.0
            ELSE 0.0 END AS points,
       (winner = 'draw')::DOUBLE AS draw, plies::DOUBLE AS plies, {VOID_SQL} AS void,
       hash(start_fen, moves) AS h, moves IS NULL AS unstored
FROM games WHERE batch_id IN (SELECT unnest(?))
"""


def game_frame(con: Any, cells: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per distinct, non-void game of the self-play ``cells``: ``cell``, ``key``
    (round and game index: the pairing key), ``points`` (the first player's), ``draw``,
    ``plies``; ``attrs`` hold each cell's games, void games and repeats."""
    by_batch = {b: c["cell"] for c in cells for b in c["batches"]}
    if not by_batch:
        return pd.DataFrame(columns=["cell", "key", "points", "draw", "plies"])
    df = con.execute(GAMES_SQL, [list(by_batch)]).df()
    df["cell"] = df["batch_id"].map(by_batch)
    df["key"] = df["batch_id"].str.rsplit("-r", n=1).str[1].astype(int) * 1_000_000 + df[
        "game_index"
    ].astype(int)
    counts: dict[int, dict[str, int]] = {}
    for cell, g in df.groupby("cell"):
        dup = g.duplicated("h") & ~g["unstored"]
        counts[int(cell)] = {
            "games": len(g), "void": int(g["void"].sum()), "repeats": int(dup.sum())
        }  # fmt: skip
    keep = ~df["void"].astype(bool) & ~(df.duplicated(["cell", "h"]) & ~df["unstored"])
    out = df.loc[keep, ["cell", "key", "points", "draw", "plies"]].reset_index(drop=True)
    out.attrs["counts"] = counts
    return out


def _level(g: pd.DataFrame, metric: str) -> tuple[float, float, int]:
    """A cell's estimate and standard error of ``metric`` (first move: Elo against 0)."""
    n = len(g)
    if metric == "first_move":
        s = float(g["points"].mean())
        se_s = float(g["points"].std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
        se_s = max(se_s, 1.0 / (2 * n))  # every game the same result: as if one were a draw
        s_c = min(max(s, 0.5 / n), 1 - 0.5 / n)
        return ELO * math.log(s_c / (1 - s_c)), ELO * se_s / (s_c * (1 - s_c)), n
    col = "draw" if metric == "draw_rate" else "plies"
    x = g[col].to_numpy(dtype=float)
    se = float(np.std(x, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    if metric == "draw_rate":
        p = (x.sum() + 0.5) / (n + 1)  # a floor for cells with no draw (or all draws)
        se = max(se, math.sqrt(p * (1 - p) / n))
    se = max(se, 1.0 / (2 * n))
    return float(x.mean()), se, n


def _paired(a: pd.DataFrame, b: pd.DataFrame, metric: str) -> tuple[float, float, int]:
    """The paired effect of cell ``a`` over cell ``b`` on ``metric`` (their games joined by
    round and game index), its standard error and the number of pairs."""
    j = a.merge(b, on="key", suffixes=("_a", "_b"))
    n = len(j)
    if n < 2:
        return math.nan, math.nan, n
    col = {"first_move": "points", "draw_rate": "draw", "plies": "plies"}[metric]
    d = (j[f"{col}_a"] - j[f"{col}_b"]).to_numpy(dtype=float)
    est, se = float(d.mean()), float(np.std(d, ddof=1)) / math.sqrt(n)
    se = max(se, 1.0 / (2 * n))  # identical games in every pair: as if one differed by ½
    if metric == "first_move":
        s = float((j["points_a"].mean() + j["points_b"].mean()) / 2)
        s = min(max(s, 0.5 / n), 1 - 0.5 / n)
        slope = ELO / (s * (1 - s))
        return est * slope, se * slope, n
    return est, se, n


def _axes_of(c: dict[str, Any]) -> dict[str, Any]:
    return {"bots": c.get("family", ""), "level": c.get("rung"),
            "openings": c.get("opening", ""), "seed": c.get("seed_set", 0)}  # fmt: skip


def _condition_key(c: dict[str, Any]) -> tuple[Any, ...]:
    a = _axes_of(c)
    return tuple(a[x] for x in AXES)


def _row(c: dict[str, Any], est: float, se: float, n: int) -> dict[str, Any]:
    """One condition's row of a finding."""
    return {"cell": c["cell"], "condition": c.get("condition", c["pairing"]), **_axes_of(c),
            "est": est, "se": se, "n": n, "p": two_sided_p(est, se)}  # fmt: skip


def study_findings(
    con: Any, cells: list[dict[str, Any]], base: str | None, presets: list[str]
) -> dict[str, Any]:
    """Every finding of a study's report ``cells``: ``first_move`` (one per rule set),
    ``effects`` (each rule set against ``base``, each metric), ``pairwise`` (each pair of
    ``presets``, each metric), each with its rows per condition, its pooled estimate and
    its verdict; ``curves`` (:func:`skill_curves`); ``games`` (per cell: games, void
    games, repeats); ``families`` (the families of tests and their sizes)."""
    selfplay = [c for c in cells if c.get("rung") is not None and c.get("games")]
    frame = game_frame(con, selfplay)
    by_cell = {int(k): g for k, g in frame.groupby("cell")} if len(frame) else {}
    first: list[dict[str, Any]] = []
    for rules in dict.fromkeys(c["rules"] for c in selfplay):
        rows = [_row(c, *_level(by_cell[c["cell"]], "first_move"))
                for c in selfplay
                if c["rules"] == rules and len(by_cell.get(c["cell"], ())) >= 2]  # fmt: skip
        first.append({"rules": rules, "metric": "first_move", "conditions": rows})
    index = {(c["rules"], _condition_key(c)): c for c in selfplay}
    effects = _contrasts(selfplay, index, by_cell, [(r, base) for r in _rules(selfplay, base)])
    pairs = [(a, b) for i, a in enumerate(presets) for b in presets[i + 1 :]]
    pairwise = _contrasts(selfplay, index, by_cell, pairs)
    families = {
        "first move per cell": [r for f in first for r in f["conditions"]],
        "effects per condition": [r for f in effects for r in f["conditions"]],
        "pairwise comparisons per condition": [r for f in pairwise for r in f["conditions"]],
    }
    for rows in families.values():
        holm(rows)
    curves = skill_curves(selfplay, by_cell, _level)
    tests = []
    for f in first + effects + pairwise:
        f["pooled"] = pooled([r["est"] for r in f["conditions"]],
                             [r["se"] for r in f["conditions"]])  # fmt: skip
        f["interactions"] = {}
        for axis in AXES:
            p = interaction_p(f["conditions"], axis)
            if p is not None:
                f["interactions"][axis] = {"p": p}
                tests.append(f["interactions"][axis])
    holm(tests)
    pooled_tests = [f["pooled"] for f in first + effects + pairwise if f["pooled"].get("p")]
    holm(pooled_tests)
    for f in first + effects + pairwise:
        f["verdict"], f["axes"] = verdict(f)
    return {
        "first_move": first,
        "effects": effects,
        "pairwise": pairwise,
        "games": frame.attrs.get("counts", {}),
        "curves": curves,
        "curvature": curvature(curves),
        "families": {
            **{k: len(v) for k, v in families.items()},
            "interaction tests": len(tests),
            "pooled estimates": len(pooled_tests),
        },
    }


def _rules(cells: list[dict[str, Any]], base: str | None) -> list[str]:
    if base is None:
        return []
    return [r for r in dict.fromkeys(c["rules"] for c in cells) if r != base]


def _contrasts(
    cells: list[dict[str, Any]],
    index: dict[tuple[str, tuple[Any, ...]], dict[str, Any]],
    by_cell: dict[int, pd.DataFrame],
    pairs: Sequence[tuple[str, str | None]],
) -> list[dict[str, Any]]:
    out = []
    for a, b in pairs:
        if b is None:
            continue
        for metric in METRICS:
            rows = []
            for c in cells:
                if c["rules"] != a:
                    continue
                other = index.get((b, _condition_key(c)))
                if other is None or c["cell"] not in by_cell or other["cell"] not in by_cell:
                    continue
                est, se, n = _paired(by_cell[c["cell"]], by_cell[other["cell"]], metric)
                if n >= 2:
                    rows.append(_row(c, est, se, n) | {"against_cell": other["cell"]})
            if rows:
                out.append({"rules": a, "against": b, "metric": metric, "conditions": rows})
    return out
