"""The Play page's clocks, draw offer and "leave the game" (the rules' Clocks section).

The clocks are drawn by a fragment that reruns every second while the rules time the
game; each run asks the game, on the server, whether the person's time has run out
(:meth:`sim.interactive.session.PlayGame.flag`), and redraws the whole page when it has. The
times shown are the server's: the move times that decide a loss are measured there.
"""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

from dashboard.lang import error_text, nf, side, t
from dashboard.playgame import ClickGame
from dashboard.settings import load_settings
from engine.errors import DsqError
from sim.core.timecontrol import clock_text
from sim.interactive.setup import SIDES

ABANDONED_KEY = "play_abandoned"
TICK = timedelta(seconds=1)


def clock_lines(game: ClickGame) -> list[str]:
    """One line per timed side: what is left on its clock for the whole game, and for the
    side to move what is left of its time per move and its strikes."""
    clocks = game.clocks
    if clocks is None or not clocks.time_rules.timed:
        return []
    rules = clocks.time_rules
    lines = []
    for i, colour in enumerate(SIDES):
        running = not game.over and game.to_move == colour
        spent = game.turn_ms() if running else 0.0
        left = clocks.rules[i].left_ms
        if left is not None:
            lines.append(t("play.clock_game", side=side(colour), left=clock_text(left - spent)))
        if running and rules.move_ms is not None:
            lines.append(
                t(
                    "play.clock_move",
                    side=side(colour),
                    left=clock_text(rules.move_ms - spent % rules.move_ms),
                    strikes=clocks.strikes(i),
                    limit=rules.strikes,
                )
            )
    return lines


@st.fragment(run_every=TICK)
def _ticking(game: ClickGame) -> None:
    if game.flag():
        st.rerun(scope="app")
    for line in clock_lines(game):
        st.caption(line)


def clock_panel(game: ClickGame) -> None:
    """The clocks of a game the rules time (nothing otherwise); they tick every second
    while the game goes on."""
    if game.clocks is None or not game.clocks.time_rules.timed:
        return
    if game.over:
        for line in clock_lines(game):
            st.caption(line)
        return
    _ticking(game)


def record_abandoned(game: ClickGame | None) -> None:
    """Leave an unfinished game (when another starts) and record it as abandoned."""
    if game is None or not game.leave() or game.can_record() is not None:
        return
    try:
        st.session_state[ABANDONED_KEY] = ("ok", game.save(load_settings().data_dir))
    except (DsqError, OSError) as exc:
        st.session_state[ABANDONED_KEY] = ("error", error_text(exc))


def on_leave(game: ClickGame, saved_key: str) -> None:
    """The person leaves: the game is lost by ``abandoned`` and recorded."""
    if game.leave() and game.can_record() is None:
        try:
            st.session_state[saved_key] = ("ok", game.save(load_settings().data_dir))
        except (DsqError, OSError) as exc:
            st.session_state[saved_key] = ("error", error_text(exc))


def on_offer_draw(game: ClickGame) -> None:
    """Offer the bot a draw (it answers at once)."""
    if game.can_offer_draw:
        game.offer_draw()


def stop_controls(game: ClickGame, saved_key: str) -> None:
    """Offer a draw (where the rules allow it), leave the game; the bot's last answer, and
    the game recorded as abandoned when a new one began."""
    abandoned = st.session_state.pop(ABANDONED_KEY, None)
    if abandoned is not None and abandoned[0] == "ok":
        st.info(t("play.abandoned_saved", batch=abandoned[1]), icon=":material/logout:")
    elif abandoned is not None:
        st.error(t("play.save_failed", detail=abandoned[1]))
    c = st.columns(2)
    if game.ruleset.draw_by_agreement:
        c[0].button(
            t("play.offer_draw"),
            icon=":material/handshake:",
            key="play_offer_draw",
            on_click=on_offer_draw,
            args=(game,),
            disabled=not game.can_offer_draw,
            help=t("play.draw_help"),
            width="stretch",
        )
    c[1].button(
        t("play.leave"),
        icon=":material/logout:",
        key="play_leave",
        on_click=on_leave,
        args=(game, saved_key),
        disabled=game.over or not game.moves,
        help=t("play.leave_help"),
        width="stretch",
    )
    answer = game.draw_answer
    if answer is not None and not answer.accepted:
        st.caption(t("play.draw_declined", score=nf().num(answer.score, 2)))
    stop = game.stopped
    if stop is not None and stop.reason == "time" and stop.loser == game.human and stop.note:
        st.warning(t("play.lost_on_time", note=stop.note))
