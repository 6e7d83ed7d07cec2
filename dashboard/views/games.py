"""Games: a filterable table of recorded games, and a replay of any of them on a drawn board."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.board import board_svg
from dashboard.common import page_start
from dashboard.loaders import game_record, games_listing
from dashboard.replay import Replay, describe_result, replay_game
from sim.bots.spec import short_spec
from sim.report import fmt
from sim.storage.schema import REASONS, WINNERS

PAGE_ROWS = 200
STOPPED = ("forfeit", "time")  # reasons that stop a game before its rules end it
# The texts of clocks, forfeits and engines on this page (kept together for the catalogues).
GAME_TEXT = {
    "stopped": "Recorded result: {recorded}: {note}. The game stopped there, so the replayed "
    "position is unfinished, as expected.",
    "engine": "{side} engine {name} ({version})",
    "clock": "time control {tc}",
    "left": "{side} clock left {ms} ms",
}


def _present(value: Any) -> bool:
    """Whether a column of a game record holds a value (not NULL / NaN)."""
    return value is not None and not (isinstance(value, float) and pd.isna(value))


def game_facts(game: dict[str, Any]) -> list[str]:
    """The engines, time control and clocks of a recorded game, as short texts."""
    facts = []
    for side in ("red", "blue"):
        eng = game.get(f"{side}_engine")
        if isinstance(eng, dict) and eng.get("name"):
            facts.append(GAME_TEXT["engine"].format(
                side=side, name=eng["name"], version=eng.get("version") or "?"))  # fmt: skip
    if _present(game.get("time_control")):
        facts.append(GAME_TEXT["clock"].format(tc=game["time_control"]))
    for side in ("red", "blue"):
        left = game.get(f"{side}_clock_ms")
        if _present(left):
            facts.append(GAME_TEXT["left"].format(side=side, ms=f"{int(left):,}"))
    return facts


@st.cache_data(max_entries=32, show_spinner=False)
def cached_replay(rules: str, moves: tuple[int, ...], ply_cap: int) -> Replay:
    """The replay of a game (cached: a game's moves never change)."""
    return replay_game(rules, moves, ply_cap)


def _label(row: dict[str, Any]) -> str:
    return (
        f"{row['batch_id']} #{row['game_index']} · {row['rules']} · "
        f"{short_spec(row['red'])} vs {short_spec(row['blue'])} · "
        f"{describe_result(row['winner'], row['reason'])} in {row['plies']} plies"
    )


def _step(key: str, delta: int | None, last: int) -> None:
    """Move the replay slider (``delta`` None: to the end; 0 with last 0: to the start)."""
    current = int(st.session_state.get(key, 0))
    target = last if delta is None else max(0, min(last, current + delta))
    st.session_state[key] = target


def move_list(rep: Replay) -> pd.DataFrame:
    """One row per ply: who moved, the move, and what it captured."""
    rows = [
        {"ply": f.ply, "side": f.mover, "move": f.move, "capture": f"× {f.captured}"
         if f.captured else ""}
        for f in rep.frames[1:]
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["ply", "side", "move", "capture"])


def show_replay(game: dict[str, Any]) -> None:
    """The replay of one recorded game: info, controls, board and move list."""
    rep = cached_replay(game["rules"], tuple(game["moves"]), int(game["ply_cap"]))
    recorded = describe_result(game["winner"], game["reason"])
    replayed = describe_result(rep.winner, rep.reason)
    st.subheader(f"Game {game['batch_id']} #{game['game_index']}")
    info = st.columns(4)
    info[0].markdown(f"**Rules**  \n`{game['rules']}`")
    info[1].markdown(f"**Red (moves first)**  \n`{short_spec(game['red'])}`")
    info[2].markdown(f"**Blue**  \n`{short_spec(game['blue'])}`")
    info[3].markdown(
        f"**Seed** `{game['seed']}`  \nopening plies {game['opening_plies']}, "
        f"ply cap {game['ply_cap']}"
    )
    if rep.error:
        st.error(f"This game's record cannot be replayed completely: {rep.error}")
    facts = game_facts(game)
    if facts:
        st.caption(" · ".join(facts))
    stopped = game["reason"] in STOPPED and rep.winner is None and rep.error is None
    if rep.winner == game["winner"] and rep.reason == game["reason"]:
        st.success(f"Recorded result: {recorded}. Replayed result: {replayed} (they agree).")
    elif stopped:
        note = game.get("forfeit_note") if _present(game.get("forfeit_note")) else game["reason"]
        st.info(GAME_TEXT["stopped"].format(recorded=recorded, note=note))
    else:
        st.warning(f"Recorded result: {recorded}. Replayed result: {replayed}.")
    last = rep.plies
    key = f"ply_{game['batch_id']}_{game['game_index']}"
    if key not in st.session_state:
        st.session_state[key] = 0
    buttons = st.columns([1, 1, 1, 1, 2])
    for col, (label, icon, suffix, delta) in zip(buttons, (
        ("Start", ":material/first_page:", "_start", -last),
        ("Back", ":material/chevron_left:", "_back", -1),
        ("Forward", ":material/chevron_right:", "_fwd", 1),
        ("End", ":material/last_page:", "_end", None),
    ), strict=False):  # fmt: skip
        col.button(
            label,
            icon=icon,
            key=key + suffix,
            on_click=_step,
            args=(key, delta, last),
            width="stretch",
        )
    ply = st.slider("Ply", 0, max(last, 1), key=key, disabled=last == 0)
    ply = min(int(ply), last)
    frame = rep.frames[ply]
    if ply == 0:
        status = "Initial position · red to move"
    elif ply == last:
        status = f"Ply {ply} of {last}: {frame.mover} {frame.move} · Final position: {replayed}"
    else:
        status = f"Ply {ply} of {last}: {frame.mover} played {frame.move}"
    if frame.captured:
        status += f" · captured the {frame.captured}"
    left, right = st.columns([3, 2])
    with left:
        # st.markdown keeps inline SVG (st.html's sanitiser drops it).
        svg = board_svg(frame.board, frame.last_move, frame.capture_square, rep.dog_over_wolf)
        st.markdown(svg, unsafe_allow_html=True)
        st.markdown(f"**{status}**")
    with right:
        moves = move_list(rep)
        captures = moves[moves["capture"] != ""]
        st.caption(f"Moves around ply {ply} ({last} plies in all)")
        lo = max(0, ply - 6)
        window = moves.iloc[lo : lo + 14]
        styled = window.style.apply(
            lambda r: ["background-color: #fff3b0" if r["ply"] == ply else "" for _ in r], axis=1
        )
        st.dataframe(styled, hide_index=True, key=key + "_moves")
        st.caption(f"Captures ({len(captures)})")
        st.dataframe(captures, hide_index=True, key=key + "_captures")
        with st.expander("All moves"):
            st.text(" ".join(f.move or "" for f in rep.frames[1:]))


ctx = page_start("Games", "Every recorded game; choose one to replay it move by move.")
if ctx is not None:
    cols = st.columns([2, 2, 1])
    winners = cols[0].multiselect("Winner", list(WINNERS), key="games_winner",
                                  placeholder="any winner")  # fmt: skip
    reasons = cols[1].multiselect("End reason", list(REASONS), key="games_reason",
                                  placeholder="any reason")  # fmt: skip
    _, total = games_listing(ctx.selection, tuple(winners), tuple(reasons), 1, 0)
    pages = max(1, (total + PAGE_ROWS - 1) // PAGE_ROWS)
    page = cols[2].number_input("Page", 1, pages, 1, key="games_page") if pages > 1 else 1
    page = min(int(page), pages)
    listing, total = games_listing(
        ctx.selection, tuple(winners), tuple(reasons), PAGE_ROWS, (page - 1) * PAGE_ROWS
    )
    st.caption(f"{fmt.count(total)} games · page {page} of {pages}")
    if listing.empty:
        st.info("No games match these filters.")
    else:
        shown = listing.copy()
        shown["red"] = shown["red"].map(short_spec)
        shown["blue"] = shown["blue"].map(short_spec)
        shown["seed"] = shown["seed"].map(str)  # 64-bit seeds exceed the browser's integers
        st.dataframe(shown, hide_index=True, height=280, key="games_table")
        rows = listing.to_dict("records")
        labels = [_label(r) for r in rows]
        choice = st.selectbox("Replay a game", range(len(rows)), format_func=labels.__getitem__,
                              key="games_pick")  # fmt: skip
        row = rows[int(choice or 0)] if choice is not None and choice < len(rows) else rows[0]
        game = game_record(row["batch_id"], int(row["game_index"]))
        if game is None:
            st.warning("That game is no longer in the data folder; reload the page.")
        else:
            show_replay(game)
