"""The Studies page's findings: the skill curves of a rule set (one line per bot family,
each rung's figure with its 95% interval) and the verdict table."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.charts import layout
from dashboard.lang import lang, nf, t
from sim.study.findings_text import finding_rows, subject

CURVE_METRICS = ("draw_rate", "plies", "first_move")


def curve_chart(rep: dict[str, Any], rules: str, metric: str) -> go.Figure | None:
    """``metric`` at every rung under ``rules``: one line per family, error bars at 95%."""
    entries = [e for e in (rep.get("findings") or {}).get("curves", []) if e["rules"] == rules]
    if not entries:
        return None
    k = 100.0 if metric == "draw_rate" else 1.0
    fig = go.Figure()
    for family in dict.fromkeys(e["family"] for e in entries):
        es = sorted((e for e in entries if e["family"] == family), key=lambda e: e["rung"])
        xs = [e[metric] for e in es]
        fig.add_trace(
            go.Scatter(
                x=[e["rung"] for e in es],
                y=[x["value"] * k for x in xs],
                mode="lines+markers",
                name=family or t("studies.ladder"),
                text=[e["bot"] for e in es],
                hovertemplate="%{text}<br>%{y:.2f}<extra></extra>",
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [(x["high"] - x["value"]) * k for x in xs],
                    "arrayminus": [(x["value"] - x["low"]) * k for x in xs],
                },
            )
        )
    fig.update_layout(
        **layout(
            lang(),
            height=380,
            xaxis_title=t("studies.rung"),
            yaxis_title=t(f"studies.curve_{metric}"),
        )  # fmt: skip
    )
    fig.update_xaxes(dtick=1)
    return fig


def verdict_frame(rep: dict[str, Any]) -> pd.DataFrame:
    """The findings as display rows: subject, pooled estimate and interval, τ, I²,
    conditions and verdict (with the axes it depends on)."""
    n = nf()
    f = rep.get("findings") or {}
    items = f.get("first_move", []) + f.get("effects", []) + f.get("pairwise", [])
    rows = []
    for x, raw in zip(items, finding_rows(rep), strict=True):
        rows.append(
            {
                t("studies.col_finding"): subject(x),
                t("studies.col_pooled"): n.num(raw["estimate"], 1),
                t("studies.col_interval"): n.interval(raw["low"], raw["high"], "num"),
                t("studies.col_unit"): raw["unit"],
                "τ": n.num(raw["tau"], 1),
                "I²": n.pct(raw["i2"]),
                t("studies.col_conditions"): n.count(raw["conditions"]),
                t("studies.col_verdict"): t(f"studies.verdict_{raw['verdict'].replace(' ', '_')}")
                + (f": {raw['axes']}" if raw["axes"] else ""),
            }
        )
    return pd.DataFrame(rows)
