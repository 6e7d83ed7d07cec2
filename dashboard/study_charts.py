"""The Studies page's figures, drawn from a study's report (:mod:`sim.study`): the heat
map of a figure over the cells, the options' effects as a forest plot, the skill curves
(one line per bot family, each rung's figure with its 95% interval), and the report's
tables (verdicts, effects, skill depth, the draw rate's curvature) as display rows."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.charts import TOP_LEGEND, layout
from dashboard.lang import lang, nf, t
from dashboard.study_texts import (
    DIGITS,
    condition_label,
    pairing_label,
    subject_label,
    unit_label,
    verdict_label,
)
from sim.bots.spec import short_spec
from sim.study.findings_text import finding_rows
from sim.study.heat import NEUTRAL, heat_cells, heat_tally

CURVE_METRICS = ("draw_rate", "plies", "first_move")
# How each figure of a cell is written (the rest: a number with one decimal).
SHARES = {"first_move_score", "first_player_score", "balance", "draw_rate", "natural_draw_rate",
          "ply_cap_draw_rate", "completion", "coverage", "den_rate", "capture_all_rate",
          "no_moves_rate", "forbidden_7_3", "forbidden_17_5", "lead_change", "swing",
          "scored_share"}  # fmt: skip
WHOLE = {"first_move_elo": "signed", "mean_plies": "num", "median_plies": "num", "sd_plies": "num"}
MARK = " *"


def figure_text(metric: str, x: float | None) -> str:
    """A cell's figure, rounded as it can be read: Elo and plies whole, shares in percent
    with one decimal, other numbers with one decimal."""
    n = nf()
    if metric in SHARES:
        return n.pct(x)
    form = WHOLE.get(metric)
    if form == "signed":
        return n.signed(x, 0)
    return n.num(x, 0 if form else 1)


def _bounds(metric: str, low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return ""
    n = nf()
    if metric in SHARES:
        return n.interval(low, high, "pct")
    return n.interval(low, high, "signed" if metric == "first_move_elo" else "num", 0)


def heat_map(rep: dict[str, Any], metric: str) -> tuple[go.Figure, dict[str, int]] | None:
    """``metric`` of every cell, rule sets down and conditions across, each square with
    its rounded figure (``*``: its interval excludes the neutral value) and its interval
    and games on hover; a figure with a neutral value diverges from it (white), the colour
    scale symmetric around it. None when no cell has the figure."""
    entries = heat_cells(rep["cells"], metric)
    if all(e["value"] is None for e in entries):
        return None
    by_cell = {c["cell"]: c for c in rep["cells"]}
    rules = list(dict.fromkeys(e["rules"] for e in entries))
    conditions = list(dict.fromkeys(condition_label(by_cell[e["cell"]]) for e in entries))
    z: list[list[float | None]] = [[None] * len(conditions) for _ in rules]
    words = [[""] * len(conditions) for _ in rules]
    hover = [[""] * len(conditions) for _ in rules]
    n = nf()
    for e in entries:
        i, j = rules.index(e["rules"]), conditions.index(condition_label(by_cell[e["cell"]]))
        z[i][j] = e["value"]
        if e["value"] is None:
            continue
        words[i][j] = figure_text(metric, e["value"]) + (MARK if e["excludes_neutral"] else "")
        games = t("study.games", games=n.count(e["games"]))
        p = f" · {n.p_value(e['p_holm'])} (Holm)" if e["p_holm"] is not None else ""
        hover[i][j] = (
            f"{figure_text(metric, e['value'])} {_bounds(metric, e['low'], e['high'])}"
            f"<br>{games}{p}"
        )
    centre = NEUTRAL.get(metric)
    scale: dict[str, Any] = {"colorscale": "Viridis"}
    if centre is not None:
        far = max(abs(v - centre) for row in z for v in row if v is not None) or 1.0
        scale = {"colorscale": "RdBu_r", "zmid": centre, "zmin": centre - far,
                 "zmax": centre + far}  # fmt: skip
    fig = go.Figure(
        go.Heatmap(
            z=z, x=conditions, y=rules, text=words, texttemplate="%{text}", customdata=hover,
            hovertemplate="%{y}<br>%{x}<br>%{customdata}<extra></extra>", xgap=1, ygap=1,
            colorbar={"title": {"text": t(f"studies.metric_{metric}"), "side": "right"}},
            **scale,
        )
    )  # fmt: skip
    if metric in SHARES:
        fig.update_traces(colorbar_tickformat=".0%")
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    fig.update_xaxes(type="category", automargin=True)
    fig.update_layout(**layout(lang(), height=max(320, 40 * len(rules) + 160)))
    return fig, heat_tally(entries)


def forest(effects: list[dict[str, Any]], metric: str) -> go.Figure | None:
    """The effects on ``metric``: one row per option, one marker with its interval per
    pairing, the pairings of a row side by side (dodged), a dotted line at no effect."""
    rows = [e for e in effects if e["metric"] == metric and e.get("effect") is not None]
    if not rows:
        return None
    terms = list(dict.fromkeys(e["term"] for e in rows))
    pairings = list(dict.fromkeys(e["pairing"] for e in rows))
    k = 100.0 if rows[0]["unit"] == "points" else 1.0
    step = 0.7 / max(len(pairings), 1)
    fig = go.Figure()
    n = nf()
    for j, pairing in enumerate(pairings):
        es = [e for e in rows if e["pairing"] == pairing]
        offset = (j - (len(pairings) - 1) / 2) * step
        label = pairing_label(pairing)
        fig.add_trace(
            go.Scatter(
                x=[e["effect"] * k for e in es],
                y=[terms.index(e["term"]) + offset for e in es],
                mode="markers",
                name=label,
                customdata=[[e["term"], n.p_value(e.get("p_holm"))] for e in es],
                hovertemplate="%{customdata[0]} · " + label
                + "<br>%{x:.1f} · %{customdata[1]} (Holm)<extra></extra>",
                error_x={"type": "data", "symmetric": False,
                         "array": [(e["high"] - e["effect"]) * k for e in es],
                         "arrayminus": [(e["effect"] - e["low"]) * k for e in es]},
            )
        )  # fmt: skip
    fig.add_vline(x=0, line_dash="dot")
    fig.update_yaxes(tickvals=list(range(len(terms))), ticktext=terms, autorange="reversed",
                     automargin=True, range=[len(terms) - 0.5, -0.5])  # fmt: skip
    height = max(320, 60 * len(terms) * max(1, len(pairings) // 2) + 160)
    title = t(f"studies.metric_{metric}") + (f" ({t('study.unit_points')})" if k != 1 else "")
    fig.update_layout(**layout(lang(), height=height, xaxis_title=title, legend=TOP_LEGEND))
    return fig


def curve_chart(rep: dict[str, Any], rules: str, metric: str) -> go.Figure | None:
    """``metric`` at every rung under ``rules``: one line per family, error bars at 95%."""
    entries = [e for e in (rep.get("findings") or {}).get("curves", []) if e["rules"] == rules]
    entries = [e for e in entries if (e.get(metric) or {}).get("value") is not None]
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
                text=[short_spec(e["bot"]) for e in es],
                hovertemplate="%{text}<br>%{y:.1f}<extra></extra>",
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
            legend=TOP_LEGEND,
        )  # fmt: skip
    )
    fig.update_xaxes(dtick=1)
    return fig


def verdict_frame(rep: dict[str, Any]) -> pd.DataFrame:
    """The findings as display rows: subject, pooled estimate and interval, τ, I²,
    conditions, the pooled p-value after Holm and the verdict (with the axes it depends
    on)."""
    n = nf()
    f = rep.get("findings") or {}
    items = f.get("first_move", []) + f.get("effects", []) + f.get("pairwise", [])
    rows = []
    for x, raw in zip(items, finding_rows(rep), strict=True):
        rows.append(
            {
                t("studies.col_finding"): subject_label(x),
                t("studies.col_pooled"): n.num(raw["estimate"], 1),
                t("studies.col_interval"): n.interval(raw["low"], raw["high"], "num"),
                t("studies.col_unit"): unit_label(raw["unit"]),
                "τ": n.num(raw["tau"], 1),
                "I²": n.pct(raw["i2"], 0),
                t("studies.col_conditions"): n.count(raw["conditions"]),
                t("study.col_p_holm"): n.p_text(raw["p_holm"]),
                t("studies.col_verdict"): verdict_label(raw["verdict"], raw["axes"]),
            }
        )
    return pd.DataFrame(rows)


def effects_frame(effects: list[dict[str, Any]]) -> pd.DataFrame:
    """Every effect of the grid's options: option, pairing, figure, the effect with its
    95% interval (Elo, percentage points, plies), its p-value and Holm's."""
    n = nf()
    rows = []
    for e in effects:
        k = 100.0 if e["unit"] == "points" else 1.0
        d = DIGITS[e["unit"]] if e["unit"] != "points" else 1
        has = e.get("effect") is not None
        rows.append(
            {
                t("study.col_option"): e["term"],
                t("studies.col_pairing"): pairing_label(e["pairing"]),
                t("study.col_figure"): t(f"studies.metric_{e['metric']}"),
                t("study.col_effect"): n.signed(e["effect"] * k, d) if has else "-",
                t("studies.col_interval"): n.interval(e["low"] * k, e["high"] * k, "signed", d)
                if has
                else "-",
                t("study.col_unit"): unit_label(e["unit"]),
                t("study.col_p"): n.p_text(e.get("p")),
                t("study.col_p_holm"): n.p_text(e.get("p_holm")),
            }
        )
    return pd.DataFrame(rows)


