"""Every table a page shows, drawn with a button that downloads it as CSV.

One helper for all pages: :func:`show_table` draws the table (``st.dataframe``) and,
below it, a small button whose file is :func:`table_csv` of the same frame: the
columns and their headers as shown (in the user's language), the row labels when the
table shows them. ``st.dataframe``'s own toolbar also offers a CSV of what it shows, but
only on hover and built in the browser; the button is the one that is always visible,
the same on every page, and what the tests read.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from dashboard.lang import t


def table_frame(table: pd.DataFrame | Styler) -> pd.DataFrame:
    """The data of a table as shown (a styled table's frame without its styles)."""
    return table.data if isinstance(table, Styler) else table  # type: ignore[return-value]


def table_csv(table: pd.DataFrame | Styler, index: bool = False) -> bytes:
    """The CSV (UTF-8) of a table as shown: its headers and cells, its row labels too
    with ``index``."""
    return table_frame(table).to_csv(index=index).encode("utf-8")


def file_stem(name: str) -> str:
    """A file name made of ``name`` (letters, digits, ``-``, ``_`` and ``.``)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return stem or "table"


def show_table(
    table: pd.DataFrame | Styler,
    key: str,
    name: str | None = None,
    *,
    hide_index: bool | None = True,
    whole: pd.DataFrame | None = None,
    **kwargs: Any,
) -> None:
    """Draw ``table`` (``st.dataframe``, with ``key`` and any of its other arguments) and a
    button downloading it as ``<name>.csv`` (``name`` defaults to the key). The row labels
    are in the file when the table shows them (``hide_index`` False or None, and labels
    other than 0, 1, 2, ...). ``whole``: the frame the file holds when the table shows
    only part of it (a window of a game's moves), with the same columns."""
    st.dataframe(table, hide_index=hide_index, key=key, **kwargs)
    data = table if whole is None else whole
    labelled = not isinstance(table_frame(data).index, pd.RangeIndex)
    st.download_button(
        t("common.download_csv"),
        data=table_csv(data, index=hide_index is not True and labelled),
        file_name=f"{file_stem(name or key)}.csv",
        mime="text/csv",
        icon=":material/download:",
        key=f"{key}_csv",
        on_click="ignore",
        type="tertiary",
    )
