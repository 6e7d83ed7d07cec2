"""What every page starts with: its title, the data folder's problems, the selection, and
the empty states."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard.filters import current_selection
from dashboard.loaders import Loaded, dataset, stat
from sim.stats import general_stats
from sim.stats.query import Selection


@dataclass
class PageContext:
    """The dataset, the selection and the number of games it holds."""

    loaded: Loaded
    selection: Selection
    games: int


def show_skipped(loaded: Loaded) -> None:
    """A readable warning listing the files the reader skipped (corrupt or foreign)."""
    skipped = loaded.ds.skipped
    if not skipped:
        return
    lines = "\n".join(f"- `{path}`: {reason}" for path, reason in skipped[:10])
    more = f"\n- … and {len(skipped) - 10} more" if len(skipped) > 10 else ""
    st.warning(
        f"{len(skipped)} file(s) in the data folder could not be read and are left out "
        f"(nothing was deleted):\n{lines}{more}",
        icon="⚠️",
    )


def empty_state(loaded: Loaded) -> None:
    """The message shown when the data folder holds no games at all."""
    st.info(
        f"No games recorded yet in `{loaded.ds.data_dir}`.\n\n"
        "Launch a batch on the **Simulate** page, or from a terminal:\n\n"
        f"`dsq simulate --rules standard --red random --blue greedy --games 200 "
        f"--data {loaded.ds.data_dir}`",
        icon="ℹ️",
    )


def page_start(title: str, caption: str | None = None) -> PageContext | None:
    """Title, skipped-file warnings and the selection; None (after an explanatory message)
    when there are no games to show."""
    st.title(title)
    if caption:
        st.caption(caption)
    loaded = dataset()
    show_skipped(loaded)
    selection = current_selection()
    total = stat(general_stats, Selection()).games
    if total == 0:
        empty_state(loaded)
        return None
    games = stat(general_stats, selection).games if selection != Selection() else total
    st.caption(f"Selection: {selection.describe()} · {games:,} of {total:,} games")
    if games == 0:
        st.warning("No games match the filters in the sidebar. Clear some filters to see more.")
        return None
    return PageContext(loaded, selection, games)
