"""The dsq dashboard's pages: ``dsq dashboard`` (``streamlit run dashboard/server.py``,
which serves this script and the whole-selection downloads, :mod:`dashboard.server`).

Multipage via ``st.navigation``. The sidebar holds the language and display settings,
the data folder, the filters every page shares, and any settings problems; each page is
a script in ``dashboard/views``. The filters and each page's settings are kept in the URL
(:mod:`dashboard.urlstate`), so a link opens the same view. Every text comes from the
language's catalogue (:mod:`dashboard.i18n`). Errors a page did not expect are shown as
one readable message, never a traceback.

The ``dashboard``, ``sim`` and ``engine`` packages must be importable: the project is
installed (``pip install -e .``), and ``dsq dashboard`` also puts the project folder on
the ``PYTHONPATH`` of the ``streamlit run`` it starts.
"""

from __future__ import annotations

import streamlit as st

from dashboard.filters import sidebar_filters
from dashboard.icon import page_icon
from dashboard.lang import init_display_settings, sidebar_display_settings, t
from dashboard.pages import PAGE_LIST, PAGES
from dashboard.settings import load_settings
from dashboard.styles import whole_labels
from dashboard.urlstate import begin_run, sync


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when it has none)."""
    message = str(exc).strip()
    return message.splitlines()[0] if message else type(exc).__name__


def main() -> None:
    """Configure the app, draw the shared sidebar and run the chosen page."""
    init_display_settings()
    begin_run()
    st.set_page_config(page_title=t("app.title"), page_icon=page_icon(), layout="wide")
    pages = [
        st.Page(PAGES / script, title=t(title), icon=icon, url_path=path or None, default=not path)
        for script, title, icon, path in PAGE_LIST
    ]
    page = st.navigation(pages)
    whole_labels()
    sidebar_display_settings()
    settings = load_settings()
    st.sidebar.caption(t("app.data_folder", folder=settings.data_dir))
    for problem in settings.problems:
        st.sidebar.warning(
            t(
                f"app.setting_{problem.why}",
                variable=problem.variable,
                value=problem.value,
                default=problem.default,
                high=problem.high,
            )
        )
    try:
        sidebar_filters(page.url_path)
        page.run()
    except Exception as exc:  # noqa: BLE001 - show a message, never a traceback
        st.error(t("app.page_failed", detail=first_line(exc)), icon=":material/error:")
    finally:
        sync()  # the view into the URL, also when the page stopped or switched


main()
