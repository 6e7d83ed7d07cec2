"""Every table a page shows, drawn with a button that downloads its figures as CSV.

One helper for all pages: :func:`show_table` draws the table and, below it, a small
button whose file is :func:`raw_csv` of the table's *data*: the figures as the statistics
layer gives them (raw numbers in plain notation, one column per estimate, its interval's
``low`` and ``high`` and the ``level`` in columns of their own), under headers that are
the same in every language. What the page shows is display text in the user's language
(``2.000``, ``50,0% (IC 95% [48,0%; 52,1%])``); the file is what a program reads back.
``st.dataframe``'s own toolbar also offers a CSV of what it shows, but only on hover and
built in the browser; the button is the one that is always visible, the same on every
page, and what the tests read.

``st.dataframe`` draws on a canvas and cuts a header or a cell to its column's width (with
"…"), and hides the columns past its width behind a scroll bar. Small tables of figures
(one row per rule set, bot or matchup) are drawn with ``static=True`` as HTML tables
(``st.table``), whose headers and cells wrap within the page's width; long listings stay
scrollable grids. ``st.table`` reads every cell as Markdown: :func:`literal_table` escapes
what Markdown would take for syntax, so a cell shows its text as it is (``> +77.5``, an
open interval, is no quotation; ``-`` no bullet), and adds no character to it: a long
text without spaces (a bot spec) may break anywhere, a number never.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from dashboard.lang import t

# What Markdown (CommonMark, GitHub's extensions, Streamlit's directives) reads as syntax
# in a one-line text; each gets a backslash before its marking character.
_INLINE = re.compile(
    r"\\(?=[!-/:-@\[-`{-~])"  # a backslash that would escape what follows
    r"|[`*~$]"  # code, emphasis, strike-through, maths
    r"|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"  # emphasis (not inside a word: ply_cap)
    r"|\[(?=[^\]]*\][\[(])"  # a link: [text](...) or [text][...]
    r"|:(?=[A-Za-z][\w+-]*[:\[]|material/)"  # :red[...], :smile:, :material/icon:
    r"|<(?=[A-Za-z/!?])"  # a tag or an autolink
    r"|&(?=#?\w+;)"  # a character reference
)
# A line opening a block: a quotation, a heading, a list item (the backslash goes where
# the match ends: before ">", "#", "-", or the "." of "1."), or a thematic break ("---").
_BLOCK = re.compile(
    r"\s*(?:(?=>)|(?=#{1,6}(?:\s|$))|(?=[-+*](?:\s|$))|\d{1,9}(?=[.)](?:\s|$))"
    r"|(?=([-*_])(?:\s*\1){2,}\s*$))"
)


def literal(value: Any) -> Any:
    """A text as Markdown source that reads back as the same text; anything else as it is."""
    if not isinstance(value, str):
        return value
    out = _INLINE.sub(lambda m: "\\" + m.group(0), value)
    block = _BLOCK.match(out)
    if block:
        out = out[: block.end()] + "\\" + out[block.end() :]
    return out


LONG_WORD = 12  # letters and signs without a space: may break anywhere (a bot spec)


def wrap_style(value: Any) -> str:
    """The CSS of a cell: a long word with letters (a bot spec) may break anywhere;
    anything else (a number, an interval) only at its spaces."""
    words = str(value).split() if isinstance(value, str) else []
    if any(len(w) > LONG_WORD and re.search(r"[^\W\d_]", w) for w in words):
        return "overflow-wrap: anywhere"
    return "overflow-wrap: normal"


def literal_table(table: pd.DataFrame | Styler) -> Styler:
    """The table as ``st.table`` shows it whole: every cell, label and header shown
    literally (:func:`literal`), long words free to break (:func:`wrap_style`)."""
    frame = table_frame(table)
    shown = frame.map(literal)
    shown.index = frame.index.map(literal)
    shown.index.names = [literal(n) for n in frame.index.names]
    shown.columns = frame.columns.map(literal)
    styled = shown.style  # on the shown labels: a style refers to its frame's labels
    if isinstance(table, Styler):
        styled.use(table.export())
    css = np.vectorize(wrap_style, otypes=[object])(frame.to_numpy(dtype=object))
    return styled.apply(lambda _: css, axis=None)


def table_frame(table: pd.DataFrame | Styler) -> pd.DataFrame:
    """The data of a table as shown (a styled table's frame without its styles)."""
    return table.data if isinstance(table, Styler) else table


def plain(value: Any) -> Any:
    """A number as a CSV cell: plain notation (``0.0000012``, never ``1.2e-06``), as many
    digits as it has, ``inf`` for an open bound, empty for none; anything else as it is."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, float | np.floating):
        return value
    if math.isnan(value):
        return ""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return np.format_float_positional(value, trim="-")


def raw_csv(data: pd.DataFrame) -> bytes:
    """The CSV (UTF-8) of a table's figures: one header row, numbers in plain notation."""
    out = data.copy()
    for col in out.columns:
        if not pd.api.types.is_integer_dtype(out[col]):
            out[col] = out[col].map(plain).astype(object)
    return out.to_csv(index=False, lineterminator="\n").encode("utf-8")


def figures(frame: pd.DataFrame, columns: list[str], level: float | None = None) -> pd.DataFrame:
    """The columns of a statistics frame a table's CSV holds (those it has, in this order),
    and the confidence ``level`` of its intervals in a column of its own. A column of
    lists (a pentanomial's five counts) becomes one column per item, ``name_0`` ...."""
    out = pd.DataFrame(index=range(len(frame)))
    for col in columns:
        if col not in frame:
            continue
        values = list(frame[col])
        if any(isinstance(v, list | tuple | np.ndarray) for v in values):
            width = max(len(v) for v in values if isinstance(v, list | tuple | np.ndarray))
            for i in range(width):
                out[f"{col}_{i}"] = pd.array(
                    [v[i] if isinstance(v, list | tuple | np.ndarray) else None for v in values],
                    dtype="Int64",
                )
        else:
            out[col] = frame[col].to_numpy()
    if level is not None:
        out["level"] = level
    return out


def file_stem(name: str) -> str:
    """A file name made of ``name`` (letters, digits, ``-``, ``_`` and ``.``)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return stem or "table"


def show_table(
    table: pd.DataFrame | Styler,
    key: str,
    name: str | None = None,
    *,
    data: pd.DataFrame,
    hide_index: bool | None = True,
    static: bool = False,
    **kwargs: Any,
) -> None:
    """Draw ``table`` and a button downloading ``data`` (its figures, see :func:`raw_csv`)
    as ``<name>.csv`` (``name`` defaults to the key): ``static`` as an HTML table shown
    whole (:func:`literal_table`), else with ``st.dataframe`` (``key`` and any of its other
    arguments)."""
    if static:
        st.table(literal_table(table), hide_index=hide_index is True)
    else:
        st.dataframe(table, hide_index=hide_index, key=key, **kwargs)
    csv_button(data, key, name)


def csv_button(data: pd.DataFrame, key: str, name: str | None = None) -> None:
    """The button downloading ``data`` as ``<name>.csv`` (:func:`raw_csv`)."""
    st.download_button(
        t("common.download_csv"),
        data=raw_csv(data),
        file_name=f"{file_stem(name or key)}.csv",
        mime="text/csv",
        icon=":material/download:",
        key=f"{key}_csv",
        on_click="ignore",
        type="tertiary",
    )


def show_transposed(
    frame: pd.DataFrame, column: str, key: str, name: str | None = None, *, data: pd.DataFrame
) -> None:
    """``frame`` with one column per value of ``column`` (e.g. one per rule set) and one row
    per other column: a few wide rows read better, and fit the page, as a tall table. The
    CSV holds ``data``, one row per value of ``column``."""
    shown = frame.set_index(column).T
    shown.index.name = column
    shown.columns = [str(c) for c in shown.columns]
    show_table(shown.fillna(""), key, name, data=data, hide_index=False, static=True)