def depth_frame(rep: dict[str, Any]) -> pd.DataFrame:
    """The skill depth under each rule set that has one: the Elo of the strongest rung
    above the weakest, its 95% interval and the games of the mixed pairings."""
    n = nf()
    rows = []
    for e in rep.get("ladder", []):
        if e.get("value") is None:
            continue
        rows.append(
            {
                t("studies.col_rules"): e["rules"],
                t("study.col_weakest"): e["low"],
                t("study.col_strongest"): e["high"],
                t("study.col_depth"): n.signed(e["value"], 0),
                t("studies.col_interval"): n.interval(e["low_ci"], e["high_ci"], "signed", 0),
                t("studies.col_games"): n.count(e["games"]),
            }
        )
    return pd.DataFrame(rows)


def curvature_frame(rep: dict[str, Any]) -> pd.DataFrame:
    """For each interior rung: its draw rate minus its two neighbours' mean (percentage
    points, 95% interval) and the p-value after Holm over these tests."""
    n = nf()
    rows = []
    for x in (rep.get("findings") or {}).get("curvature", []):
        rows.append(
            {
                t("studies.col_rules"): x["rules"],
                t("study.col_family"): x["family"] or t("studies.ladder"),
                t("study.col_bot"): short_spec(x["bot"]),
                t("study.col_departure"): n.signed(x["value"] * 100, 1),
                t("studies.col_interval"): n.interval(x["low"] * 100, x["high"] * 100, "signed"),
                t("study.col_p_holm"): n.p_text(x.get("p_holm")),
            }
        )
    return pd.DataFrame(rows)


