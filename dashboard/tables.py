"""Display tables whose every header and cell is shown whole.

``st.dataframe`` draws on a canvas and cuts a header or a cell to its column's width (with
"…"), and hides the columns past its width behind a scroll bar; the tables the pages show
are small (one row per rule set, bot or matchup), so they are drawn as HTML tables
(``st.table``), whose headers and cells wrap within the page's width.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st


def show_table(frame: pd.DataFrame, *, index: bool = False) -> None:
    """``frame`` as a static table (its index shown only with ``index``)."""
    st.table(frame, hide_index=not index)


def show_transposed(frame: pd.DataFrame, column: str) -> None:
    """``frame`` with one column per value of ``column`` (e.g. one per rule set) and one row
    per other column: a few wide rows read better, and fit the page, as a tall table."""
    shown = frame.set_index(column).T
    shown.index.name = column
    shown.columns = [str(c) for c in shown.columns]
    st.table(shown.fillna(""), hide_index=False)
