"""Studies: a recorded study's report as `dsq study report` gives it: a figure of every cell
as a heat map over rule sets × conditions, the grid options' effects (forest plot,
sentences, the table with p-values and Holm's correction), the skill depth, the skill
curves and the draw rate's curvature, the verdicts, the families of tests, and the cells'
table (links to their batches, CSV). Every figure is the report's (:mod:`sim.study`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd
import streamlit as st

from dashboard.lang import nf, t
from dashboard.loaders import data_dir, dataset
from dashboard.study_charts import (
    CURVE_METRICS,
    curvature_figures,
    curvature_frame,
    curve_chart,
    depth_figures,
    depth_frame,
    effects_figures,
    effects_frame,
    forest,
    heat_map,
    verdict_frame,
)
from dashboard.study_texts import condition_label, effect_sentence
from dashboard.tables import show_table
from dashboard.urlstate import keep
from engine.errors import DsqError
from sim.storage.paths import dsq_line, project_root
from sim.study.effects import effects_tally
from sim.study.findings_text import curve_rows, finding_rows
from sim.study.heat import NEUTRAL
from sim.study.metrics import METRICS, value
from sim.study.report import build_report, cells_frame
from sim.study.run import recorded_studies, recorded_study

EFFECT_METRICS = ("first_move_elo", "draw_rate", "den_rate", "mean_plies")


@st.cache_data(max_entries=8, show_spinner=False)
def _report(folder: str, fingerprint: str, name: str) -> dict[str, Any]:
    return build_report(recorded_study(Path(folder), name), folder)


def cells_table(rep: dict[str, Any]) -> pd.DataFrame:
    """The cells as display rows, each with a link to its batches on the Games page."""
    n = nf()
    rows = []
    for c in rep["cells"]:
        fm = c.get("first_move_elo") or {}
        rows.append(
            {
                t("studies.col_rules"): c["rules"],
                t("studies.col_pairing"): condition_label(c),
                t("studies.col_games"): n.count(c["games"]),
                t("studies.col_first_move"): n.signed(fm.get("value")),
                t("studies.col_first_move_ci"): n.interval(fm.get("low"), fm.get("high"), "signed"),
                t("studies.col_draws"): n.pct(value(c, "draw_rate")),
                t("studies.col_plies"): n.num(value(c, "mean_plies")),
                t("studies.col_batches"): "games?batches=" + quote(",".join(c["batches"])),
            }
        )
    return pd.DataFrame(rows)


def no_data() -> None:
    """Where a figure has nothing to show: say so (not a blank area)."""
    st.info(t("charts.no_data"), icon=":material/bar_chart_off:")


def cell_figure(rep: dict[str, Any]) -> None:
    """The heat map of a chosen figure over the cells, and what its marks mean."""
    keep("study_metric", "choice", param="metric", default=METRICS[0], options=METRICS)
    metric = st.selectbox(
        t("studies.metric"),
        METRICS,
        key="study_metric",
        format_func=lambda m: t(f"studies.metric_{m}"),
    )
    drawn = heat_map(rep, metric)
    if drawn is None:
        no_data()
        return
    fig, tally = drawn
    st.plotly_chart(fig, key="study_heat")
    n = nf()
    if metric in NEUTRAL:
        neutral = n.num(NEUTRAL[metric], 0) if metric.endswith("elo") else n.pct(0.5, 0)
        st.caption(t("study.heat_marks", neutral=neutral, excluding=n.count(tally["excluding"]),
                     shown=n.count(tally["shown"]), significant=n.count(tally["significant"]),
                     tested=n.count(tally["tested"])))  # fmt: skip
    else:
        st.caption(t("study.heat_help"))


def effects(rep: dict[str, Any], name: str) -> None:
    """The grid options' effects: how many hold after Holm's correction, the forest plot
    of a chosen figure, a sentence for each significant effect, and every effect's row."""
    st.subheader(t("studies.effects"))
    k, total = effects_tally(rep["effects"])
    n = nf()
    st.markdown(t("study.effects_tally", k=n.count(k), n=n.count(total)))
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
    sentences = [effect_sentence(e) for e in rep["effects"] if e.get("significant")]
    if sentences:
        st.markdown("\n".join(f"- {x}" for x in sentences))
    with st.expander(t("study.effects_table")):
        show_table(effects_frame(rep["effects"]), "study_effects", f"{name}-effects",
                   data=effects_figures(rep["effects"]))  # fmt: skip


def skill_depth(rep: dict[str, Any], name: str) -> None:
    """The Elo gap from the weakest rung to the strongest under each rule set."""
    st.subheader(t("study.skill_depth"))
    depth = depth_frame(rep)
    if depth.empty:
        st.info(t("study.skill_depth_none"))
        return
    st.caption(t("study.skill_depth_help"))
    show_table(depth, "study_depth", f"{name}-skill-depth", static=True,
               data=depth_figures(rep))  # fmt: skip


def findings(rep: dict[str, Any], name: str) -> None:
    """The skill curves of a chosen rule set, the draw rate's curvature, the verdict table
    and the families of tests."""
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
    if fig is None:
        no_data()
    else:
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
    bends = curvature_frame(rep)
    if not bends.empty:
        st.subheader(t("study.curvature"))
        st.caption(t("study.curvature_help"))
        show_table(bends, "study_curvature", f"{name}-curvature", static=True,
                   data=curvature_figures(rep))  # fmt: skip
    st.subheader(t("studies.findings"))
    st.caption(t("studies.findings_help"))
    show_table(verdict_frame(rep), "study_findings", f"{name}-findings",
               data=pd.DataFrame(finding_rows(rep)))  # fmt: skip
    n = nf()
    families = t("compare.list_separator").join(
        t(f"study.family_{key.replace(' ', '_')}", n=n.count(size))
        for key, size in f.get("families", {}).items()
    )
    st.caption(t("study.families", families=families))


def void_note(rep: dict[str, Any]) -> None:
    """How many games the rule sets' void rule left out of every figure."""
    void = sum(int(c.get("void_games") or 0) for c in rep["cells"])
    if void:
        st.caption(t("study.void", void=nf().count(void)))


def main() -> None:
    """Draw the page."""
    st.title(t("studies.title"))
    st.caption(t("studies.caption"))
    folder = data_dir()
    names = recorded_studies(Path(folder))
    if not names:
        example = project_root() / "docs" / "studies" / "example.toml"  # pasted anywhere
        command = dsq_line("study", "run", str(example), "--quick", data=folder, always=True)
        st.info(t("studies.none", folder=folder, command=command))
        return
    keep("study_name", "choice", param="study", options=names)
    name = st.selectbox(t("studies.pick"), names, key="study_name")
    try:
        rep = _report(folder, dataset().fingerprint, name)
    except DsqError as exc:
        st.error(str(exc))
        return
    st.subheader(rep["title"])
    void_note(rep)
    cell_figure(rep)
    if rep.get("effects"):
        effects(rep, name)
    skill_depth(rep, name)
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
