"""Studies: a recorded study's figures as a heat map over rule sets × pairings, the grid
options' effects as a forest plot, and the cells' table (links to their batches, CSV)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.charts import layout
from dashboard.lang import lang, nf, t
from dashboard.loaders import data_dir, dataset
from dashboard.study_charts import CURVE_METRICS, curve_chart, verdict_frame
from dashboard.tables import show_table
from dashboard.urlstate import keep
from engine.errors import DsqError
from sim.study.findings_text import curve_rows, finding_rows
from sim.study.metrics import METRICS, value
from sim.study.report import build_report, cells_frame
from sim.study.run import recorded_studies, recorded_study

EFFECT_METRICS = ("first_move_elo", "draw_rate", "den_rate", "mean_plies")


@st.cache_data(max_entries=8, show_spinner=False)
def _report(folder: str, fingerprint: str, name: str) -> dict[str, Any]:
    return build_report(recorded_study(Path(folder), name), folder)


def _condition(c: dict[str, Any]) -> str:
    """A cell's condition: its pairing, with family, openings and seed set where the study
    has those axes."""
    return str(c.get("condition") or c["pairing"])


def heat_map(rep: dict[str, Any], metric: str) -> go.Figure:
    """``metric`` of every cell: rule sets down, pairings across."""
    rules = list(dict.fromkeys(c["rules"] for c in rep["cells"]))
    pairings = list(dict.fromkeys(_condition(c) for c in rep["cells"]))
    z: list[list[float | None]] = [[None] * len(pairings) for _ in rules]
    for c in rep["cells"]:
        z[rules.index(c["rules"])][pairings.index(_condition(c))] = value(c, metric)
    text = [[nf().num(v, 3) if v is not None else "" for v in row] for row in z]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=pairings,
            y=rules,
            text=text,
            texttemplate="%{text}",
            colorscale="RdBu_r" if metric == "first_move_elo" else "Viridis",
            hovertemplate="%{y}<br>%{x}<br>%{text}<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(**layout(lang(), height=max(320, 28 * len(rules) + 120)))
    return fig


def forest(effects: list[dict[str, Any]], metric: str) -> go.Figure | None:
    """The effects on ``metric``, one marker with its interval per option and pairing."""
    rows = [e for e in effects if e["metric"] == metric and e.get("effect") is not None]
    if not rows:
        return None
    fig = go.Figure()
    for pairing in dict.fromkeys(e["pairing"] for e in rows):
        es = [e for e in rows if e["pairing"] == pairing]
        fig.add_trace(
            go.Scatter(
                x=[e["effect"] for e in es],
                y=[e["term"] for e in es],
                mode="markers",
                name=pairing,
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": [e["high"] - e["effect"] for e in es],
                    "arrayminus": [e["effect"] - e["low"] for e in es],
                },
            )
        )
    fig.add_vline(x=0, line_dash="dot")
    fig.update_yaxes(autorange="reversed")
    height = max(320, 22 * len({e["term"] for e in rows}) + 160)
    fig.update_layout(**layout(lang(), height=height, xaxis_title=t(f"studies.metric_{metric}")))
    return fig


def cells_table(rep: dict[str, Any]) -> pd.DataFrame:
    """The cells as display rows, each with a link to its batches on the Games page."""
    n = nf()
    rows = []
    for c in rep["cells"]:
        fm = c.get("first_move_elo") or {}
        rows.append(
            {
                t("studies.col_rules"): c["rules"],
                t("studies.col_pairing"): _condition(c),
                t("studies.col_games"): n.count(c["games"]),
                t("studies.col_first_move"): n.signed(fm.get("value")),
                t("studies.col_first_move_ci"): n.interval(fm.get("low"), fm.get("high"), "signed"),
                t("studies.col_draws"): n.pct(value(c, "draw_rate")),
                t("studies.col_plies"): n.num(value(c, "mean_plies")),
                t("studies.col_batches"): "games?batches=" + quote(",".join(c["batches"])),
            }
        )
    return pd.DataFrame(rows)


def findings(rep: dict[str, Any], name: str) -> None:
    """The skill curves of a chosen rule set and the verdict table."""
    f = rep.get("findings") or {}
    if not f.get("curves"):
        return
    st.subheader(t("studies.curves"))
    st.caption(t("studies.curves_help"))
    rule_sets = list(dict.fromkeys(e["rules"] for e in f["curves"]))
    keep("study_curve_rules", "choice", param="curve_rules", options=rule_sets)
    rules = st.selectbox(t("studies.col_rules"), rule_sets, key="study_curve_rules")
    keep("study_curve_metric", "choice", param="curve_metric", default=CURVE_METRICS[0],
         options=CURVE_METRICS)  # fmt: skip
    metric = st.selectbox(
        t("studies.metric"),
        CURVE_METRICS,
        key="study_curve_metric",
        format_func=lambda m: t(f"studies.curve_{m}"),
    )
    fig = curve_chart(rep, rules, metric)
    if fig is not None:
        st.plotly_chart(fig, key="study_curves")
    st.download_button(
        t("studies.download_curves"),
        pd.DataFrame(curve_rows(rep)).to_csv(index=False).encode(),
        file_name=f"{name}-curves.csv",
        mime="text/csv",
        icon=":material/download:",
        key="study_curves_csv",
        on_click="ignore",
    )
    st.subheader(t("studies.findings"))
    st.caption(t("studies.findings_help"))
    show_table(verdict_frame(rep), "study_findings", f"{name}-findings",
               data=pd.DataFrame(finding_rows(rep)))  # fmt: skip


def main() -> None:
    """Draw the page."""
    st.title(t("studies.title"))
    st.caption(t("studies.caption"))
    folder = data_dir()
    names = recorded_studies(Path(folder))
    if not names:
        st.info(
            t(
                "studies.none",
                folder=folder,
                command="dsq study run docs/studies/example.toml --quick",
            )
        )
        return
    keep("study_name", "choice", param="study", options=names)
    name = st.selectbox(t("studies.pick"), names, key="study_name")
    try:
        rep = _report(folder, dataset().fingerprint, name)
    except DsqError as exc:
        st.error(str(exc))
        return
    st.subheader(rep["title"])
    keep("study_metric", "choice", param="metric", default=METRICS[0], options=METRICS)
    metric = st.selectbox(
        t("studies.metric"),
        METRICS,
        key="study_metric",
        format_func=lambda m: t(f"studies.metric_{m}"),
    )
    st.plotly_chart(heat_map(rep, metric), key="study_heat")
    if rep.get("effects"):
        st.subheader(t("studies.effects"))
        keep("study_effect", "choice", param="effect", default=EFFECT_METRICS[0],
             options=EFFECT_METRICS)  # fmt: skip
        eff = st.selectbox(
            t("studies.effect_metric"),
            EFFECT_METRICS,
            key="study_effect",
            format_func=lambda m: t(f"studies.metric_{m}"),
        )
        fig = forest(rep["effects"], eff)
        if fig is None:
            st.info(t("studies.no_effects"))
        else:
            st.plotly_chart(fig, key="study_forest")
        for e in rep["effects"]:
            if e.get("sentence"):
                st.markdown(f"- {e['sentence']}")
    findings(rep, name)
    st.subheader(t("studies.cells"))
    st.caption(t("studies.cells_help"))
    show_table(
        cells_table(rep),
        "study_cells",
        f"{name}-cells",
        data=cells_frame(rep),
        column_config={
            t("studies.col_batches"): st.column_config.LinkColumn(display_text=t("studies.link"))
        },
    )
    st.download_button(
        t("studies.download"),
        cells_frame(rep).to_csv(index=False).encode(),
        file_name=f"{name}.csv",
        mime="text/csv",
        icon=":material/download:",
        key="study_report_csv",
        on_click="ignore",
    )


main()
