"""The sidebar filters every page shares: rules, bots and batches (and three refinements).

The widgets live in the sidebar, drawn by ``app.py`` before the page runs, so a choice
made on one page holds on the others. The result is a :class:`sim.stats.query.Selection`.
The filters and the confidence level are kept in the URL (:mod:`dashboard.urlstate`); a
page may set a temporary batch filter, shown here and cleared when the person leaves it.
"""

from __future__ import annotations

import streamlit as st

from dashboard.lang import CONFIDENCE_KEY, CONFIDENCE_LEVELS, labels, player_label, t
from dashboard.loaders import filter_options
from dashboard.urlstate import keep
from engine.errors import DsqError
from sim.stats.query import Selection

SELECTION_KEY = "dsq_selection"
COLOUR_CHOICES = ("either", "red", "blue")
TEMPORARY_KEY = "f_temporary"  # a batch filter set for the person by a page, tied to a page


def _keep_known(key: str, options: list[str]) -> None:
    """Drop chosen values that are no longer among the options (the data changed)."""
    chosen = st.session_state.get(key)
    if chosen:
        st.session_state[key] = [v for v in chosen if v in options]


def sidebar_filters(page: str = "") -> Selection:
    """Draw the filters in the sidebar and return the selection they describe (``page``:
    the url path of the page being shown, which a temporary filter is tied to)."""
    options = filter_options()
    sb = st.sidebar
    sb.markdown(f"**{t('filters.title')}**")
    for key, name in (("f_rules", "rules"), ("f_bots", "bots"), ("f_batches", "batches")):
        _keep_known(key, options[name])
        keep(key, "list", param=name, options=options[name], comma=name == "batches")
    temporary = temporary_filter(page, options["batches"])
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
        keep("f_between", "bool", param="between", default=False)
        keep("f_colour", "choice", param="colour", default="either", options=COLOUR_CHOICES)
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
    if temporary is not None:
        show_temporary(temporary)
    keep("f_min_plies", "bool", param="min_plies", default=False)
    keep("f_humans", "bool", param="humans", default=False)
    keep("f_no_adjudicated", "bool", param="no_adjudicated", default=False)
    short = sb.checkbox(t("filters.min_plies"), key="f_min_plies", help=t("filters.min_plies_help"))
    humans = sb.checkbox(t("filters.humans"), key="f_humans", help=t("filters.humans_help"))
    judged = sb.checkbox(
        t("filters.no_adjudicated"), key="f_no_adjudicated", help=t("filters.no_adjudicated_help")
    )
    keep("f_voids", "bool", param="voids", default=False)
    voids = sb.checkbox(t("filters.voids"), key="f_voids", help=t("filters.voids_help"))
    confidence_setting()
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


def set_temporary_batches(batches: list[str], page: str, why: str) -> None:
    """Show only ``batches`` while the person is on the page ``page`` (its url path): the
    sidebar shows the filter, with ``why`` (a catalogue key) and a way to clear it, and it
    is cleared when they leave that page (the batch filter they had comes back)."""
    state = st.session_state
    previous = list(state.get("f_batches") or [])
    old = state.get(TEMPORARY_KEY)
    if isinstance(old, dict):
        previous = old["previous"]
    state[TEMPORARY_KEY] = {
        "batches": list(batches), "page": page, "why": why, "previous": previous, "seen": False,
    }  # fmt: skip
    state["f_batches"] = list(batches)


def clear_temporary(known: list[str] | None = None) -> None:
    """End the temporary filter: the batch filter the person had before comes back."""
    state = st.session_state
    temp = state.pop(TEMPORARY_KEY, None)
    if isinstance(temp, dict):
        previous = temp["previous"]
        state["f_batches"] = [b for b in previous if known is None or b in known]


def temporary_filter(page: str, known: list[str]) -> dict | None:
    """The temporary filter in force on ``page``, or None; one the person changed becomes
    theirs, one whose page they left is cleared (call before the batch filter is drawn)."""
    temp = st.session_state.get(TEMPORARY_KEY)
    if not isinstance(temp, dict):
        return None
    if list(st.session_state.get("f_batches") or []) != temp["batches"]:
        st.session_state.pop(TEMPORARY_KEY, None)  # the person changed it: now theirs
        return None
    if page == temp["page"]:
        temp["seen"] = True
        return temp
    if temp["seen"]:
        clear_temporary(known)
        return None
    return temp  # on its way to its page


def show_temporary(temp: dict) -> None:
    """The sidebar's note on a temporary filter: what it shows, why, and a button to clear it."""
    sb = st.sidebar
    sb.info(
        t("filters.temporary", batches=", ".join(temp["batches"]), why=t(temp["why"])),
        icon=":material/filter_alt:",
    )
    sb.button(t("filters.temporary_clear"), key="f_temporary_clear", on_click=clear_temporary)


def confidence_setting() -> None:
    """The confidence level of every interval and test the pages show (80% to 99%)."""
    st.session_state.setdefault(CONFIDENCE_KEY, 95)
    keep(CONFIDENCE_KEY, "choice", param="confidence", default=95, options=CONFIDENCE_LEVELS)
    st.sidebar.selectbox(
        t("filters.confidence"),
        CONFIDENCE_LEVELS,
        key=CONFIDENCE_KEY,
        format_func=lambda level: f"{level}%",
        help=t("filters.confidence_help"),
    )


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
