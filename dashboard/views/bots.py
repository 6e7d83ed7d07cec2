"""Bots: ratings of every bot with intervals, the cross table of matchups, per-colour results;
a recorded tournament's standing and cross table when one is chosen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.charts import layout
from dashboard.common import page_start
from dashboard.i18n.notes import translate_note
from dashboard.lang import confidence, lang, nf, player, t
from dashboard.loaders import data_dir, dataset, stat
from dashboard.tables import csv_button, figures, literal_table, show_table
from dashboard.urlstate import keep
from engine.errors import DsqError
from sim.report import fmt
from sim.stats import bot_table, matchup_table, ratings
from sim.tournament.plan import load, recorded_tournaments
from sim.tournament.report import build_report, pair_cells

FORMAT_KEYS = {
    "round-robin": "bots.format_round_robin",
    "gauntlet": "bots.format_gauntlet",
    "swiss": "bots.format_swiss",
}


def _zip(*cols):  # noqa: ANN002, ANN202
    return zip(*cols, strict=True)


def ratings_display(table: pd.DataFrame) -> pd.DataFrame:
    """The ratings table as display strings."""
    n = nf()
    return pd.DataFrame(
        {
            t("bots.col_bot"): [player(b) for b in table["bot"]],
            t("bots.col_rating"): [n.signed(v, 0) for v in table["rating"]],
            t("bots.col_error"): [n.num(v, 0) for v in table["error"]],
            t("bots.col_interval"): [
                n.interval(lo, hi, "signed", 0) for lo, hi in _zip(table["low"], table["high"])
            ],
            t("bots.col_games"): [n.count(v) for v in table["games"]],
            t("bots.col_score"): [n.pct(v) for v in table["score"]],
            t("bots.col_opponents"): [n.count(v) for v in table["opponents"]],
        }
    )


def cross_table(matchups: pd.DataFrame) -> pd.DataFrame:
    """Score of the row bot against the column bot (games in brackets)."""
    n = nf()
    cells = {
        (
            player(r["bot"]),
            player(r["opponent"]),
        ): f"{n.pct(r['score'])} ({n.count(r['games'])})"
        for r in matchups.to_dict("records")
    }
    bots = sorted({b for b, _ in cells} | {o for _, o in cells})
    return pd.DataFrame(
        [[cells.get((b, o), "" if b != o else "—") for o in bots] for b in bots],
        index=pd.Index(bots, name=t("bots.cross_corner")),
        columns=bots,
    )


def _elo(n, m: pd.DataFrame, key: str = "elo") -> list[str]:  # noqa: ANN001
    """The logistic Elo column ``key`` with its interval (columns ``key_error``, ``_low``,
    ``_high``), written by ``fmt.elo``: never ``inf``."""
    cols = (m[key], m[f"{key}_error"], m[f"{key}_low"], m[f"{key}_high"])
    return [n.elo(p, e, lo, hi, 1) for p, e, lo, hi in _zip(*cols)]


def matchup_display(m: pd.DataFrame) -> pd.DataFrame:
    """Each matchup from the bot's point of view, as display strings."""
    n = nf()
    return pd.DataFrame(
        {
            t("bots.col_bot"): [player(b) for b in m["bot"]],
            t("bots.col_opponent"): [player(b) for b in m["opponent"]],
            t("bots.col_games"): [n.count(v) for v in m["games"]],
            t("bots.col_wdl"): [
                n.wdl(w, d, lo) for w, d, lo in _zip(m["wins"], m["draws"], m["losses"])
            ],
            t("bots.col_score"): [n.pct(v) for v in m["score"]],
            t("bots.col_elo"): _elo(n, m),
            t("bots.col_los"): [n.pct(v) for v in m["los"]],
            t("bots.col_draw_ratio"): [n.pct(v) for v in m["draw_ratio"]],
            t("bots.col_score_red"): [n.pct(v) for v in m["score_as_red"]],
            t("bots.col_score_blue"): [n.pct(v) for v in m["score_as_blue"]],
            t("bots.col_pairs"): [n.count(v) for v in m["pairs"]],
            t("bots.col_ptnml"): [
                " ".join(map(n.count, p)) if isinstance(p, list) else fmt.MISSING
                for p in m["ptnml"]
            ],
            t("bots.col_ptnml_elo"): _elo(n, m, "ptnml_elo"),
            t("bots.col_nelo"): [
                n.elo(p, None, lo, hi, 1)
                for p, lo, hi in _zip(m["nelo"], m["nelo_low"], m["nelo_high"])
            ],
        }
    )


MATCHUP_FIGURES = [
    "bot", "opponent", "games", "wins", "draws", "losses", "score",
    "elo", "elo_error", "elo_low", "elo_high", "los", "draw_ratio", "games_as_red",
    "score_as_red", "score_as_blue", "pairs", "ptnml", "ptnml_elo", "ptnml_elo_error",
    "ptnml_elo_low", "ptnml_elo_high", "nelo", "nelo_low", "nelo_high",
]  # fmt: skip
COLOUR_FIGURES = [
    "bot", "opponents", "games", "wins", "draws", "losses", "score", "games_as_red",
    "score_as_red", "score_as_blue", "elo", "elo_error", "elo_low", "elo_high",
]  # fmt: skip


def show_matchups(table: pd.DataFrame, m: pd.DataFrame) -> None:
    """The matchups in two tables (results, then colours and pairs), each naming the bot and
    its opponent: one table of all the columns is wider than the page. One CSV holds the
    figures of both (``m``, the statistics layer's matchups)."""
    names = [t("bots.col_bot"), t("bots.col_opponent")]
    split = list(table.columns).index(t("bots.col_score_red"))
    st.table(literal_table(table[list(table.columns[:split])]), hide_index=True)
    st.table(literal_table(table[names + list(table.columns[split:])]), hide_index=True)
    csv_button(figures(m, MATCHUP_FIGURES, confidence()), "bots_matchups", "matchups")


def colour_display(b: pd.DataFrame) -> pd.DataFrame:
    """Each bot against the field, with its results by colour."""
    n = nf()
    return pd.DataFrame(
        {
            t("bots.col_bot"): [player(v) for v in b["bot"]],
            t("bots.col_games"): [n.count(v) for v in b["games"]],
            t("bots.col_wdl"): [
                n.wdl(w, d, lo) for w, d, lo in _zip(b["wins"], b["draws"], b["losses"])
            ],
            t("bots.col_score"): [n.pct(v) for v in b["score"]],
            t("bots.col_games_red"): [n.count(v) for v in b["games_as_red"]],
            t("bots.col_score_red"): [n.pct(v) for v in b["score_as_red"]],
            t("bots.col_score_blue"): [n.pct(v) for v in b["score_as_blue"]],
            t("bots.col_perf_elo"): _elo(n, b),
        }
    )


def ratings_chart(table: pd.DataFrame) -> go.Figure:
    """Each bot's rating with its interval."""
    rev = table.iloc[::-1]
    fig = go.Figure(
        go.Scatter(
            x=rev["rating"],
            y=[player(b) for b in rev["bot"]],
            mode="markers",
            error_x={"type": "data", "array": rev["error"]},
            marker={"size": 10},
        )
    )
    fig.update_layout(**layout(lang(), xaxis_title=t("bots.chart_axis")))
    return fig


@st.cache_data(max_entries=8, show_spinner=False)
def _tournament(folder: str, fingerprint: str, tid: str, level: float) -> dict[str, Any]:
    return build_report(load(Path(folder), tid), Path(folder), confidence=level)


def standing_display(rep: dict[str, Any]) -> pd.DataFrame:
    """A tournament's standing as display strings."""
    n = nf()
    rows = rep["standing"]
    return pd.DataFrame(
        {
            t("bots.col_rank"): [n.count(k + 1) for k in range(len(rows))],
            t("bots.col_bot"): [player(s["player"]) for s in rows],
            t("bots.col_points"): [n.num(s["points"], 1) for s in rows],
            t("bots.col_games"): [n.count(s["games"]) for s in rows],
            t("bots.col_wdl"): [n.wdl(s["wins"], s["draws"], s["losses"]) for s in rows],
            t("bots.col_byes"): [n.count(s["byes"]) for s in rows],
            t("bots.col_forfeits"): [n.count(s["forfeits"]) for s in rows],
            t("bots.col_time_losses"): [n.count(s["time_losses"]) for s in rows],
        }
    )


