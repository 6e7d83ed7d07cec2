"""The sidebar filters every page shares: rules, bots and batches (and three refinements).

The widgets live in the sidebar, drawn by ``app.py`` before the page runs, so a choice
made on one page holds on the others. The result is a :class:`sim.stats.query.Selection`.
"""

from __future__ import annotations

import streamlit as st

from dashboard.lang import labels, player_label, t
from dashboard.loaders import filter_options
from engine.errors import DsqError
from sim.stats.query import Selection

SELECTION_KEY = "dsq_selection"
COLOUR_CHOICES = ("either", "red", "blue")


def _keep_known(key: str, options: list[str]) -> None:
    """Drop chosen values that are no longer among the options (the data changed)."""
    chosen = st.session_state.get(key)
    if chosen:
        st.session_state[key] = [v for v in chosen if v in options]


QUERY_BATCHES = "batches"  # ?batches=A,B: a link that shows those batches (Studies page)


def _apply_query_batches(options: dict[str, list[str]]) -> None:
    """A link whose URL names batches (``?batches=A,B``) sets the filters to exactly those
    batches, once per link: the sidebar shows it, and can be changed from there."""
    try:
        wanted = st.query_params.get(QUERY_BATCHES)
    except Exception:  # noqa: BLE001 - no URL outside a browser session
        return
    if not wanted or st.session_state.get("f_query_batches") == wanted:
        return
    st.session_state["f_query_batches"] = wanted
    st.session_state["f_batches"] = [b for b in wanted.split(",") if b in options["batches"]]
    st.session_state["f_rules"] = []
    st.session_state["f_bots"] = []


def sidebar_filters() -> Selection:
    """Draw the filters in the sidebar and return the selection they describe."""
    options = filter_options()
    _apply_query_batches(options)
    sb = st.sidebar
    sb.markdown(f"**{t('filters.title')}**")
    for key, name in (("f_rules", "rules"), ("f_bots", "bots"), ("f_batches", "batches")):
        _keep_known(key, options[name])
    rules = sb.multiselect(
        t("filters.rules"),
        options["rules"],
        key="f_rules",
        placeholder=t("filters.all_rules"),
        help=t("filters.rules_help"),
    )
    bots = sb.multiselect(
        t("filters.bots"),
        options["bots"],
        key="f_bots",
        placeholder=t("filters.all_bots"),
        format_func=player_label(),
        help=t("filters.bots_help"),
    )
    between = False
    colour = None
    if bots:
        between = sb.checkbox(t("filters.between"), key="f_between", help=t("filters.between_help"))
        if st.session_state.get("f_colour") not in COLOUR_CHOICES:
            st.session_state.pop("f_colour", None)
        chosen = sb.radio(
            t("filters.colour"),
            COLOUR_CHOICES,
            key="f_colour",
            horizontal=True,
            format_func=labels("filters.colour_"),
        )
        colour = None if chosen == "either" else chosen
    batches = sb.multiselect(
        t("filters.batches"),
        options["batches"],
        key="f_batches",
        placeholder=t("filters.all_batches"),
    )
    short = sb.checkbox(t("filters.min_plies"), key="f_min_plies", help=t("filters.min_plies_help"))
    humans = sb.checkbox(t("filters.humans"), key="f_humans", help=t("filters.humans_help"))
    judged = sb.checkbox(
        t("filters.no_adjudicated"), key="f_no_adjudicated", help=t("filters.no_adjudicated_help")
    )
    voids = sb.checkbox(t("filters.voids"), key="f_voids", help=t("filters.voids_help"))
    try:
        selection = Selection(
            rules=tuple(rules),
            bots=tuple(bots),
            batches=tuple(batches),
            colour=colour,
            min_plies=20 if short else 0,
            between=between,
            humans=humans,
            adjudicated=not judged,
            voids=voids,
        )
    except DsqError as exc:
        sb.error(t("filters.not_applied", detail=exc))
        selection = Selection()
    st.session_state[SELECTION_KEY] = selection
    return selection


def current_selection() -> Selection:
    """The selection the sidebar filters describe (all games before they are drawn)."""
    sel = st.session_state.get(SELECTION_KEY)
    return sel if isinstance(sel, Selection) else Selection()


def describe_selection(selection: Selection) -> str:
    """A one-line description of a selection in the user's language."""
    everything = t("filters.all")
    parts = [
        t("filters.describe_rules", rules=", ".join(selection.rules) or everything),
        t(
            "filters.describe_bots",
            bots=", ".join(map(player_label(), selection.bots)) or everything,
        ),
    ]
    if selection.bots and selection.between:
        parts[-1] += " " + t("filters.describe_between")
    if selection.colour:
        parts.append(t("filters.describe_colour", colour=t(f"side.{selection.colour}")))
    if selection.batches:
        parts.append(t("filters.describe_batches", batches=", ".join(selection.batches)))
    if selection.min_plies:
        parts.append(t("filters.describe_min_plies", plies=selection.min_plies))
    if selection.with_humans:
        parts.append(t("filters.describe_humans"))
    if not selection.adjudicated:
        parts.append(t("filters.describe_no_adjudicated"))
    if selection.voids:
        parts.append(t("filters.describe_voids"))
    return t("filters.separator").join(parts)
