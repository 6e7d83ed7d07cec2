"""Plotly figures of the statistics layer's tables (display only: no computation).

Every figure is drawn in a language (axis titles, legends, categories and hover texts
from its catalogue, numbers with its separators); the data are the tables as given. Here:
the common layout and colours, the lengths' histograms and the by-rules panels;
:mod:`dashboard.reason_charts` draws how games end, :mod:`dashboard.board_charts` the
dens, captures and squares.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.i18n import text
from dashboard.i18n.numbers import Numbers

WINNER_COLOURS = {"red": "#c8343a", "blue": "#2f62c2", "draw": "#8c8c8c"}
# Rule sets, bots and other series that are not sides: no red and no blue (those mean the
# sides everywhere), colour-blind safe (Okabe-Ito), then darker shades of the same hues.
SERIES_COLOURS = (
    "#009e73", "#e69f00", "#7b3294", "#56b4e9", "#4d4d4d", "#f0e442", "#a6761d", "#1b7837",
)  # fmt: skip
NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)
LAYOUT = {"margin": {"l": 10, "r": 10, "t": 30, "b": 10}, "height": 340}


def series_colour(i: int) -> str:
    """The colour of the ``i``-th series that is not a side (a rule set, a bot)."""
    return SERIES_COLOURS[i % len(SERIES_COLOURS)]


def length_bins(low: float | None, high: float | None, target: int = 30) -> tuple[int, ...]:
    """Even histogram edges over ``[low, high]``: a round width (1, 2, 5, 10, 20, 25, 50, …
    plies) giving at most about ``target`` bins, edges on multiples of it."""
    lo, hi = int(low or 0), int(high if high is not None else 1)
    hi = max(hi, lo)
    width = next((w for w in NICE_WIDTHS if (hi - lo + 1) / w <= target), NICE_WIDTHS[-1])
    start = lo // width * width
    stop = (hi // width + 1) * width
    return tuple(range(start, stop + 1, width))


def layout(lang: str, **extra: Any) -> dict[str, Any]:
    """The common layout of the dashboard's charts in ``lang`` (its decimal separators)."""
    return {
        **LAYOUT,
        "separators": Numbers(lang).plotly_separators,
        "colorway": list(SERIES_COLOURS),
        **extra,
    }


def length_histogram_chart(
    hist: pd.DataFrame, lang: str = "en", name: str | None = None
) -> go.Figure:
    """Bars of a length histogram (columns ``start``, ``end``, ``games``)."""
    fig = go.Figure()
    add_length_trace(fig, hist, name or text(lang, "charts.games"), lang)
    fig.update_layout(
        **layout(
            lang,
            xaxis_title=text(lang, "charts.plies"),
            yaxis_title=text(lang, "charts.games"),
            bargap=0.05,
        )
    )
    return fig


DASHES = ("solid", "dash", "dot", "dashdot")


def add_length_trace(
    fig: go.Figure,
    hist: pd.DataFrame,
    name: str,
    lang: str = "en",
    share: bool = False,
    series: int = 0,
) -> None:
    """Add one histogram to ``fig``: bars over the bins, or with ``share`` (histograms laid
    over each other) the outline of the bars as a step line in the ``series``-th colour and
    dash, so that each stays visible where they overlap."""
    if hist.empty:
        return
    hover = text(
        lang,
        "charts.length_hover",
        low="%{customdata[0]:.0f}",
        high="%{customdata[3]:.0f}",
        games="%{customdata[2]}",
    )
    custom = hist[["start", "end", "games"]].assign(last=hist["end"] - 1).to_numpy()
    colour = series_colour(series)
    if share:
        # Each bin's share drawn from its start to its end (the last point closes the step).
        fig.add_scatter(
            x=[*hist["start"], hist["end"].iloc[-1]],
            y=[*hist["share"], hist["share"].iloc[-1]],
            name=name,
            mode="lines",
            line={"shape": "hv", "color": colour, "width": 2.5, "dash": DASHES[series % 4]},
            customdata=[*custom, custom[-1]],
            hovertemplate=hover + "<extra>" + name + "</extra>",
        )
        return
    fig.add_bar(
        x=(hist["start"] + hist["end"]) / 2,
        y=hist["games"],
        width=hist["end"] - hist["start"],
        name=name,
        marker_color=colour,
        customdata=custom,
        hovertemplate=hover + "<extra>" + name + "</extra>",
    )


