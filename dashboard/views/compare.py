"""Compare rules: two or more rule specs side by side, with the differences and their
significance, overlaid length distributions, end reasons and the game-design metrics."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.charts import LAYOUT, add_length_trace
from dashboard.common import page_start
from dashboard.loaders import filter_options, stat
from sim.report import fmt
from sim.stats import compare_rules, general_stats, length_histogram

ALPHA = 0.05


def per_rules_table(per: pd.DataFrame) -> pd.DataFrame:
    """The per-rules figures as display strings (values from the statistics layer)."""
    rows = []
    for r in per.to_dict("records"):
        if not r.get("games"):
            rows.append({"rules": r["rules"], "games": "0"})
            continue
        rows.append({
            "rules": r["rules"],
            "games": fmt.count(r["games"]),
            "first-player score": fmt.pct(r["first_score"]),
            "score 95% CI": fmt.pct_interval(r["first_low"], r["first_high"]),
            "vs 50%": fmt.p_value(r["first_p"]),
            "red / blue / draw": " / ".join(
                fmt.pct(r[k]) for k in ("red_rate", "blue_rate", "draw_rate")),
            "draw rate CI": fmt.pct_interval(r["draw_low"], r["draw_high"]),
            "mean plies": fmt.num(r["mean_plies"]),
            "mean plies CI": fmt.num_interval(r["mean_low"], r["mean_high"]),
            "median plies": fmt.num(r["median_plies"]),
        })  # fmt: skip
    return pd.DataFrame(rows)


def pairs_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Pairwise differences with intervals, p-values and a significance verdict."""
    rows = []
    for r in pairs.to_dict("records"):
        sig = [name for name, key in (("first-player score", "first_diff_p"),
                                      ("draw rate", "draw_diff_p"),
                                      ("length", "length_p"), ("end reasons", "reasons_p"))
               if not fmt.is_missing(r[key]) and r[key] < ALPHA]  # fmt: skip
        rows.append({
            "A vs B": f"{r['rules_a']} vs {r['rules_b']}",
            "first-player score A−B": fmt.pts(r["first_diff"], 1, " pts"),
            "score diff CI": fmt.pts_interval(r["first_diff_low"], r["first_diff_high"]),
            "score p": fmt.p_value(r["first_diff_p"]),
            "draw rate A−B": fmt.pts(r["draw_diff"], 1, " pts"),
            "draw diff CI": fmt.pts_interval(r["draw_diff_low"], r["draw_diff_high"]),
            "draw p": fmt.p_value(r["draw_diff_p"]),
            "mean plies A−B": fmt.signed(r["mean_plies_diff"], 1),
            "length p (Mann–Whitney)": fmt.p_value(r["length_p"]),
            "end reasons p (χ²)": fmt.p_value(r["reasons_p"]),
            "significant at 5%": ", ".join(sig) if sig else "none",
        })  # fmt: skip
    return pd.DataFrame(rows)


def design_table(per: pd.DataFrame) -> pd.DataFrame:
    """Ludii-style game-design metrics per rules."""
    cols = {"balance": "balance", "completion": "completion", "drawishness": "drawishness",
            "ply_cap_draws": "ply-cap draws", "sd_plies": "length spread (sd)",
            "branching": "branching factor"}  # fmt: skip
    out = pd.DataFrame({"rules": per["rules"]})
    for key, label in cols.items():
        if key not in per:
            continue
        if key in ("sd_plies", "branching"):
            out[label] = [fmt.num(v) for v in per[key]]
        else:
            out[label] = [fmt.pct(v) for v in per[key]]
    return out


ctx = page_start(
    "Compare rules",
    "Pick two or more rule specs: the same figures side by side, the differences with 95% "
    "intervals and tests, and the game-design metrics.",
)
if ctx is not None:
    present = filter_options()["rules"]
    chosen_filter = list(ctx.selection.rules)
    candidates = [r for r in present if not chosen_filter or r in chosen_filter]
    if len(candidates) < 2:
        st.info(
            "Comparing needs games under at least two rule specs"
            + (" among the rules chosen in the sidebar." if chosen_filter else ".")
            + " Launch a batch with several rules on the **Simulate** page."
        )
    else:
        specs = st.multiselect(
            "Rule specs to compare", candidates, default=candidates[: min(3, len(candidates))],
            key="compare_specs",
        )  # fmt: skip
        if len(specs) < 2:
            st.warning("Choose at least two rule specs.")
        else:
            cmp = stat(compare_rules, ctx.selection, specs=tuple(specs))
            for note in cmp.notes:
                st.warning(note)
            st.subheader("Side by side")
            st.dataframe(per_rules_table(cmp.per_rules), hide_index=True, key="cmp_per")
            st.subheader("Differences")
            if cmp.pairs.empty:
                st.info("No pair of the chosen rules has games to compare.")
            else:
                st.dataframe(pairs_table(cmp.pairs), hide_index=True, key="cmp_pairs")
            if cmp.omnibus:
                parts = [
                    f"results χ² {fmt.p_value(cmp.omnibus['results_chi2']['p'])}",
                    f"end reasons χ² {fmt.p_value(cmp.omnibus['reasons_chi2']['p'])}",
                    f"lengths Kruskal–Wallis {fmt.p_value(cmp.omnibus['length_kruskal']['p'])}",
                ]
                st.caption("Over all chosen rules: " + " · ".join(parts))
            left, right = st.columns(2)
            with left:
                st.subheader("Game length")
                g_all = stat(general_stats, ctx.selection.with_rules(*specs))
                lo, hi = int(g_all.length.min or 0), int(g_all.length.max or 1)
                fig = go.Figure()
                width = max(1, (hi - lo) // 30 + 1)
                edges = tuple(range(lo, hi + width + 1, width))
                for spec in specs:
                    hist = stat(length_histogram, ctx.selection.with_rules(spec), bins=edges)
                    add_length_trace(fig, hist, spec, share=True)
                fig.update_layout(
                    barmode="overlay",
                    xaxis_title="plies",
                    yaxis_title="share of games",
                    yaxis_tickformat=".0%",
                    **LAYOUT,
                )
                st.plotly_chart(fig, key="cmp_lengths")
            with right:
                st.subheader("How games end")
                reasons = cmp.reasons
                fig = go.Figure()
                for spec in reasons.columns:
                    fig.add_bar(x=list(reasons.index), y=reasons[spec], name=spec)
                fig.update_layout(barmode="group", yaxis_title="games", **LAYOUT)
                st.plotly_chart(fig, key="cmp_reasons")
            st.subheader("Game-design metrics")
            st.caption(
                "Balance 1 − |first − second| (draws as half); completion: share of decisive "
                "games; drawishness: draws by the rules; ply-cap draws: games stopped by the "
                "simulator's cap."
            )
            st.dataframe(design_table(cmp.per_rules), hide_index=True, key="cmp_design")
