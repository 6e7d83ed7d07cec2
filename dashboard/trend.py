"""The Overview's chart of the first player's raw score by batch or by day.

The figures come from :mod:`sim.stats.firstplayer` (the same score and interval as
``dsq stats --by batch``), at the confidence level of the sidebar's setting
(:func:`dashboard.lang.confidence`, as on every page). Batches are drawn in the order
they were created; a day pools the games of the batches created that day.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.charts import layout
from dashboard.i18n import text
from dashboard.i18n.numbers import Numbers
from dashboard.lang import confidence, labels, lang, nf, t
from dashboard.loaders import dataset, stat
from dashboard.tables import figures, show_table
from sim.stats.firstplayer import first_player_by_batch, first_player_by_day
from sim.stats.query import Selection

GROUPS = ("batch", "day")
POINT_COLOUR = "#3d3d3d"  # neither side's colour: the first player is Red or Blue


def batch_days(batches: list[dict[str, Any]]) -> dict[str, str]:
    """The day (``YYYY-MM-DD``) each batch was created, from its record."""
    out = {}
    for rec in batches:
        created = rec.get("created_at")
        if isinstance(created, str) and len(created) >= 10:
            out[str(rec["batch_id"])] = created[:10]
    return out


def batch_order(batches: list[dict[str, Any]]) -> dict[str, str]:
    """A sort key per batch id: its creation time (then its id)."""
    return {str(r["batch_id"]): str(r.get("created_at") or "") for r in batches}


def score_series(selection: Selection, by: str) -> pd.DataFrame:
    """The first player's score per batch (in creation order) or per day."""
    level = confidence()
    loaded = dataset()
    if by == "day":
        days = batch_days(loaded.ds.batches)
        return stat(first_player_by_day, selection, days=tuple(days.items()), confidence=level)
    df = stat(first_player_by_batch, selection, confidence=level)
    order = batch_order(loaded.ds.batches)
    keys = [(order.get(b, ""), b) for b in df["batch"]]
    return df.iloc[sorted(range(len(df)), key=keys.__getitem__)].reset_index(drop=True)


def score_chart(df: pd.DataFrame, by: str, language: str, level: float) -> go.Figure:
    """Points with interval bars of the first player's score per ``by`` (batch or day),
    a dashed line at 50%."""
    x = [str(v) for v in df[by]]
    n = Numbers(language)
    hover = [
        text(
            language,
            "overview.trend_hover",
            key=k,
            score=n.pct(s),
            interval=f"{n.ci(level)} {n.interval(lo, hi)}",
            games=n.count(g),
        )  # fmt: skip
        for k, s, lo, hi, g in zip(x, df["score"], df["low"], df["high"], df["games"], strict=True)
    ]
    fig = go.Figure(
        go.Scatter(
            x=x,
            y=df["score"].tolist(),
            mode="markers",
            marker={"color": POINT_COLOUR, "size": 8},
            error_y={
                "type": "data",
                "symmetric": False,
                "array": (df["high"] - df["score"]).tolist(),
                "arrayminus": (df["score"] - df["low"]).tolist(),
                "color": POINT_COLOUR,
            },
            hovertext=hover,
            hoverinfo="text",
            name=text(language, "overview.trend_score"),
        )
    )
    fig.add_hline(y=0.5, line_dash="dash", line_color="#8c8c8c")
    fig.update_layout(
        **layout(
            language,
            xaxis_title=text(language, f"overview.trend_by_{by}"),
            yaxis_title=text(language, "overview.trend_axis", ci=n.ci(level)),
            yaxis_tickformat=".0%",
            yaxis_range=[0, 1],
            showlegend=False,
        )
    )
    fig.update_xaxes(type="category")
    return fig


def trend_table(df: pd.DataFrame, by: str, level: float) -> pd.DataFrame:
    """The chart's figures as a table (headers in the user's language)."""
    n = nf()
    return pd.DataFrame(
        {
            t(f"overview.trend_by_{by}"): [str(v) for v in df[by]],
            t("overview.col_games"): [n.count(v) for v in df["games"]],
            t("overview.trend_col_wdl"): [
                n.wdl(w, d, lo)
                for w, d, lo in zip(df["wins"], df["draws"], df["losses"], strict=True)
            ],
            t("overview.trend_score"): [
                f"{n.pct(s)} ({n.ci(level)} {n.interval(lo, hi)})"
                for s, lo, hi in zip(df["score"], df["low"], df["high"], strict=True)
            ],
        }
    )


def show_first_player_trend(selection: Selection) -> None:
    """The Overview's section: by batch or by day, the chart, what it estimates, a table."""
    st.subheader(t("overview.trend"))
    by = st.radio(
        t("overview.trend_group"),
        GROUPS,
        horizontal=True,
        key="overview_trend_by",
        format_func=labels("overview.trend_by_"),
    )
    df = score_series(selection, by)
    level = confidence()
    st.caption(t("overview.trend_caption", ci=nf().ci(level)))
    if df.empty:
        st.info(t("overview.trend_none"))
        return
    st.plotly_chart(score_chart(df, by, lang(), level), key="overview_trend")
    with st.expander(t("overview.trend_table")):
        show_table(trend_table(df, by, level), "overview_trend_table", f"first-player-by-{by}",
                   data=figures(df, [by, "games", "wins", "draws", "losses", "score", "low",
                                     "high"], level))  # fmt: skip