def bar_height(rows: int, per_row: int = 34) -> int:
    """The height of a chart of horizontal bars: room for each row, its label, the axis
    and a legend above (never squeezed, never taller than it needs)."""
    return 110 + per_row * max(rows, 1)


# A legend in rows above the plot, wrapping at the chart's width: it never takes the
# plot's width nor gets its own scroll bar.
TOP_LEGEND = {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0}


# The by-rules panels: (column prefix of sim.stats.general_stats_by, catalogue key of the
# panel's title, whether the figure is a share, its neutral value).
RULE_PANELS = (
    ("first_score", "first_low", "first_high", "charts.panel_first_score", True, 0.5),
    ("first_move_elo", "first_move_low", "first_move_high", "charts.panel_first_move", False, 0.0),
    ("draw_rate", "draw_low", "draw_high", "charts.panel_draw_rate", True, None),
)


def by_rules_chart(by_rules: pd.DataFrame, lang: str = "en", confidence: float = 0.95) -> go.Figure:
    """One row per rule set, three panels side by side: the first player's score, the
    first-move advantage (Elo, fitted with the bots; no dot where it cannot be told apart
    from the bots' strengths) and the draw rate, each a dot with its interval at
    ``confidence`` (columns of :func:`sim.stats.general_stats_by` with ``by="rules"``)."""
    # lazy: start-up time (plotly's subplots)
    from plotly.subplots import make_subplots

    n = Numbers(lang, confidence)
    rules = [str(r) for r in by_rules["rules"]]
    games = [n.count(g) for g in by_rules["games"]]
    fig = make_subplots(
        rows=1, cols=len(RULE_PANELS), shared_yaxes=True, horizontal_spacing=0.04,
        subplot_titles=[text(lang, key, ci=n.ci()) for *_, key, _s, _z in RULE_PANELS],
    )  # fmt: skip
    for col, (value, low, high, key, share, neutral) in enumerate(RULE_PANELS, start=1):
        v, lo, hi = (pd.to_numeric(by_rules[c], errors="coerce") for c in (value, low, high))
        shown = [n.pct(x) if share else n.signed(x) for x in v]
        bounds = [
            n.interval(a, b, "pct" if share else "signed") for a, b in zip(lo, hi, strict=True)
        ]
        fig.add_scatter(
            x=v, y=rules, mode="markers", row=1, col=col, showlegend=False,
            marker={"size": 9, "color": series_colour(0)},
            error_x={"type": "data", "symmetric": False, "array": hi - v, "arrayminus": v - lo,
                     "color": series_colour(0), "thickness": 1.5},
            customdata=list(zip(rules, shown, bounds, games, strict=True)),
            hovertemplate="%{customdata[0]} · " + text(lang, key, ci=n.ci())
            + ": %{customdata[1]} %{customdata[2]} · %{customdata[3]} "
            + text(lang, "charts.games") + "<extra></extra>",
        )  # fmt: skip
        if neutral is not None:
            fig.add_vline(x=neutral, line_dash="dot", line_color="#888888", row=1, col=col)
        if share:
            fig.update_xaxes(tickformat=".0%", row=1, col=col)
    fig.update_layout(**layout(lang, height=bar_height(len(rules), 30) + 10))
    fig.update_annotations(font_size=12)
    fig.update_yaxes(autorange="reversed", automargin=True, type="category")
    return fig
