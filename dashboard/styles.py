"""Style rules of the whole app: labels are shown whole (wrapped), never cut with "…".

Streamlit cuts the label of a toggle, a checkbox, a button or a metric (the texts it marks
``stMarkdownEllipsis``) to one line when its column is narrow; here they wrap instead. A
table's headers and row labels, and a paragraph, may break a long word (a bot spec has no
spaces) rather than overflow; a table's cells say themselves whether they may
(``dashboard.tables.wrap_style``: a long word may, a number never).
"""

from __future__ import annotations

import streamlit as st

WHOLE_LABELS = """
.stMarkdownEllipsis, .stMarkdownEllipsis * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
}
[data-testid="stTable"] td, [data-testid="stTable"] th { white-space: normal !important; }
[data-testid="stTable"] th { overflow-wrap: anywhere !important; }
[data-testid="stTable"] td *, [data-testid="stTable"] th * { overflow-wrap: inherit !important; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"] p {
  overflow-wrap: anywhere;
}
""".strip()


def whole_labels() -> None:
    """Add the app's style rules to the page (every run, before the page draws)."""
    st.html(f"<style>{WHOLE_LABELS}</style>")
