"""Plotly figures of the statistics layer's tables (display only: no computation).

Every figure is drawn in a language (axis titles, legends, categories and hover texts
from its catalogue, numbers with its separators); the data are the tables as given.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.i18n import reason_name, side_name, text
from dashboard.i18n.numbers import Numbers
from engine.board import DENS, TRAP_OWNER, WATER
from sim.report.names import animal_name

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


def end_reasons_chart(reasons: pd.DataFrame, lang: str = "en") -> go.Figure:
    """Games by end reason, stacked by winner (columns ``reason``, ``red``, ``blue``, ``draw``)."""
    fig = go.Figure()
    labels = [reason_name(lang, r) for r in reasons["reason"]]
    for winner in ("red", "blue", "draw"):
        if winner in reasons:
            fig.add_bar(
                x=labels,
                y=reasons[winner],
                name=side_name(lang, winner),
                marker_color=WINNER_COLOURS[winner],
            )
    fig.update_layout(
        **layout(
            lang,
            barmode="stack",
            xaxis_title=text(lang, "charts.end_reason"),
            yaxis_title=text(lang, "charts.games"),
        )
    )
    return fig


def den_chart(den: pd.DataFrame, lang: str = "en", fox: bool = False) -> go.Figure:
    """Den entries per animal, stacked by the winner's colour (columns ``animal``, ``red``,
    ``blue``)."""
    fig = go.Figure()
    names = [animal_name(a, lang, fox) for a in den["animal"]]
    for winner in ("red", "blue"):
        fig.add_bar(
            x=names,
            y=den[winner],
            name=side_name(lang, winner),
            marker_color=WINNER_COLOURS[winner],
        )
    fig.update_layout(
        **layout(
            lang,
            barmode="stack",
            xaxis_title=text(lang, "charts.den_animal"),
            yaxis_title=text(lang, "charts.den_wins"),
        )
    )
    return fig


def heatmap(
    table: pd.DataFrame, x_title: str, y_title: str, lang: str = "en", z_title: str | None = None
) -> go.Figure:
    """A heat map of a table as given (rows top to bottom, columns left to right), its colour
    bar titled ``z_title`` (what a square's colour counts)."""
    fig = go.Figure(
        go.Heatmap(
            z=table.to_numpy(),
            x=[str(c) for c in table.columns],
            y=[str(i) for i in table.index],
            colorscale="YlOrRd",
            colorbar={"title": {"text": z_title or text(lang, "charts.games"), "side": "right"}},
            hovertemplate="%{y} / %{x}: %{z}<extra></extra>",
        )
    )
    fig.update_layout(**layout(lang, xaxis_title=x_title, yaxis_title=y_title))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category")
    return fig


def animal_heatmap(matrix: pd.DataFrame, lang: str = "en", fox: bool = False) -> go.Figure:
    """The capture matrix (capturer rows, captured columns, animals by name) as a heat map."""
    shown = matrix.copy()
    shown.index = [animal_name(a, lang, fox) for a in matrix.index]
    shown.columns = [animal_name(a, lang, fox) for a in matrix.columns]
    return heatmap(
        shown,
        text(lang, "charts.captured"),
        text(lang, "charts.capturer"),
        lang,
        text(lang, "charts.captures"),
    )


def _square_word(lang: str, square: int) -> str:
    """What a square is, in ``lang``: den, trap, river or land."""

    if square in (int(DENS[0]), int(DENS[1])):
        kind = "den"
    elif TRAP_OWNER[square] >= 0:
        kind = "trap"
    elif WATER[square]:
        kind = "river"
    else:
        kind = "land"
    return text(lang, f"charts.square_{kind}")


def squares_heatmap(grid: pd.DataFrame, lang: str = "en", z_title: str | None = None) -> go.Figure:
    """A board-shaped heat map (``sim.stats.square_grid``: ranks 9..1 by files a..g), each
    square's hover naming what it is (den, trap, river, land); the colour bar is titled
    ``z_title`` (captures by default)."""
    fig = heatmap(
        grid,
        text(lang, "charts.file"),
        text(lang, "charts.rank"),
        lang,
        z_title or text(lang, "charts.captures"),
    )
    files = [str(c) for c in grid.columns]
    words = [
        [_square_word(lang, (int(rank) - 1) * 7 + files.index(f)) for f in files]
        for rank in grid.index
    ]
    fig.update_traces(
        customdata=words, hovertemplate="%{x}%{y} · %{customdata}: %{z}<extra></extra>"
    )
    return fig
