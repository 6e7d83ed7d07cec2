"""Overview: the general statistics of the selection, as the Portuguese page lists them
(games played; wins and draws; plies per game, average, fewest and most; wins by the first
player against wins by the other, where some games began with blue to move: else they are
red's and blue's wins), with intervals, lengths and how games end. The one
test about the first move is the first-move advantage fitted with the bots' strengths
(:mod:`sim.stats.firstmove`); the raw first-player score is shown as a figure."""

from __future__ import annotations

import streamlit as st

from dashboard.board_charts import animal_heatmap, den_chart, squares_heatmap
from dashboard.charts import by_rules_chart, length_bins, length_histogram_chart
from dashboard.common import page_start
from dashboard.lang import confidence, fox, lang, nf, t
from dashboard.loaders import stat
from dashboard.reason_charts import end_reasons_chart
from dashboard.tables import figures, show_table
from dashboard.trend import show_first_player_trend
from dashboard.urlstate import keep
from sim.stats import (
    capture_matrix,
    capture_squares,
    den_animals,
    end_reasons,
    general_stats,
    general_stats_by,
    length_histogram,
    square_grid,
    unstored_games,
)

BY_RULES_FIGURES = [
    "rules", "games", "red", "blue", "draw", "first_score", "first_low", "first_high",
    "first_move_elo", "first_move_low", "first_move_high", "first_move_p",
    "first_move_verdict", "mean_plies", "mean_low", "mean_high", "median_plies", "min_plies",
    "max_plies",
]  # fmt: skip

