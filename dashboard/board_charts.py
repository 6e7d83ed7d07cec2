"""Plotly figures of what happens on the board (display only: no computation): den
entries per animal, the capture matrix, and a board-shaped heat map of the captures per
square, each hover naming the square's kind.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from dashboard.charts import WINNER_COLOURS, layout
from dashboard.i18n import side_name, text
from engine.board import DENS, TRAP_OWNER, WATER
from sim.report.names import animal_name


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
