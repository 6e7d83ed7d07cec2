"""Plotly figures of how games end (display only: no computation): the share of each end
reason with its interval, split by the winner's colour (:func:`end_reasons_chart`), or
side by side for several rule sets (:func:`reasons_by_rules_chart`); the tables are those
of :func:`sim.stats.end_reasons`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.charts import TOP_LEGEND, WINNER_COLOURS, bar_height, layout, series_colour
from dashboard.i18n import reason_name, side_name, text
from dashboard.i18n.numbers import Numbers


def occurring(reasons: pd.DataFrame) -> pd.DataFrame:
    """The rows of an end-reason table (:func:`sim.stats.end_reasons`) whose reason ended
    at least one game, the most frequent first."""
    if reasons.empty:
        return reasons
    shown = reasons[reasons["games"] > 0]
    return shown.sort_values("games", ascending=False, kind="stable").reset_index(drop=True)


def end_reasons_chart(
    reasons: pd.DataFrame, lang: str = "en", confidence: float = 0.95
) -> go.Figure:
    """How games end: one horizontal bar per reason that occurs (the share of the games,
    split by the winner's colour), with the share's interval at ``confidence`` (columns
    of :func:`sim.stats.end_reasons`: ``reason``, ``games``, ``share``, ``low``, ``high``,
    ``red``, ``blue``, ``draw``)."""
    rows = occurring(reasons)
    n = Numbers(lang, confidence)
    labels = [reason_name(lang, r) for r in rows["reason"]]
    total = int(reasons["games"].sum()) if not reasons.empty else 0
    fig = go.Figure()
    for winner in ("red", "blue", "draw"):
        if winner in rows and rows[winner].any():
            fig.add_bar(
                x=rows[winner] / total,
                y=labels,
                orientation="h",
                name=side_name(lang, winner),
                marker_color=WINNER_COLOURS[winner],
                hoverinfo="skip",
            )
    add_interval_trace(fig, rows, labels, n, "#222222", text(lang, "charts.interval", ci=n.ci()))
    fig.update_layout(
        **layout(
            lang,
            height=bar_height(len(rows)),
            barmode="stack",
            xaxis_title=text(lang, "charts.share"),
            legend=TOP_LEGEND,
        )
    )
    fig.update_xaxes(tickformat=".0%", rangemode="tozero")
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig


def add_interval_trace(
    fig: go.Figure,
    rows: pd.DataFrame,
    labels: list[str],
    n: Numbers,
    colour: str,
    name: str,
    legend: bool = True,
) -> None:
    """Each row's share (``share``, ``low``, ``high``, ``games``) as a tick with its
    interval as a horizontal error bar, at its label; the hover says the share, the
    interval and the games."""
    fig.add_scatter(
        x=rows["share"],
        y=labels,
        mode="markers",
        name=name,
        showlegend=legend,
        legendgroup=name,
        marker={"symbol": "line-ns-open", "size": 12, "color": colour, "line": {"width": 2}},
        error_x=share_error(rows, colour, 1.5),
        customdata=share_cells(rows, labels, n),
        hovertemplate="%{customdata[0]}: %{customdata[1]} (%{customdata[2]}) · "
        + "%{customdata[3]} "
        + text(n.lang, "charts.games")
        + "<extra></extra>",
    )


def share_cells(rows: pd.DataFrame, labels: list[str], n: Numbers) -> list[list[str]]:
    """Each row's hover cells: its label, share, interval and games, as the page writes them."""
    return [
        [lab, n.pct(s), n.pct_interval(lo, hi), n.count(g)]
        for lab, s, lo, hi, g in zip(
            labels, rows["share"], rows["low"], rows["high"], rows["games"], strict=True
        )
    ]


def share_error(rows: pd.DataFrame, colour: str, thickness: float) -> dict[str, Any]:
    """A horizontal error bar from each row's ``low`` to ``high`` around its ``share``."""
    return {
        "type": "data",
        "symmetric": False,
        "color": colour,
        "thickness": thickness,
        "array": rows["high"] - rows["share"],
        "arrayminus": rows["share"] - rows["low"],
    }


def reasons_by_rules_chart(
    by_rules: dict[str, pd.DataFrame], lang: str = "en", confidence: float = 0.95
) -> go.Figure:
    """How games end under each rule set: for every reason that ended a game under one of
    them, one horizontal bar per rule set (its share of that rule set's games) with the
    share's interval at ``confidence`` (each frame as :func:`sim.stats.end_reasons`)."""
    n = Numbers(lang, confidence)
    seen = [occurring(r) for r in by_rules.values()]
    order = pd.concat([r[["reason", "share"]] for r in seen]) if seen else pd.DataFrame()
    reasons = (
        list(order.groupby("reason", sort=False)["share"].sum().sort_values(ascending=False).index)
        if len(order)
        else []
    )
    labels = [reason_name(lang, r) for r in reasons]
    fig = go.Figure()
    for i, (spec, table) in enumerate(by_rules.items()):
        rows = table.set_index("reason").reindex(reasons).reset_index()
        rows[["games", "share", "low", "high"]] = rows[["games", "share", "low", "high"]].fillna(0)
        fig.add_bar(
            x=rows["share"],
            y=labels,
            orientation="h",
            name=spec,
            marker_color=series_colour(i),
            error_x=share_error(rows, "#222222", 1.2),
            customdata=[[spec, *cells] for cells in share_cells(rows, labels, n)],
            hovertemplate="%{customdata[0]} · %{customdata[1]}: %{customdata[2]} "
            + "(%{customdata[3]}) · %{customdata[4]} "
            + text(lang, "charts.games")
            + "<extra></extra>",
        )
    per_row = 12 + 16 * max(len(by_rules), 1)
    fig.update_layout(
        **layout(
            lang,
            height=bar_height(len(reasons), per_row) + 22 * (len(by_rules) // 3),
            barmode="group",
            xaxis_title=text(lang, "charts.share_ci", ci=n.ci()),
            legend={**TOP_LEGEND, "traceorder": "normal"},
        )
    )
    fig.update_xaxes(tickformat=".0%", rangemode="tozero")
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig
