"""What every page starts with: its title, the data folder's problems, the selection, and
the empty states."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace
from pathlib import Path

import streamlit as st

from dashboard.filters import current_selection, describe_selection
from dashboard.i18n import counted
from dashboard.lang import nf, t
from dashboard.loaders import Loaded, dataset, games_listing, stat
from sim.stats import general_stats
from sim.stats.query import Selection, void_games
from sim.storage.paths import FIRST_BATCH, dsq_line, is_bundled_sample


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
    n = nf()
    more = ""
    if len(skipped) > 10:
        more = "\n- " + t("common.skipped_more", count=n.count(len(skipped) - 10))
    head = t(counted("common.skipped", len(skipped)), count=n.count(len(skipped)))
    st.warning(f"{head}\n{lines}{more}", icon="⚠️")


def empty_state(loaded: Loaded) -> None:
    """The message shown when the data folder holds no games at all."""
    command = dsq_line(*FIRST_BATCH, data=loaded.ds.data_dir, always=True)
    st.info(t("common.no_games_yet", folder=loaded.ds.data_dir, command=command), icon="ℹ️")


def page_start(
    title: str, caption: str | None = None, include_humans: bool = False
) -> PageContext | None:
    """Title, skipped-file warnings and the selection; None (after an explanatory message)
    when there are no games to show. ``include_humans`` counts games a person played
    whatever the sidebar says (the Games page lists them)."""
    st.title(title)
    if caption:
        st.caption(caption)
    loaded = dataset()
    show_skipped(loaded)
    chosen = current_selection()
    description = describe_selection(chosen)  # what the sidebar says, box included
    selection = chosen
    if include_humans:
        selection = replace(chosen, humans=True)
        if not chosen.with_humans:  # listed here whatever the box: say so, not "included"
            description += t("filters.separator") + t("filters.describe_humans_listed")
    everything = Selection(humans=True)
    total = games_listing(everything, limit=1)[1]  # a count only: cheap on any dataset
    if total == 0:
        empty_state(loaded)
        return None
    void = stat(void_games, selection)  # Scoring 1: void games are not results
    if selection != everything:
        games = stat(general_stats, selection).games
    else:
        games = total - void
    n = nf()
    st.caption(
        t(
            counted("common.selection", total),
            description=description,
            games=n.count(games),
            total=n.count(total),
        )
    )
    if void:
        key = "common.void_counted" if selection.voids else "common.void_left_out"
        st.caption(t(key, void=n.count(void)))
    if games == 0 and not (include_humans and void):  # the Games page lists void games
        st.warning(t("common.no_match"))
        return None
    return PageContext(loaded, selection, games)


def sample_note(data_dir: Path) -> None:
    """Say, where a page writes games, that the data folder is the bundled sample (what is
    written there joins the sample's statistics) and how to keep one's own apart."""
    if is_bundled_sample(data_dir):
        st.info(t("common.sample_writes", folder=data_dir), icon=":material/info:")


def spec_code(spec: str) -> str:
    """A bot or rules spec as inline code (HTML for ``st.markdown(...,
    unsafe_allow_html=True)``) that a narrow column wraps only after a ``:``, ``,`` or
    ``+``, never inside a word; a copy of it is the spec itself (``<wbr>`` adds no
    character)."""
    return "<code>" + re.sub(r"([:,+])", r"\1<wbr>", html.escape(spec)) + "</code>"