def tournament_cross(rep: dict[str, Any]) -> pd.DataFrame:
    """The row player's W-D-L and points against each column player, and its total."""
    n = nf()
    names = [f"{k + 1}. {player(p)}" for k, p in enumerate(rep["players"])]
    totals = {s["player"]: s["points"] for s in rep["standing"]}
    rows = []
    for i, p in enumerate(rep["players"]):
        cells = [
            "—"
            if i == j
            else ""
            if c is None
            else f"{n.wdl(c['wins'], c['draws'], c['losses'])} ({n.num(c['points'], 1)})"
            for j, c in enumerate(rep["cross"][i])
        ]
        rows.append([*cells, n.num(totals[p], 1)])
    return pd.DataFrame(
        rows,
        index=pd.Index(names, name=t("bots.cross_corner")),
        columns=[*names, t("bots.col_points")],
    )


def pairs_display(rep: dict[str, Any]) -> pd.DataFrame:
    """Each pair of a tournament once: games, W-D-L, pentanomial and logistic Elo (``*``:
    from W-D-L; the point alone when its distinct pairs are too few for an interval)."""
    n = nf()
    rows = pair_cells(rep)

    def elo(c: dict[str, Any]) -> str:
        if c["elo_from"] == "none":
            pairs = c.get("distinct_pairs", 0)
            return t("bots.pair_no_interval", elo=n.signed(c["elo"], 1), pairs=n.count(pairs))
        text = n.elo(c["elo"], c["elo_error"], c["elo_low"], c["elo_high"], 1)
        return text + ("*" if c["elo_from"] == "wdl" else "")

    return pd.DataFrame(
        {
            t("bots.col_pair"): [t("bots.pair", a=player(a), b=player(b)) for a, b, _ in rows],
            t("bots.col_games"): [n.count(c["games"]) for _, _, c in rows],
            t("bots.col_wdl"): [n.wdl(c["wins"], c["draws"], c["losses"]) for _, _, c in rows],
            t("bots.col_ptnml"): [
                " ".join(map(n.count, c["ptnml"])) if c["ptnml"] else fmt.MISSING
                for _, _, c in rows
            ],
            t("bots.col_elo"): [elo(c) for _, _, c in rows],
        }
    )


PAIR_FIGURES = ["games", "wins", "draws", "losses", "elo", "elo_low", "elo_high", "elo_from"]


def pair_figures(rep: dict[str, Any]) -> pd.DataFrame:
    """A tournament's pairs as figures (the CSV of its pairs table): one row per pair."""
    rows = [{"bot": a, "opponent": b, **{k: c.get(k) for k in PAIR_FIGURES}}
            for a, b, c in pair_cells(rep)]  # fmt: skip
    return pd.DataFrame(rows, columns=["bot", "opponent", *PAIR_FIGURES])


def first_move_line(fm: dict[str, Any] | None) -> str:
    """The first-move advantage of a tournament's games, as one sentence."""
    if not fm:
        return t("first_move.no_games")
    if not fm["identifiable"] or fm["elo"] is None:
        return t("first_move.not_identifiable")
    n = nf()
    return t(
        "first_move.summary",
        elo=n.signed(fm["elo"]),
        ci=f"{n.ci()} {n.interval(fm['elo_low'], fm['elo_high'], 'signed')}",
        p=n.p_value(fm["p_value"]),
        verdict=t(f"first_move.{fm['verdict']}"),
    )


def tournament_figures(rep: dict[str, Any]) -> None:
    """A tournament's own ratings, pairs and first-move advantage (its games only)."""
    r = rep["ratings"]
    st.markdown(f"**{t('bots.tournament_ratings')}**")
    if not r or not r["table"]:
        st.info(t("bots.need_two"))
    else:
        if r.get("note"):
            st.caption(translate_note(lang(), r["note"]))
        table = pd.DataFrame(r["table"])
        show_table(ratings_display(table), "bots_tournament_ratings", "tournament-ratings",
                   data=table, static=True)  # fmt: skip
    st.markdown(f"**{t('bots.tournament_pairs')}**")
    st.caption(t("bots.tournament_pairs_caption"))
    show_table(pairs_display(rep), "bots_tournament_pairs", "tournament-pairs",
               data=pair_figures(rep), static=True)  # fmt: skip
    st.markdown(f"**{t('bots.tournament_first_move')}**")
    st.markdown(first_move_line(rep["first_move"]))