EFFECT_FIGURES = ["term", "pairing", "metric", "unit", "effect", "low", "high", "p", "p_holm"]
DEPTH_FIGURES = ["rules", "low", "high", "value", "low_ci", "high_ci", "games"]
CURVATURE_FIGURES = ["rules", "family", "bot", "value", "low", "high", "p", "p_holm"]


def effects_figures(effects: list[dict[str, Any]]) -> pd.DataFrame:
    """The effects as figures (the CSV of their table): raw values, points as fractions."""
    frame = pd.DataFrame([{k: e.get(k) for k in EFFECT_FIGURES} for e in effects])
    return frame.reindex(columns=EFFECT_FIGURES).assign(level=0.95)


def depth_figures(rep: dict[str, Any]) -> pd.DataFrame:
    """The skill depth as figures: weakest and strongest rung, Elo and its 95% interval."""
    rows = [{k: e.get(k) for k in DEPTH_FIGURES} for e in rep.get("ladder", [])
            if e.get("value") is not None]  # fmt: skip
    frame = pd.DataFrame(rows).reindex(columns=DEPTH_FIGURES)
    names = {"low": "weakest", "high": "strongest", "value": "elo", "low_ci": "low",
             "high_ci": "high"}  # fmt: skip
    return frame.rename(columns=names).assign(level=0.95)


def curvature_figures(rep: dict[str, Any]) -> pd.DataFrame:
    """The curvature tests as figures: draw-rate departures as fractions, 95% intervals."""
    rows = [{k: x.get(k) for k in CURVATURE_FIGURES}
            for x in (rep.get("findings") or {}).get("curvature", [])]  # fmt: skip
    return pd.DataFrame(rows).reindex(columns=CURVATURE_FIGURES).assign(level=0.95)
