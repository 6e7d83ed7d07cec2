"""Overview: the general statistics of the selection, as the Portuguese page lists them."""

from __future__ import annotations

import streamlit as st

from dashboard.charts import den_chart, end_reasons_chart, heatmap, length_histogram_chart
from dashboard.common import page_start
from dashboard.loaders import stat
from sim.report import fmt
from sim.stats import (
    capture_matrix,
    capture_squares,
    den_animals,
    end_reasons,
    general_stats,
    general_stats_by,
    length_histogram,
    square_grid,
)

ctx = page_start(
    "Overview",
    "Games played, wins and draws, game length and how games end, with 95% intervals.",
)
if ctx is not None:
    g = stat(general_stats, ctx.selection)
    c = st.columns(4)
    c[0].metric("Games played", fmt.count(g.games))
    for col, label, prop in ((c[1], "Red wins", g.red), (c[2], "Blue wins", g.blue),
                             (c[3], "Draws", g.draw)):  # fmt: skip
        col.metric(
            label,
            fmt.count(prop.count),
            fmt.pct(prop.rate),
            delta_color="off",
            delta_arrow="off",
            help=fmt.pct_interval(prop.low, prop.high),
        )
    c = st.columns(4)
    c[0].metric(
        "Average moves per game",
        fmt.num(g.length.mean),
        help="plies (one move of one side); " + fmt.num_interval(g.length.low, g.length.high),
    )
    c[1].metric("Fewest moves", fmt.count(g.length.min))
    c[2].metric("Most moves", fmt.count(g.length.max))
    c[3].metric("Median moves", fmt.num(g.length.median))
    c = st.columns(4)
    fp = g.first_player
    c[0].metric("First-player wins (red)", fmt.count(fp.wins))
    c[1].metric("Second-player wins (blue)", fmt.count(fp.losses))
    c[2].metric(
        "First-player score",
        fmt.pct(fp.score),
        help="(wins + draws/2) / games for red, who moves first; "
        + fmt.pct_interval(fp.low, fp.high),
    )
    c[3].metric(
        "First-player advantage test",
        fmt.p_value(fp.p_value),
        help="two-sided test of the first player's score against 50%",
    )

    st.markdown(
        f"Red wins {fmt.pct(g.red.rate)} ({fmt.pct_interval(g.red.low, g.red.high)}), "
        f"blue {fmt.pct(g.blue.rate)} ({fmt.pct_interval(g.blue.low, g.blue.high)}), "
        f"draws {fmt.pct(g.draw.rate)} ({fmt.pct_interval(g.draw.low, g.draw.high)}). "
        f"Mean length {fmt.num(g.length.mean)} plies "
        f"({fmt.num_interval(g.length.low, g.length.high)}). "
        f"First-player score {fmt.pct(fp.score)} ({fmt.pct_interval(fp.low, fp.high)}, "
        f"{fmt.p_value(fp.p_value)} against 50%)."
    )

    left, right = st.columns(2)
    with left:
        st.subheader("Game length")
        hist = stat(length_histogram, ctx.selection, bins=30)
        st.plotly_chart(length_histogram_chart(hist), key="overview_hist")
    with right:
        st.subheader("How games end")
        reasons = stat(end_reasons, ctx.selection)
        st.plotly_chart(end_reasons_chart(reasons), key="overview_reasons")
    st.subheader("By rules")
    by_rules = stat(general_stats_by, ctx.selection, by="rules")
    table = by_rules[["rules"]].copy()
    for col in ("games", "red", "blue", "draw"):
        table[col] = [fmt.count(v) for v in by_rules[col]]
    table["first-player score"] = [
        f"{fmt.pct(s)} ({fmt.pct_interval(lo, hi)})"
        for s, lo, hi in zip(
            by_rules["first_score"], by_rules["first_low"], by_rules["first_high"], strict=True
        )
    ]
    table["mean plies"] = [
        f"{fmt.num(m)} ({fmt.num_interval(lo, hi)})"
        for m, lo, hi in zip(
            by_rules["mean_plies"], by_rules["mean_low"], by_rules["mean_high"], strict=True
        )
    ]
    table["min"] = [fmt.count(v) for v in by_rules["min_plies"]]
    table["max"] = [fmt.count(v) for v in by_rules["max_plies"]]
    st.dataframe(table, hide_index=True, key="overview_by_rules")

    if st.toggle("Show game details: den entries and captures", key="overview_details"):
        left, mid, right = st.columns(3)
        with left:
            st.subheader("Which animal entered the den")
            den = stat(den_animals, ctx.selection)
            st.plotly_chart(den_chart(den), key="overview_den")
        with mid:
            st.subheader("Who captures whom")
            matrix = stat(capture_matrix, ctx.selection)
            st.plotly_chart(heatmap(matrix, "captured", "capturer"), key="overview_captures")
        with right:
            st.subheader("Where captures happen")
            squares = stat(capture_squares, ctx.selection)
            st.plotly_chart(heatmap(square_grid(squares), "file", "rank"), key="overview_squares")
