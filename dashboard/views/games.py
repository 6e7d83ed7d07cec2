"""Games: a filterable table of recorded games, and a replay of any of them on a drawn board.

Games a person played (on the Play page) are listed here whatever the sidebar's choice
about them: the choice concerns the statistics, and a saved game is meant to be replayed.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.board import board_svg
from dashboard.common import page_start, spec_code
from dashboard.downloads import download_selection
from dashboard.endgames_replay import tables_agree, tables_value
from dashboard.i18n import counted
from dashboard.lang import (
    fox,
    labels,
    lang,
    nf,
    piece,
    player,
    player_label,
    reason,
    result,
    side,
    t,
)
from dashboard.loaders import dataset, game_download, game_record, games_listing
from dashboard.tables import show_table
from dashboard.urlstate import keep
from sim.bots.spec import HUMAN
from sim.core.timecontrol import clock_text
from sim.records.replay import Replay, replay_cap, replay_game, verdict
from sim.stats.games import replay_input
from sim.storage.schema import REASONS, WINNERS

PAGE_ROWS = 200


def _present(value: Any) -> bool:
    """Whether a column of a game record holds a value (not NULL / NaN)."""
    return value is not None and not (isinstance(value, float) and pd.isna(value))


def game_facts(game: dict[str, Any]) -> list[str]:
    """The set-up position, external engines, time control and clocks of a recorded game,
    as short texts."""
    facts = []
    if _present(game.get("start_fen")):
        facts.append(t("games.start_fen_fact", fen=game["start_fen"]))
    for colour in ("red", "blue"):
        eng = game.get(f"{colour}_engine")
        if isinstance(eng, dict) and eng.get("name"):
            facts.append(t("games.engine_fact", side=side(colour), name=eng["name"],
                           version=eng.get("version") or "?"))  # fmt: skip
    if _present(game.get("time_control")):
        facts.append(t("games.clock_fact", tc=game["time_control"]))
    for colour in ("red", "blue"):
        left = game.get(f"{colour}_clock_ms")
        if left is not None and _present(left):
            facts.append(t("games.clock_left", side=side(colour), left=clock_text(left)))
    return facts


@st.cache_data(max_entries=32, show_spinner=False)
def cached_replay(
    rules: str, moves: tuple[int, ...], ply_cap: int | None, start_fen: str | None
) -> Replay:
    """The replay of a game (cached: a game's moves never change)."""
    return replay_game(rules, moves, ply_cap, start_fen)


def _label(row: dict[str, Any]) -> str:
    return t(
        counted("games.pick_label", row["plies"]),
        batch=row["batch_id"],
        index=row["game_index"],
        rules=row["rules"],
        red=player(row["red"]),
        blue=player(row["blue"]),
        result=result(row["winner"], row["reason"]),
        plies=nf().count(row["plies"]),
    )


def _step(key: str, delta: int | None, last: int) -> None:
    """Move the replay slider (``delta`` None: to the end; 0 with last 0: to the start)."""
    current = int(st.session_state.get(key, 0))
    target = last if delta is None else max(0, min(last, current + delta))
    st.session_state[key] = target


def move_list(rep: Replay) -> pd.DataFrame:
    """One row per ply: who moved, the move, and what it captured (headers in the user's
    language)."""
    cols = [t("games.col_ply"), t("games.col_side"), t("games.col_move"), t("games.col_capture")]
    rows = [
        (f.ply, side(f.mover), f.move, f"× {piece(f.captured)}" if f.captured else "")
        for f in rep.frames[1:]
    ]
    return pd.DataFrame(rows, columns=cols)


def move_figures(rep: Replay) -> pd.DataFrame:
    """One row per ply as data (the CSV of the moves): side and captured piece as codes."""
    rows = [(f.ply, f.mover, f.move, f.captured or "") for f in rep.frames[1:]]
    return pd.DataFrame(rows, columns=["ply", "side", "move", "captured"])


def listing_table(listing: pd.DataFrame) -> pd.DataFrame:
    """A page of the games list as shown: headers, sides, end reasons in the user's language."""
    shown = listing.copy()
    shown["red"] = shown["red"].map(player_label())
    shown["blue"] = shown["blue"].map(player_label())
    shown["winner"] = shown["winner"].map(side)
    shown["reason"] = shown["reason"].map(reason)
    shown["seed"] = shown["seed"].map(str)  # 64-bit seeds exceed the browser's integers
    shown.columns = [t(f"games.col_{c}") for c in shown.columns]
    return shown


def _status(rep: Replay, ply: int, rules: str, final: str | None = None) -> str:
    """The line under the board; ``final`` is the result shown at the last ply (the
    recorded one when a player stopped the game, else the replay's)."""
    last = rep.plies
    frame = rep.frames[ply]
    n = nf()
    if ply == 0 and rep.start_fen:
        status = t("games.status_set_up", side=side(rep.start_side))
    elif ply == 0:
        status = t("games.status_start")
    elif ply == last:
        status = t(
            "games.status_final",
            ply=n.count(ply),
            last=n.count(last),
            side=side(frame.mover),
            move=frame.move,
            result=final or result(rep.winner, rep.reason),
        )
    else:
        status = t(
            "games.status_ply",
            ply=n.count(ply),
            last=n.count(last),
            side=side(frame.mover),
            move=frame.move,
        )
    if frame.captured:
        status += t("games.status_captured", piece=piece(frame.captured))
    table_says = tables_value(rules, frame.board, rep.to_move(ply))
    if table_says:
        status += f" · {table_says}"
    return status


def show_replay(game: dict[str, Any]) -> None:
    """The replay of one recorded game: info, controls, board and move list."""
    if "moves_recomputed" in game and not game["moves_recomputed"]:
        st.subheader(t("games.game_title", batch=game["batch_id"], index=game["game_index"]))
        st.error(t("games.seed_replay_failed", why=game["replay_problem"]))
        return
    cap = replay_cap(game["reason"], game["ply_cap"])
    start_fen = game["start_fen"] if _present(game.get("start_fen")) else None
    rep = cached_replay(game["rules"], tuple(game["moves"]), cap, start_fen)
    recorded = result(game["winner"], game["reason"])
    replayed = result(rep.winner, rep.reason)
    st.subheader(t("games.game_title", batch=game["batch_id"], index=game["game_index"]))
    info = st.columns(4)
    for col, title, spec in (
        (info[0], "games.rules", game["rules"]),
        (info[1], "games.red_player", player(game["red"])),
        (info[2], "games.blue_player", player(game["blue"])),
    ):  # a spec wraps after its ":", "," and "+" only
        col.markdown(f"**{t(title)}**  \n{spec_code(spec)}", unsafe_allow_html=True)
    person = HUMAN in (game["red"], game["blue"])  # a Play page game: no ply cap played
    info[3].markdown(
        t("games.seed_line_person" if person else "games.seed_line", seed=game["seed"],
          opening=nf().count(game["opening_plies"]), cap=nf().count(game["ply_cap"]))
    )  # fmt: skip
    if rep.error:
        if rep.error_ply is None:
            st.error(t("games.replay_rules_error", rules=game["rules"], detail=rep.error))
        else:
            st.error(
                t(
                    "games.replay_error",
                    ply=nf().count(rep.error_ply),
                    move=rep.error_move,
                    detail=rep.error,
                )
            )
    if game.get("moves_recomputed"):
        st.info(t("games.moves_recomputed"))
    facts = game_facts(game)
    if facts:
        st.caption(" · ".join(facts))
    check = verdict(game["winner"], game["reason"], rep)
    final = recorded if check == "stopped" else None
    if check == "agree":
        st.success(t("games.results_agree", recorded=recorded, replayed=replayed))
    elif check == "tables":
        tables_agree(game, rep, recorded)  # ended by the endgame tables, not by a rule
    elif check == "stopped":  # a resignation, a forfeit or a loss on time
        if _present(game.get("forfeit_note")):
            st.info(t("games.stopped", recorded=recorded, note=game["forfeit_note"]))
        else:  # a resignation: the result already says so
            st.info(t("games.stopped_plain", recorded=recorded))
    else:
        st.warning(t("games.results_differ", recorded=recorded, replayed=replayed))
    last = rep.plies
    key = f"ply_{game['batch_id']}_{game['game_index']}"
    keep(key, "int", param="ply", default=0, low=0, high=last)  # a link opens at its ply
    if key not in st.session_state:
        st.session_state[key] = 0
    buttons = st.columns([1, 1, 1, 1, 2])
    for col, (label, icon, suffix, delta) in zip(
        buttons,
        (
            ("games.start", ":material/first_page:", "_start", -last),
            ("games.back", ":material/chevron_left:", "_back", -1),
            ("games.forward", ":material/chevron_right:", "_fwd", 1),
            ("games.end", ":material/last_page:", "_end", None),
        ),
        strict=False,
    ):
        col.button(
            t(label),
            icon=icon,
            key=key + suffix,
            on_click=_step,
            args=(key, delta, last),
            width="stretch",
        )
    ply = st.slider(t("games.ply"), 0, max(last, 1), key=key, disabled=last == 0)
    ply = min(int(ply), last)
    frame = rep.frames[ply] if rep.frames else None
    left, right = st.columns([3, 2])
    with left:
        if frame is not None:
            # st.markdown keeps inline SVG (st.html's sanitiser drops it).
            svg = board_svg(
                frame.board,
                frame.last_move,
                frame.capture_square,
                rep.dog_over_wolf,
                lang=lang(),
                fox=fox(),
            )
            st.markdown(svg, unsafe_allow_html=True)
            st.markdown(f"**{_status(rep, ply, game['rules'], final)}**")
    with right:
        moves = move_list(rep)
        capture_col = t("games.col_capture")
        captures = moves[moves[capture_col] != ""]
        n = nf()
        st.caption(t(counted("games.moves_around", last), ply=n.count(ply), last=n.count(last)))
        lo = max(0, ply - 6)
        window = moves.iloc[lo : lo + 14]
        ply_col = t("games.col_ply")
        styled = window.style.apply(
            lambda r: ["background-color: #fff3b0" if r[ply_col] == ply else "" for _ in r],
            axis=1,
        )
        if window.empty:  # an empty table would say "empty" in English
            st.caption(t("games.no_moves"))
        else:
            show_table(styled, key + "_moves", data=move_figures(rep))
        st.caption(t("games.captures", count=n.count(len(captures))))
        if captures.empty:
            st.caption(t("games.no_captures"))
        else:
            raw = move_figures(rep)
            show_table(captures, key + "_captures", data=raw[raw["captured"] != ""])
        with st.expander(t("games.all_moves")):
            st.text(" ".join(f.move or "" for f in rep.frames[1:]))
            st.caption(t("games.replay_line"))
            st.code(json.dumps(replay_input(game)), language="json", wrap_lines=True)
            st.caption(t("games.replay_game"))
            ref = f"{game['batch_id']}:{int(game['game_index'])}"
            folder = shlex.quote(str(dataset().ds.data_dir))
            st.code(f"dsq replay --game {ref} --data {folder}", language="sh")
        batch, index = game["batch_id"], int(game["game_index"])
        st.download_button(
            t("games.download_game"),
            data=lambda: game_download(batch, index) or "",
            file_name=f"{batch}-{index}.txt",
            mime="text/plain",
            icon=":material/download:",
            key=key + "_download",
            on_click="ignore",
        )


ctx = page_start(t("games.title"), t("games.caption"), include_humans=True)
if ctx is not None:
    listed = ctx.selection
    cols = st.columns([2, 2, 1])
    keep("games_winner", "list", param="winner", options=WINNERS)
    keep("games_reason", "list", param="reason", options=REASONS)
    winners = cols[0].multiselect(
        t("games.winner"),
        list(WINNERS),
        key="games_winner",
        placeholder=t("games.any_winner"),
        format_func=labels("side."),
    )
    reasons = cols[1].multiselect(
        t("games.reason"),
        list(REASONS),
        key="games_reason",
        placeholder=t("games.any_reason"),
        format_func=labels("reason."),
    )
    _, total = games_listing(listed, tuple(winners), tuple(reasons), 1, 0)
    pages = max(1, (total + PAGE_ROWS - 1) // PAGE_ROWS)
    keep("games_page", "int", param="page", default=1, low=1, high=pages)
    page = cols[2].number_input(t("games.page"), 1, pages, 1, key="games_page") if pages > 1 else 1
    page = min(int(page), pages)
    listing, total = games_listing(
        listed, tuple(winners), tuple(reasons), PAGE_ROWS, (page - 1) * PAGE_ROWS
    )
    n = nf()
    st.caption(
        t(counted("games.count", total), games=n.count(total), page=n.count(page),
          pages=n.count(pages))
    )  # fmt: skip
    if listing.empty:
        st.info(t("games.none_match"))
    else:
        show_table(listing_table(listing), "games_table", "games-page", data=listing, height=280)
        download_selection(listed, tuple(winners), tuple(reasons), total)
        rows = listing.to_dict("records")
        pick_labels = [_label(r) for r in rows]
        keep("games_pick", "choice", param="game", default=0, options=range(len(rows)))
        choice = st.selectbox(
            t("games.pick"), range(len(rows)), format_func=pick_labels.__getitem__, key="games_pick"
        )
        row = rows[int(choice or 0)] if choice is not None and choice < len(rows) else rows[0]
        game = game_record(row["batch_id"], int(row["game_index"]))
        if game is None:
            st.warning(t("games.gone"))
        else:
            show_replay(game)
