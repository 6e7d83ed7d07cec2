"""The sidebar filters every page shares: rules, bots and batches (and two refinements).

The widgets live in the sidebar, drawn by ``app.py`` before the page runs, so a choice
made on one page holds on the others. The result is a :class:`sim.stats.query.Selection`.
"""

from __future__ import annotations

import streamlit as st

from dashboard.loaders import filter_options
from engine.errors import DsqError
from sim.bots.spec import short_spec
from sim.stats.query import Selection

SELECTION_KEY = "dsq_selection"


def _keep_known(key: str, options: list[str]) -> None:
    """Drop chosen values that are no longer among the options (the data changed)."""
    chosen = st.session_state.get(key)
    if chosen:
        st.session_state[key] = [v for v in chosen if v in options]


def sidebar_filters() -> Selection:
    """Draw the filters in the sidebar and return the selection they describe."""
    options = filter_options()
    sb = st.sidebar
    sb.markdown("**Filter the games**")
    for key, name in (("f_rules", "rules"), ("f_bots", "bots"), ("f_batches", "batches")):
        _keep_known(key, options[name])
    rules = sb.multiselect(
        "Rules", options["rules"], key="f_rules", placeholder="all rules",
        help="canonical rules specs of the recorded games",
    )  # fmt: skip
    bots = sb.multiselect(
        "Bots", options["bots"], key="f_bots", placeholder="all bots", format_func=short_spec,
        help="games in which at least one player is one of these bots",
    )  # fmt: skip
    between = False
    colour = None
    if bots:
        between = sb.checkbox(
            "Only games between the chosen bots", key="f_between",
            help="both players must be among the chosen bots",
        )  # fmt: skip
        side = sb.radio(
            "Chosen bot played", ["either colour", "red", "blue"], key="f_colour",
            horizontal=True,
        )  # fmt: skip
        colour = None if side == "either colour" else side
    batches = sb.multiselect(
        "Batches", options["batches"], key="f_batches", placeholder="all batches"
    )
    short = sb.checkbox(
        "Leave out games under 20 plies", key="f_min_plies",
        help="the Chinese page's anti-farming rule: games shorter than 10 rounds do not count",
    )  # fmt: skip
    try:
        selection = Selection(
            rules=tuple(rules),
            bots=tuple(bots),
            batches=tuple(batches),
            colour=colour,
            min_plies=20 if short else 0,
            between=between,
        )
    except DsqError as exc:
        sb.error(f"Filter not applied: {exc}")
        selection = Selection()
    st.session_state[SELECTION_KEY] = selection
    return selection


def current_selection() -> Selection:
    """The selection the sidebar filters describe (all games before they are drawn)."""
    sel = st.session_state.get(SELECTION_KEY)
    return sel if isinstance(sel, Selection) else Selection()
