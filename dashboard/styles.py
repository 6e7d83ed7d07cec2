"""Style rules of the whole app: labels are shown whole (wrapped), never cut with "…".

Streamlit cuts a toggle's or a checkbox's label, a button's label and a select box's
chosen value to one line when its column is narrow; here they wrap instead.
"""

from __future__ import annotations

import streamlit as st

WHOLE_LABELS = """
.stCheckbox .stMarkdownEllipsis, .stToggle .stMarkdownEllipsis,
.stButton .stMarkdownEllipsis, .stDownloadButton .stMarkdownEllipsis,
.stCheckbox .stMarkdownEllipsis *, .stToggle .stMarkdownEllipsis *,
.stButton .stMarkdownEllipsis *, .stDownloadButton .stMarkdownEllipsis * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
}
.stSelectbox [data-baseweb="select"] [value], .stSelectbox [data-baseweb="select"] div {
  white-space: normal !important; text-overflow: clip !important; overflow-wrap: anywhere;
}
""".strip()


def whole_labels() -> None:
    """Add the app's style rules to the page (every run, before the page draws)."""
    st.html(f"<style>{WHOLE_LABELS}</style>")
