"""The pure parts of the dashboard's layout: even histogram bins, the charts' colours, the
Play board's coordinates and the page icon."""

from __future__ import annotations

import pandas as pd

from dashboard.board_charts import heatmap
from dashboard.charts import (
    SERIES_COLOURS,
    WINNER_COLOURS,
    add_length_trace,
    layout,
    length_bins,
)
from dashboard.icon import page_icon
from dashboard.playboard import board_cells, board_css
from dashboard.reason_charts import end_reasons_chart
from engine import Position


def test_length_bins_are_round_and_cover_the_range():
    for low, high in ((190, 1000), (3, 17), (0, 0), (12, 4_980), (150, 151)):
        edges = length_bins(low, high)
        widths = {b - a for a, b in zip(edges, edges[1:], strict=False)}
        assert len(widths) == 1, edges  # even
        (width,) = widths
        assert width in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)
        assert edges[0] % width == 0 and edges[0] <= low and edges[-1] > high
        assert len(edges) - 1 <= 31
    assert length_bins(190, 1000)[:3] == (150, 200, 250)


def test_no_series_is_drawn_in_a_sides_colour():
    assert not set(SERIES_COLOURS) & set(WINNER_COLOURS.values())
    assert layout("en")["colorway"] == list(SERIES_COLOURS)


def test_overlaid_histograms_are_distinct_step_lines():
    import plotly.graph_objects as go

    hist = pd.DataFrame({"start": [0, 10], "end": [10, 20], "games": [3, 1], "share": [0.75, 0.25]})
    fig = go.Figure()
    for i, name in enumerate(("a", "b")):
        add_length_trace(fig, hist, name, share=True, series=i)
    a, b = fig.data
    assert a.line.color != b.line.color and a.line.dash != b.line.dash
    assert list(a.x) == [0, 10, 20] and a.line.shape == "hv"


def test_charts_have_axis_and_colour_bar_titles():
    reasons = pd.DataFrame({"reason": ["den", "time"], "games": [3, 0], "share": [1.0, 0.0],
                            "low": [0.44, 0.0], "high": [1.0, 0.56], "red": [2, 0],
                            "blue": [1, 0], "draw": [0, 0]})  # fmt: skip
    fig = end_reasons_chart(reasons, "pt")
    assert fig.layout.xaxis.title.text and fig.layout.legend.orientation == "h"
    assert {t.orientation for t in fig.data if t.type == "bar"} == {"h"}
    assert list(fig.data[-1].y) == ["entrou na toca"]  # reasons that ended no game left out
    grid = pd.DataFrame([[1, 2]], index=[9], columns=["a", "b"])
    assert heatmap(grid, "x", "y", "en", "captures").data[0].colorbar.title.text == "captures"


def test_the_play_board_has_coordinates_and_scales():
    cells = board_cells(Position().board(), "en")
    css = board_css(cells)
    assert '.st-key-sq_0::before { content: "1";' in css  # a1: rank 1 at the left
    assert '.st-key-sq_56::before { content: "9";' in css
    assert '.st-key-sq_6::after { content: "g";' in css  # g1: file g below
    flipped = board_css(cells, flipped=True)
    assert '.st-key-sq_62::after { content: "g";' in flipped  # g9 at the bottom left
    assert "container-type: inline-size" in css and "var(--sq)" in css


def test_the_page_icon_is_a_local_image():
    icon = page_icon()
    assert icon.size == (64, 64) and icon.mode == "RGBA"
