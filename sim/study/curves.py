"""Skill curves: each rule set's figures at every rung of every bot family, pooled over
the rung's conditions, and their curvature: whether a rung's figure departs from the mean
of its two neighbours (at fixed search depths, the parity of the depth; at node budgets,
a bend in a smooth curve)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import pandas as pd

from sim.stats.multiplicity import holm
from sim.study.pooling import Z95, pooled, two_sided_p

METRICS = ("first_move", "draw_rate", "plies")
Level = Callable[[pd.DataFrame, str], tuple[float, float, int]]
DEPTH_RE = re.compile(r"^alphabeta:depth=(\d+),.*time_ms=0,nodes=0,")


def skill_curves(
    selfplay: list[dict[str, Any]], by_cell: dict[int, pd.DataFrame], level: Level
) -> list[dict[str, Any]]:
    """Each rule set's figures at every rung of every family: the draw rate, mean plies
    and first-move Elo, each pooled over the rung's conditions (openings, seed sets), with
    its 95% interval: one entry per (rules, family, rung), in ladder order."""
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for c in selfplay:
        if len(by_cell.get(c["cell"], ())) >= 2:
            groups.setdefault((c["rules"], c.get("family", ""), c["rung"]), []).append(c)
    out = []
    for (rules, family, rung), members in groups.items():
        games = sum(len(by_cell[c["cell"]]) for c in members)
        entry: dict[str, Any] = {"rules": rules, "family": family, "rung": rung,
                                 "bot": members[0]["bots"][0], "games": games}  # fmt: skip
        for metric in METRICS:
            if metric == "draw_rate":
                entry[metric] = pooled_rate([by_cell[c["cell"]]["draw"] for c in members])
                continue
            levels = [level(by_cell[c["cell"]], metric) for c in members]
            entry[metric] = pooled([x[0] for x in levels], [x[1] for x in levels])
        out.append(entry)
    out.sort(key=lambda e: (e["rules"], e["family"], e["rung"]))
    return out


def pooled_rate(columns: list[pd.Series]) -> dict[str, Any]:
    """A rate pooled over cells (each a 0/1 column) on the logit scale, each cell's logit
    of (k + ½) / (n + 1) with its delta-method variance, back to a rate: the value and the
    95% interval stay within 0 and 1 (one cell: its Wilson interval); ``se`` on the rate's
    scale (delta method), τ on the logit scale (``tau_logit``)."""
    if len(columns) == 1:
        # lazy: start-up time (the statistics package)
        from sim.stats.intervals import proportion

        x = columns[0]
        n = len(x)
        p = proportion(int(x.sum()), n)
        r = (float(x.sum()) + 0.5) / (n + 1)
        return {"value": p.rate, "low": p.low, "high": p.high,
                "se": math.sqrt(r * (1 - r) / n), "p": None, "tau": None, "i2": None,
                "conditions": 1}  # fmt: skip
    logits, ses = [], []
    for x in columns:
        n = len(x)
        r = (float(x.sum()) + 0.5) / (n + 1)
        logits.append(math.log(r / (1 - r)))
        ses.append(1.0 / math.sqrt(n * r * (1 - r)))
    out = pooled(logits, ses)
    for key in ("value", "low", "high"):
        out[key] = 1.0 / (1.0 + math.exp(-out[key]))
    v = out["value"]
    out["se"] = out["se"] * v * (1 - v)  # the delta method, back on the rate's scale
    out["tau_logit"], out["tau"], out["p"] = out.get("tau"), None, None
    return out


def fixed_depth(spec: str) -> int | None:
    """The search depth of a fixed-depth alpha-beta spec (no time or node budget)."""
    m = DEPTH_RE.match(spec)
    return int(m.group(1)) if m else None


def curvature(curves: list[dict[str, Any]], metric: str = "draw_rate") -> list[dict[str, Any]]:
    """For each interior rung of each (rules, family) curve: ``metric`` at the rung minus
    the mean of its two neighbours, with its 95% interval and Holm-corrected p-value (one
    family of tests); ``depth`` names the rung's fixed depth where it has one."""
    out: list[dict[str, Any]] = []
    by_line: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in curves:
        by_line.setdefault((e["rules"], e["family"]), []).append(e)
    for (rules, family), line in by_line.items():
        line = sorted(line, key=lambda e: e["rung"])
        for a, b, c in zip(line, line[1:], line[2:], strict=False):
            if b["rung"] != a["rung"] + 1 or c["rung"] != b["rung"] + 1:
                continue
            xa, xb, xc = (x[metric] for x in (a, b, c))
            if any(x.get("value") is None or x.get("se") is None for x in (xa, xb, xc)):
                continue
            est = xb["value"] - (xa["value"] + xc["value"]) / 2
            se = math.sqrt(xb["se"] ** 2 + (xa["se"] ** 2 + xc["se"] ** 2) / 4)
            out.append({"rules": rules, "family": family, "rung": b["rung"], "bot": b["bot"],
                        "depth": fixed_depth(b["bot"]), "metric": metric, "value": est,
                        "low": est - Z95 * se, "high": est + Z95 * se, "se": se,
                        "p": two_sided_p(est, se)})  # fmt: skip
    holm(out)
    return out
