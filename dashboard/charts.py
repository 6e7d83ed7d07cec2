"""Plotly figures of the statistics layer's tables (display only: no computation)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

WINNER_COLOURS = {"red": "#c8343a", "blue": "#2f62c2", "draw": "#8c8c8c"}
LAYOUT = {"margin": {"l": 10, "r": 10, "t": 30, "b": 10}, "height": 340}


def length_histogram_chart(hist: pd.DataFrame, name: str = "games") -> go.Figure:
    """Bars of a length histogram (columns ``start``, ``end``, ``games``)."""
    fig = go.Figure()
    add_length_trace(fig, hist, name)
    fig.update_layout(xaxis_title="plies", yaxis_title="games", bargap=0.05, **LAYOUT)
    return fig


def add_length_trace(fig: go.Figure, hist: pd.DataFrame, name: str, share: bool = False) -> None:
    """Add one histogram (as bars over bin centres) to ``fig``."""
    if hist.empty:
        return
    centres = (hist["start"] + hist["end"]) / 2
    widths = hist["end"] - hist["start"]
    y = hist["share"] if share else hist["games"]
    fig.add_bar(
        x=centres, y=y, width=widths, name=name, opacity=0.6 if share else 1.0,
        customdata=hist[["start", "end", "games"]].to_numpy(),
        hovertemplate="%{customdata[0]:.0f}–%{customdata[1]:.0f} plies: "
        "%{customdata[2]} games<extra>" + name + "</extra>",
    )  # fmt: skip


def end_reasons_chart(reasons: pd.DataFrame) -> go.Figure:
    """Games by end reason, stacked by winner (columns ``reason``, ``red``, ``blue``, ``draw``)."""
    fig = go.Figure()
    for winner in ("red", "blue", "draw"):
        if winner in reasons:
            fig.add_bar(
                x=reasons["reason"],
                y=reasons[winner],
                name=winner,
                marker_color=WINNER_COLOURS[winner],
            )
    fig.update_layout(barmode="stack", yaxis_title="games", **LAYOUT)
    return fig


def den_chart(den: pd.DataFrame) -> go.Figure:
    """Den entries per animal, stacked by the winner's colour (columns ``animal``, ``red``,
    ``blue``)."""
    fig = go.Figure()
    for winner in ("red", "blue"):
        fig.add_bar(x=den["animal"], y=den[winner], name=winner,
                    marker_color=WINNER_COLOURS[winner])  # fmt: skip
    fig.update_layout(barmode="stack", yaxis_title="games won in the den", **LAYOUT)
    return fig


def heatmap(table: pd.DataFrame, x_title: str, y_title: str) -> go.Figure:
    """A heat map of a table as given (rows top to bottom, columns left to right)."""
    fig = go.Figure(go.Heatmap(
        z=table.to_numpy(), x=[str(c) for c in table.columns], y=[str(i) for i in table.index],
        colorscale="YlOrRd", hovertemplate="%{y} / %{x}: %{z}<extra></extra>",
    ))  # fmt: skip
    fig.update_layout(xaxis_title=x_title, yaxis_title=y_title, **LAYOUT)
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category")
    return fig
