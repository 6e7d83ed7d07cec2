"""Bots: ratings of every bot with intervals, the cross table of matchups, per-colour results."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.charts import LAYOUT
from dashboard.common import page_start
from dashboard.loaders import stat
from sim.bots.spec import short_spec
from sim.report import fmt
from sim.stats import bot_table, matchup_table, ratings


def ratings_display(table: pd.DataFrame) -> pd.DataFrame:
    """The ratings table as display strings."""
    return pd.DataFrame({
        "bot": [short_spec(b) for b in table["bot"]],
        "rating (Elo)": [fmt.signed(v, 0) for v in table["rating"]],
        "± 95%": [fmt.num(v, 0) for v in table["error"]],
        "interval": [fmt.interval(lo, hi, fmt.signed, 0)
                     for lo, hi in zip(table["low"], table["high"], strict=True)],
        "games": [fmt.count(v) for v in table["games"]],
        "score": [fmt.pct(v) for v in table["score"]],
        "opponents": [fmt.count(v) for v in table["opponents"]],
    })  # fmt: skip


def cross_table(matchups: pd.DataFrame) -> pd.DataFrame:
    """Score of the row bot against the column bot (games in brackets)."""
    cells = {
        (short_spec(r["bot"]), short_spec(r["opponent"])):
            f"{fmt.pct(r['score'])} ({fmt.count(r['games'])})"
        for r in matchups.to_dict("records")
    }  # fmt: skip
    bots = sorted({b for b, _ in cells} | {o for _, o in cells})
    return pd.DataFrame(
        [[cells.get((b, o), "" if b != o else "—") for o in bots] for b in bots],
        index=pd.Index(bots, name="bot \\ opponent"),
        columns=bots,
    )


def matchup_display(m: pd.DataFrame) -> pd.DataFrame:
    """Each matchup from the bot's point of view, as display strings."""
    return pd.DataFrame({
        "bot": [short_spec(b) for b in m["bot"]],
        "opponent": [short_spec(b) for b in m["opponent"]],
        "games": [fmt.count(v) for v in m["games"]],
        "W / D / L": [fmt.wdl(w, d, lo, " / ")
                      for w, d, lo in zip(m["wins"], m["draws"], m["losses"], strict=True)],
        "score": [fmt.pct(v) for v in m["score"]],
        "Elo": [fmt.plus_minus(e, err, 1)
                for e, err in zip(m["elo"], m["elo_error"], strict=True)],
        "LOS": [fmt.pct(v) for v in m["los"]],
        "draw ratio": [fmt.pct(v) for v in m["draw_ratio"]],
        "score as red": [fmt.pct(v) for v in m["score_as_red"]],
        "score as blue": [fmt.pct(v) for v in m["score_as_blue"]],
        "pairs": [fmt.count(v) for v in m["pairs"]],
        "ptnml (LL LD DD/WL WD WW)": [" ".join(map(str, p)) if isinstance(p, list)
                                     else fmt.MISSING for p in m["ptnml"]],
        "pentanomial Elo": [
            fmt.plus_minus(e, err, 1)
            for e, err in zip(m["ptnml_elo"], m["ptnml_elo_error"], strict=True)
        ],
    })  # fmt: skip


def colour_display(b: pd.DataFrame) -> pd.DataFrame:
    """Each bot against the field, with its results by colour."""
    return pd.DataFrame({
        "bot": [short_spec(v) for v in b["bot"]],
        "games": [fmt.count(v) for v in b["games"]],
        "W / D / L": [fmt.wdl(w, d, lo, " / ")
                      for w, d, lo in zip(b["wins"], b["draws"], b["losses"], strict=True)],
        "score": [fmt.pct(v) for v in b["score"]],
        "games as red": [fmt.count(v) for v in b["games_as_red"]],
        "score as red": [fmt.pct(v) for v in b["score_as_red"]],
        "score as blue": [fmt.pct(v) for v in b["score_as_blue"]],
        "performance Elo": [fmt.plus_minus(e, err, 1)
                            for e, err in zip(b["elo"], b["elo_error"], strict=True)],
    })  # fmt: skip


ctx = page_start(
    "Bots",
    "Who beats whom: Bradley–Terry ratings over all games, every matchup with Elo, LOS and "
    "the pentanomial form for colour-swapped pairs, and results by colour.",
)
if ctx is not None:
    r = stat(ratings, ctx.selection)
    st.subheader("Ratings")
    if r.table.empty:
        st.info("Ratings need games between at least two different bots in the selection.")
    else:
        if r.note:
            st.caption(r.note)
        st.dataframe(ratings_display(r.table), hide_index=True, key="bots_ratings")
        t = r.table.iloc[::-1]
        fig = go.Figure(go.Scatter(
            x=t["rating"], y=[short_spec(b) for b in t["bot"]], mode="markers",
            error_x={"type": "data", "array": t["error"]}, marker={"size": 10},
        ))  # fmt: skip
        fig.update_layout(xaxis_title="Elo (95% interval)", **LAYOUT)
        st.plotly_chart(fig, key="bots_ratings_chart")
    m = stat(matchup_table, ctx.selection)
    st.subheader("Cross table")
    if m.empty:
        st.info("No games between two different bots in the selection (self-play is left out).")
    else:
        st.caption("Score of the row bot against the column bot (games in brackets).")
        st.dataframe(cross_table(m), key="bots_cross")
        st.subheader("Matchups")
        st.dataframe(matchup_display(m), hide_index=True, key="bots_matchups")
    b = stat(bot_table, ctx.selection)
    st.subheader("By colour")
    if b.empty:
        st.info("No games between two different bots in the selection.")
    else:
        st.dataframe(colour_display(b), hide_index=True, key="bots_colour")
