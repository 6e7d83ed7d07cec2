"""Every table a page shows, drawn with a button that downloads it as CSV.

One helper for all pages: :func:`show_table` draws the table and, below it, a small
button whose file is :func:`table_csv` of the same frame: the columns and their headers as
shown (in the user's language), the row labels when the table shows them.
``st.dataframe``'s own toolbar also offers a CSV of what it shows, but only on hover and
built in the browser; the button is the one that is always visible, the same on every
page, and what the tests read.

``st.dataframe`` draws on a canvas and cuts a header or a cell to its column's width (with
"…"), and hides the columns past its width behind a scroll bar. Small tables of figures
(one row per rule set, bot or matchup) are drawn with ``static=True`` as HTML tables
(``st.table``), whose headers and cells wrap within the page's width; long listings stay
scrollable grids.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from dashboard.lang import t


def table_frame(table: pd.DataFrame | Styler) -> pd.DataFrame:
    """The data of a table as shown (a styled table's frame without its styles)."""
    return table.data if isinstance(table, Styler) else table


def table_csv(table: pd.DataFrame | Styler, index: bool = False) -> bytes:
    """The CSV (UTF-8) of a table as shown: its headers and cells, its row labels too
    with ``index``."""
    return table_frame(table).to_csv(index=index).encode("utf-8")


def file_stem(name: str) -> str:
    """A file name made of ``name`` (letters, digits, ``-``, ``_`` and ``.``)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return stem or "table"


ZWSP = "\u200b"


def _break(value: Any) -> Any:
    """A text with a break opportunity after each ``,`` and ``:`` (a bot spec has no
    spaces, and a table would grow to its whole length); anything else as it is."""
    if isinstance(value, str) and " " not in value and ("," in value or ":" in value):
        return value.replace(",", "," + ZWSP).replace(":", ":" + ZWSP)
    return value


def breakable(table: pd.DataFrame | Styler) -> pd.DataFrame | Styler:
    """The table as shown whole: its labels and texts may break after ``,`` and ``:``
    (the CSV file keeps them as they are)."""
    if isinstance(table, Styler):
        styled = copy.copy(table)  # the caller's table keeps its texts (its CSV file)
        styled.data = _breakable_frame(table.data)
        return styled.format_index(_break, axis=0).format_index(_break, axis=1)
    return _breakable_frame(table)


def _breakable_frame(table: pd.DataFrame) -> pd.DataFrame:
    out = table.copy()
    out.index = out.index.map(_break)
    out.columns = out.columns.map(_break)
    for col in out.columns:
        if pd.api.types.is_object_dtype(out[col]) or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(_break)
    return out


def show_table(
    table: pd.DataFrame | Styler,
    key: str,
    name: str | None = None,
    *,
    hide_index: bool | None = True,
    whole: pd.DataFrame | None = None,
    static: bool = False,
    **kwargs: Any,
) -> None:
    """Draw ``table`` and a button downloading it as ``<name>.csv`` (``name`` defaults to
    the key): ``static`` as an HTML table shown whole, else with ``st.dataframe`` (``key``
    and any of its other arguments). The row labels are in the file when the table shows
    them (``hide_index`` False or None, and labels other than 0, 1, 2, ...). ``whole``: the
    frame the file holds when the table shows only part of it (a window of a game's
    moves), with the same columns."""
    if static:
        st.table(breakable(table), hide_index=hide_index is True)
    else:
        st.dataframe(table, hide_index=hide_index, key=key, **kwargs)
    csv_button(table if whole is None else whole, key, name, hide_index is not True)


def csv_button(
    table: pd.DataFrame | Styler, key: str, name: str | None = None, index: bool = False
) -> None:
    """The button downloading ``table`` as ``<name>.csv`` (its row labels with ``index``,
    when they are other than 0, 1, 2, ...)."""
    labelled = not isinstance(table_frame(table).index, pd.RangeIndex)
    st.download_button(
        t("common.download_csv"),
        data=table_csv(table, index=index and labelled),
        file_name=f"{file_stem(name or key)}.csv",
        mime="text/csv",
        icon=":material/download:",
        key=f"{key}_csv",
        on_click="ignore",
        type="tertiary",
    )


def show_transposed(frame: pd.DataFrame, column: str, key: str, name: str | None = None) -> None:
    """``frame`` with one column per value of ``column`` (e.g. one per rule set) and one row
    per other column: a few wide rows read better, and fit the page, as a tall table. The
    CSV holds it as shown."""
    shown = frame.set_index(column).T
    shown.index.name = column
    shown.columns = [str(c) for c in shown.columns]
    show_table(shown.fillna(""), key, name, hide_index=False, static=True)