def standing_figures(rep: dict[str, Any]) -> pd.DataFrame:
    """A tournament's standing as figures (the CSV of its table)."""
    cols = ["player", "points", "games", "wins", "draws", "losses", "byes", "forfeits",
            "time_losses"]  # fmt: skip
    rows = [{c: s[c] for c in cols} for s in rep["standing"]]
    return pd.DataFrame({"rank": range(1, len(rows) + 1), **pd.DataFrame(rows, columns=cols)})


CROSS_FIGURES = ["player", "opponent", "wins", "draws", "losses", "points"]


def tournament_cross_figures(rep: dict[str, Any]) -> pd.DataFrame:
    """A tournament's cross table as figures: one row per player and opponent who met."""
    players = rep["players"]
    rows = [
        {"player": p, "opponent": players[j], **{k: c[k] for k in CROSS_FIGURES[2:]}}
        for i, p in enumerate(players)
        for j, c in enumerate(rep["cross"][i])
        if i != j and c is not None
    ]
    return pd.DataFrame(rows, columns=CROSS_FIGURES)


def tournament_section() -> str | None:
    """The chosen tournament's standing, cross table, ratings, pairs and first-move
    advantage; its id (None when none is chosen)."""
    folder = data_dir()
    ids = recorded_tournaments(Path(folder))
    if not ids:
        return None
    keep("bots_tournament", "choice", param="tournament", default="", options=["", *ids])
    tid = st.selectbox(
        t("bots.tournament_pick"),
        ["", *ids],
        key="bots_tournament",
        format_func=lambda x: x or t("bots.tournament_all"),
    )
    if not tid:
        return None
    try:
        rep = _tournament(folder, dataset().fingerprint, tid, confidence())
    except DsqError as exc:
        st.error(str(exc))
        return str(tid)
    st.subheader(t("bots.tournament"))
    state = "bots.tournament_complete" if rep["complete"] else "bots.tournament_incomplete"
    st.caption(
        t(
            "bots.tournament_summary",
            id=tid,
            format=t(FORMAT_KEYS.get(rep["format"], "bots.format_round_robin")),
            games=nf().count(rep["games"]),
            played=nf().count(rep["rounds_played"]),
            rounds=nf().count(rep["plan"]["rounds"]),
            state=t(state),
        )
    )
    if not rep["games"]:
        st.info(t("bots.tournament_no_games"))
        return str(tid)
    st.markdown(f"**{t('bots.tournament_standing')}**")
    show_table(standing_display(rep), "bots_tournament_standing", "standing",
               data=standing_figures(rep), static=True)  # fmt: skip
    st.caption(t("bots.tournament_cross_caption"))
    show_table(tournament_cross(rep), "bots_tournament_cross", "cross-table",
               data=tournament_cross_figures(rep), hide_index=None, static=True)  # fmt: skip
    tournament_figures(rep)
    return str(tid)


ctx = page_start(t("bots.title"), t("bots.caption"))
if ctx is not None:
    chosen = tournament_section()
    r = stat(ratings, ctx.selection)
    # With a tournament above, say that these are over every selected game, not its own.
    st.subheader(t("bots.ratings_all") if chosen else t("bots.ratings"))
    if r.table.empty:
        st.info(t("bots.need_two"))
    else:
        if r.note:
            st.caption(translate_note(lang(), r.note))
        show_table(ratings_display(r.table), "bots_ratings", "ratings", static=True,
                   data=figures(r.table, list(r.table.columns), confidence()))  # fmt: skip
        st.plotly_chart(ratings_chart(r.table), key="bots_ratings_chart")
    m = stat(matchup_table, ctx.selection)
    st.subheader(t("bots.cross"))
    if m.empty:
        st.info(t("bots.no_matchups"))
    else:
        st.caption(t("bots.cross_caption"))
        show_table(cross_table(m), "bots_cross", "cross-table", hide_index=None, static=True,
                   data=figures(m, ["bot", "opponent", "games", "score"]))  # fmt: skip
        st.subheader(t("bots.matchups"))
        show_matchups(matchup_display(m), m)
    b = stat(bot_table, ctx.selection)
    st.subheader(t("bots.by_colour"))
    if b.empty:
        st.info(t("bots.no_colour"))
    else:
        show_table(colour_display(b), "bots_colour", "by-colour", static=True,
                   data=figures(b, COLOUR_FIGURES, confidence()))  # fmt: skip
