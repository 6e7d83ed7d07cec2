"""Compare rules: two or more rule specs side by side, with the differences and their
significance, overlaid length distributions, end reasons and the game-design metrics.

The tests of the differences are one family, corrected by Holm's method at the sidebar's
level in :func:`sim.stats.compare_rules`; the page only shows the verdicts."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.charts import TOP_LEGEND, add_length_trace, layout, length_bins
from dashboard.common import page_start
from dashboard.i18n.notes import translate_note
from dashboard.lang import confidence, lang, nf, t
from dashboard.loaders import filter_options, stat
from dashboard.reason_charts import reasons_by_rules_chart
from dashboard.tables import figures, show_table, show_transposed
from dashboard.urlstate import keep
from sim.report import fmt
from sim.stats import compare_rules, end_reasons, general_stats, length_histogram
from sim.stats.compare import PAIR_TESTS, significant_column


def _first_move_cells(r: dict) -> dict[str, str]:
    """The first-move advantage of one rule set (fitted with the bots' strengths)."""
    n = nf()
    if r.get("first_move_verdict") == "not_identifiable":
        unlinked = t("first_move.unlinked")
        return {
            t("compare.col_first_move"): unlinked,
            t("compare.col_first_move_ci"): fmt.MISSING,
            t("compare.col_first_move_p"): fmt.MISSING,
        }
    return {
        t("compare.col_first_move"): n.signed(r["first_move_elo"]),
        t("compare.col_first_move_ci"): n.interval(
            r["first_move_low"], r["first_move_high"], "signed"
        ),
        t("compare.col_first_move_p"): n.p_value(r["first_move_p"]),
    }


def per_rules_table(per: pd.DataFrame) -> pd.DataFrame:
    """The per-rules figures as display strings (values from the statistics layer)."""
    n = nf()
    rows = []
    for r in per.to_dict("records"):
        if not r.get("games"):
            rows.append({t("compare.col_rules"): r["rules"], t("compare.col_games"): n.count(0)})
            continue
        rows.append(
            {
                t("compare.col_rules"): r["rules"],
                t("compare.col_games"): n.count(r["games"]),
                t("compare.col_first_score"): n.pct(r["first_score"]),
                t("compare.col_score_ci"): n.pct_interval(r["first_low"], r["first_high"]),
                **_first_move_cells(r),
                t("compare.col_rbd"): " / ".join(
                    n.pct(r[k]) for k in ("red_rate", "blue_rate", "draw_rate")
                ),
                t("compare.col_draw_ci"): n.pct_interval(r["draw_low"], r["draw_high"]),
                t("compare.col_mean"): n.num(r["mean_plies"]),
                t("compare.col_mean_ci"): n.num_interval(r["mean_low"], r["mean_high"]),
                t("compare.col_median"): n.median(r["median_plies"]),
            }
        )
    return pd.DataFrame(rows)


def pairs_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Pairwise differences with intervals, Holm-corrected p-values and the verdicts."""
    n = nf()
    rows = []
    for r in pairs.to_dict("records"):
        sig = [
            t(key)
            for key, col in (
                ("compare.sig_score", "first_move_diff_p"),
                ("compare.sig_draws", "draw_diff_p"),
                ("compare.sig_length", "length_p"),
                ("compare.sig_reasons", "reasons_p"),
            )
            if r[significant_column(col)]
        ]
        rows.append(
            {
                t("compare.col_pair"): t("compare.pair", a=r["rules_a"], b=r["rules_b"]),
                t("compare.col_score_diff"): n.pts(r["first_diff"]),
                t("compare.col_score_diff_ci"): n.pts_interval(
                    r["first_diff_low"], r["first_diff_high"]
                ),
                t("compare.col_move_diff"): n.signed(r["first_move_diff"]),
                t("compare.col_move_diff_ci"): n.interval(
                    r["first_move_diff_low"], r["first_move_diff_high"], "signed"
                ),
                t("compare.col_move_p"): n.p_value(r["first_move_diff_p_holm"]),
                t("compare.col_draw_diff"): n.pts(r["draw_diff"]),
                t("compare.col_draw_diff_ci"): n.pts_interval(
                    r["draw_diff_low"], r["draw_diff_high"]
                ),
                t("compare.col_draw_p"): n.p_value(r["draw_diff_p_holm"]),
                t("compare.col_mean_diff"): n.signed(r["mean_plies_diff"], 1),
                t("compare.col_length_p"): n.p_value(r["length_p_holm"]),
                t("compare.col_reasons_p"): n.p_value(r["reasons_p_holm"]),
                t("compare.col_significant", alpha=n.level(1 - n.confidence)): t(
                    "compare.list_separator"
                ).join(sig)
                if sig
                else t("compare.none_significant"),
            }
        )
    return pd.DataFrame(rows)


PER_RULES = [
    "rules", "games", "first_score", "first_low", "first_high", "first_move_elo",
    "first_move_low", "first_move_high", "first_move_p", "first_move_verdict", "red_rate",
    "blue_rate", "draw_rate", "draw_low", "draw_high", "mean_plies", "mean_low", "mean_high",
    "median_plies",
]  # fmt: skip


def pair_figures(pairs: pd.DataFrame, level: float) -> pd.DataFrame:
    """The differences' figures: each estimate with its bounds, each test's p-value, its
    Holm-corrected p-value and its verdict."""
    cols = ["rules_a", "rules_b", "first_diff", "first_diff_low", "first_diff_high",
            "first_move_diff", "first_move_diff_low", "first_move_diff_high", "draw_diff",
            "draw_diff_low", "draw_diff_high", "mean_plies_diff"]  # fmt: skip
    for test in PAIR_TESTS:
        cols += [test, f"{test}_holm", significant_column(test)]
    return figures(pairs, cols, level)


DESIGN_COLUMNS = ("balance", "completion", "drawishness", "ply_cap_draws", "sd_plies", "branching")


def design_table(per: pd.DataFrame) -> pd.DataFrame:
    """Ludii-style game-design metrics per rules."""
    n = nf()
    out = pd.DataFrame({t("compare.col_rules"): per["rules"]})
    for key in DESIGN_COLUMNS:
        if key not in per:
            continue
        form = n.num if key in ("sd_plies", "branching") else n.pct
        out[t(f"compare.design_{key}")] = [form(v) for v in per[key]]
    return out


def length_chart(selection, specs: list[str]) -> go.Figure:  # noqa: ANN001
    """The length distributions of the chosen rules, overlaid (shares of games)."""
    g_all = stat(general_stats, selection.with_rules(*specs))
    edges = length_bins(g_all.length.min, g_all.length.max)
    fig = go.Figure()
    for i, spec in enumerate(specs):
        hist = stat(length_histogram, selection.with_rules(spec), bins=edges)
        add_length_trace(fig, hist, spec, lang(), share=True, series=i)
    fig.update_layout(
        **layout(
            lang(),
            barmode="overlay",
            xaxis_title=t("charts.plies"),
            yaxis_title=t("charts.share"),
            yaxis_tickformat=".0%",
            legend=TOP_LEGEND,
        )
    )
    return fig


def comparison(ctx, specs: list[str]) -> None:  # noqa: ANN001
    """Every part of the comparison of ``specs``."""
    cmp = stat(compare_rules, ctx.selection, specs=tuple(specs))
    for note in cmp.notes:
        st.warning(translate_note(lang(), note))
    st.subheader(t("compare.side_by_side"))
    level = confidence()
    per = figures(cmp.per_rules, PER_RULES, level)
    show_transposed(per_rules_table(cmp.per_rules), t("compare.col_rules"), "cmp_per",
                    "rules-side-by-side", data=per)  # fmt: skip
    unlinked = [
        str(r["rules"])
        for r in cmp.per_rules.to_dict("records")
        if r.get("first_move_verdict") == "not_identifiable"
    ]
    if unlinked:
        st.caption(t("first_move.compare_unlinked", rules=", ".join(unlinked)))
    st.subheader(t("compare.differences"))
    if cmp.pairs.empty:
        st.info(t("compare.no_pairs"))
    else:
        show_transposed(pairs_table(cmp.pairs), t("compare.col_pair"), "cmp_pairs",
                        "rules-differences", data=pair_figures(cmp.pairs, level))  # fmt: skip
        n = nf()
        st.caption(t("multiplicity.compare_caption", tests=n.count(cmp.tests),
                     alpha=n.level(1 - level)))  # fmt: skip
    if cmp.omnibus:
        n = nf()
        st.caption(
            t(
                "compare.omnibus",
                results=n.p_value(cmp.omnibus["results_chi2"]["p"]),
                reasons=n.p_value(cmp.omnibus["reasons_chi2"]["p"]),
                lengths=n.p_value(cmp.omnibus["length_kruskal"]["p"]),
            )
        )
    left, right = st.columns(2)
    with left:
        st.subheader(t("compare.length"))
        st.plotly_chart(length_chart(ctx.selection, specs), key="cmp_lengths")
    with right:
        st.subheader(t("compare.how_end"))
        shares = {spec: stat(end_reasons, ctx.selection.with_rules(spec)) for spec in specs}
        st.plotly_chart(reasons_by_rules_chart(shares, lang(), confidence()), key="cmp_reasons")
    st.subheader(t("compare.design"))
    st.caption(t("compare.design_caption"))
    show_table(design_table(cmp.per_rules), "cmp_design", "game-design", static=True,
               data=figures(cmp.per_rules, ["rules", *DESIGN_COLUMNS]))  # fmt: skip


ctx = page_start(t("compare.title"), t("compare.caption"))
if ctx is not None:
    present = filter_options()["rules"]
    chosen_filter = list(ctx.selection.rules)
    candidates = [r for r in present if not chosen_filter or r in chosen_filter]
    if len(candidates) < 2:
        st.info(t("compare.need_two_filtered" if chosen_filter else "compare.need_two"))
    else:
        default = candidates[: min(3, len(candidates))]
        keep("compare_specs", "list", param="compare", options=candidates, default=default)
        specs = st.multiselect(
            t("compare.specs"),
            candidates,
            default=default,
            key="compare_specs",
        )
        if len(specs) < 2:
            st.warning(t("compare.choose_two"))
        else:
            comparison(ctx, specs)