ctx = page_start(t("overview.title"), t("overview.caption"))
if ctx is not None:
    n = nf()
    g = stat(general_stats, ctx.selection)
    c = st.columns(4)
    c[0].metric(t("overview.games_played"), n.count(g.games))
    for col, key, prop in (
        (c[1], "overview.red_wins", g.red),
        (c[2], "overview.blue_wins", g.blue),
        (c[3], "overview.draws", g.draw),
    ):
        col.metric(
            t(key),
            n.count(prop.count),
            n.pct(prop.rate),
            delta_color="off",
            delta_arrow="off",
            help=n.pct_interval(prop.low, prop.high),
        )
    c = st.columns(4)
    c[0].metric(
        t("overview.avg_moves"),
        n.num(g.length.mean),
        help=t("overview.avg_moves_help", interval=n.num_interval(g.length.low, g.length.high)),
    )
    c[1].metric(t("overview.fewest"), n.count(g.length.min))
    c[2].metric(t("overview.most"), n.count(g.length.max))
    c[3].metric(t("overview.median"), n.median(g.length.median))
    fp = g.first_player
    cells = list(st.columns(4))
    if (fp.wins, fp.losses) != (g.red.count, g.blue.count):  # some games began with blue
        cells[0].metric(t("overview.first_wins"), n.count(fp.wins))
        cells[1].metric(t("overview.second_wins"), n.count(fp.losses))
        cells = cells[2:]
    cells[0].metric(
        t("overview.first_score"),
        n.pct(fp.score),
        help=t("overview.first_score_help", interval=n.pct_interval(fp.low, fp.high)),
    )
    fm = g.first_move
    assert fm is not None  # general_stats always measures it (None only in grouped rows)
    move_ci = f"{n.ci()} {n.interval(fm.elo_low, fm.elo_high, 'signed')}"
    if fm.identifiable:
        cells[1].metric(
            t("overview.first_move"),
            t("first_move.elo", elo=n.signed(fm.elo)),
            help=t("overview.first_move_help", interval=move_ci, p=n.p_value(fm.p_value)),
        )
    else:
        cells[1].metric(
            t("overview.first_move"),
            t("first_move.unlinked"),
            help=t("overview.first_move_unlinked_help"),
        )

    st.markdown(
        t(
            "overview.summary",
            red=n.pct(g.red.rate),
            red_ci=n.pct_interval(g.red.low, g.red.high),
            blue=n.pct(g.blue.rate),
            blue_ci=n.pct_interval(g.blue.low, g.blue.high),
            draw=n.pct(g.draw.rate),
            draw_ci=n.pct_interval(g.draw.low, g.draw.high),
            mean=n.num(g.length.mean),
            mean_ci=n.num_interval(g.length.low, g.length.high),
            score=n.pct(fp.score),
            score_ci=n.pct_interval(fp.low, fp.high),
        )
    )
    if fm.identifiable:
        st.markdown(
            t(
                "first_move.summary",
                elo=n.signed(fm.elo),
                ci=move_ci,
                p=n.p_value(fm.p_value),
                verdict=t(f"first_move.{fm.verdict}"),
            )
        )
    else:
        st.info(t("first_move.not_identifiable"))

    left, right = st.columns(2)
    with left:
        st.subheader(t("overview.length"))
        hist = stat(length_histogram, ctx.selection, bins=length_bins(g.length.min, g.length.max))
        st.plotly_chart(length_histogram_chart(hist, lang()), key="overview_hist")
    with right:
        st.subheader(t("overview.how_end"))
        reasons = stat(end_reasons, ctx.selection)
        st.plotly_chart(end_reasons_chart(reasons, lang(), confidence()), key="overview_reasons")
    st.subheader(t("overview.by_rules"))
    by_rules = stat(general_stats_by, ctx.selection, by="rules")
    st.plotly_chart(by_rules_chart(by_rules, lang(), confidence()), key="overview_by_rules_chart")
    table = by_rules[["rules"]].copy()
    table.columns = [t("overview.col_rules")]
    for column, key in (
        ("games", "overview.col_games"),
        ("red", "overview.col_red"),
        ("blue", "overview.col_blue"),
        ("draw", "overview.col_draw"),
    ):
        table[t(key)] = [n.count(v) for v in by_rules[column]]
    with_ci = {key: t("charts.with_ci", column=t(key), ci=n.ci()) for key in (
        "overview.col_first_score", "overview.col_first_move", "overview.col_mean")}  # fmt: skip
    table[with_ci["overview.col_first_score"]] = [
        f"{n.pct(s)} {n.interval(lo, hi)}"
        for s, lo, hi in zip(
            by_rules["first_score"], by_rules["first_low"], by_rules["first_high"], strict=True
        )
    ]
    table[with_ci["overview.col_first_move"]] = [
        t("first_move.unlinked")
        if v == "not_identifiable"
        else f"{n.signed(e)} {n.interval(lo, hi, 'signed')}"
        for v, e, lo, hi in zip(
            by_rules["first_move_verdict"],
            by_rules["first_move_elo"],
            by_rules["first_move_low"],
            by_rules["first_move_high"],
            strict=True,
        )
    ]
    table[with_ci["overview.col_mean"]] = [
        f"{n.num(m)} {n.interval(lo, hi, 'num')}"
        for m, lo, hi in zip(
            by_rules["mean_plies"], by_rules["mean_low"], by_rules["mean_high"], strict=True
        )
    ]
    table[t("overview.col_min")] = [n.count(v) for v in by_rules["min_plies"]]
    table[t("overview.col_max")] = [n.count(v) for v in by_rules["max_plies"]]
    show_table(table, "overview_by_rules", "by-rules", static=True,
               data=figures(by_rules, BY_RULES_FIGURES, confidence()))  # fmt: skip

    keep("overview_details", "bool", param="details", default=False)
    if st.toggle(t("overview.details"), key="overview_details"):
        left, mid, right = st.columns(3)
        with left:
            st.subheader(t("overview.den"))
            den = stat(den_animals, ctx.selection)
            st.plotly_chart(den_chart(den, lang(), fox()), key="overview_den")
        with mid:
            st.subheader(t("overview.who_captures"))
            matrix = stat(capture_matrix, ctx.selection)
            st.plotly_chart(animal_heatmap(matrix, lang(), fox()), key="overview_captures")
        with right:
            st.subheader(t("overview.where_captures"))
            squares = stat(capture_squares, ctx.selection)
            st.plotly_chart(squares_heatmap(square_grid(squares), lang()), key="overview_squares")
        unstored = stat(unstored_games, ctx.selection)
        if unstored:
            st.caption(
                t("overview.captures_unstored", unstored=n.count(unstored), games=n.count(g.games))
            )
    show_first_player_trend(ctx.selection)
