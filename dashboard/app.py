"""The dsq dashboard: ``streamlit run dashboard/app.py`` (or ``dsq dashboard``).

Multipage via ``st.navigation``. The sidebar holds the data folder, the filters every page
shares, and any settings problems; each page is a script in ``dashboard/views``. Errors a
page did not expect are shown as one readable message, never a traceback.

The ``dashboard``, ``sim`` and ``engine`` packages must be importable: the project is
installed (``pip install -e .``), and ``dsq dashboard`` also puts the project folder on
the ``PYTHONPATH`` of the ``streamlit run`` it starts.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.filters import sidebar_filters
from dashboard.settings import load_settings

# Not "pages/": that folder name switches Streamlit to its older directory-based navigation.
PAGES = Path(__file__).resolve().parent / "views"


def main() -> None:
    """Configure the app, draw the shared sidebar and run the chosen page."""
    st.set_page_config(
        page_title="dsq · Dou Shou Qi lab", page_icon=":material/pets:", layout="wide"
    )
    pages = [
        st.Page(PAGES / "overview.py", title="Overview", icon=":material/monitoring:",
                default=True),
        st.Page(PAGES / "compare.py", title="Compare rules", icon=":material/compare_arrows:",
                url_path="compare"),
        st.Page(PAGES / "bots.py", title="Bots", icon=":material/smart_toy:", url_path="bots"),
        st.Page(PAGES / "games.py", title="Games", icon=":material/replay:", url_path="games"),
        st.Page(PAGES / "endgames.py", title="Endgames", icon=":material/flag:",
                url_path="endgames"),
        st.Page(PAGES / "simulate.py", title="Simulate", icon=":material/play_circle:",
                url_path="simulate"),
    ]  # fmt: skip
    page = st.navigation(pages)
    settings = load_settings()
    st.sidebar.caption(f"Data folder: `{settings.data_dir}`")
    for problem in settings.problems:
        st.sidebar.warning(problem)
    try:
        sidebar_filters()
        page.run()
    except Exception as exc:  # noqa: BLE001 - show a message, never a traceback
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        st.error(
            f"This page could not be shown: {first}\n\n"
            "If the data folder changed while the page was loading, reload the page.",
            icon=":material/error:",
        )


main()
