"""Play: a game against any bot under any rules, in the browser.

The game lives in the session (:class:`dashboard.playgame.ClickGame`, the clicks on a
:class:`sim.interactive.session.PlayGame`); the board and its
controls are one fragment, so a click reruns only them. A click on a square selects one of
your animals and shows its legal destinations; a second click plays it. When it is the
bot's turn the fragment asks the bot for its move (with a spinner) and draws the board
again. A finished game (ended by the rules, resigned, or forfeited by an external engine
that faulted) can be saved into the data folder as a recorded game, from whatever
position it began. What the page writes about the game comes from :mod:`dashboard.playtexts`.
"""

from __future__ import annotations

import secrets
import threading

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dashboard import hints
from dashboard.builders import bot_builder, rules_builder
from dashboard.common import sample_note
from dashboard.filters import set_temporary_batches
from dashboard.i18n import counted
from dashboard.lang import error_text, fox, labels, lang, nf, piece, result, side, t
from dashboard.limits import check_bot_limits
from dashboard.playboard import board_cells, draw_board
from dashboard.playclock import clock_panel, record_abandoned, stop_controls
from dashboard.playgame import ClickGame, PlaySetup
from dashboard.playtexts import end_notes, move_figures, moves_table, notice_text, status_text
from dashboard.settings import Limits, load_settings
from dashboard.tables import show_table
from dashboard.urlstate import keep
from engine.errors import DsqError
from sim.bots.protocol import warm_up as warm_up_bot
from sim.bots.registry import KINDS
from sim.bots.spec import short_spec

GAME_KEY = "play_game"
REQUEST_KEY = "play_request"
SAVED_KEY = "play_saved"
ERROR_KEY = "play_error"
DEFAULT_BOT = "alphabeta"


@st.cache_resource(show_spinner=False)
def warm_up() -> threading.Thread:
    """Load every bot's compiled code once per server, in the background, so that the
    first answer of a bot is as quick as the next ones."""

    def run() -> None:
        for name, kind in KINDS.items():
            if not kind.spec_module:  # an external engine: nothing of ours to load
                warm_up_bot(name, "standard")

    thread = threading.Thread(target=run, name="dsq-play-warm-up", daemon=True)
    thread.start()
    return thread


def setup_form(limits: Limits) -> PlaySetup | None:
    """The new-game settings; the setup they describe, or None (with the reason kept for
    the page to show) when one of them is not valid."""
    with st.expander(t("play.settings")):
        left, right = st.columns(2)
        with left:
            st.markdown(f"**{t('play.rules')}**")
            rules = rules_builder("play")
        with right:
            keep("play_colour", "choice", default="red", options=("red", "blue"))
            keep("play_fen", "str", default="", valid=lambda f: len(f) <= 200)
            keep("play_seed", "int", low=0, high=2**31 - 1)
            human = st.radio(
                t("play.colour"),
                ("red", "blue"),
                key="play_colour",
                horizontal=True,
                format_func=labels("play.colour_"),
            )
            bot = bot_builder("play_opp", t("play.opponent"), limits, DEFAULT_BOT)
            fen = st.text_input(
                t("play.fen"),
                key="play_fen",
                placeholder=t("play.fen_start"),
                help=t("play.fen_help"),
            )
            seed = st.number_input(
                t("play.seed"),
                0,
                2**31 - 1,
                None,
                key="play_seed",
                placeholder=t("play.seed_random"),
                help=t("play.seed_help"),
            )
    try:
        check_bot_limits(bot, limits)
        request = PlaySetup.against(
            rules,
            human,
            bot,
            fen.strip() or None,
            secrets.randbits(31) if seed is None else int(seed),
        ).checked()
    except DsqError as exc:
        st.session_state[ERROR_KEY] = exc
        return None
    st.session_state.pop(ERROR_KEY, None)
    return request


def new_game(request: PlaySetup | None) -> None:
    """Start a game with the settings (nothing changes when they are not valid)."""
    if request is None:
        return
    old = _game()
    if old is not None:
        record_abandoned(old)  # an unfinished game left for another: a loss, recorded
        old.close()
    st.session_state[GAME_KEY] = ClickGame(request)
    st.session_state.pop(SAVED_KEY, None)


def _game() -> ClickGame | None:
    game = st.session_state.get(GAME_KEY)
    return game if isinstance(game, ClickGame) else None


def on_square(square: int) -> None:
    """A click on a square (see :meth:`ClickGame.click`)."""
    game = _game()
    if game is not None:
        game.click(square)


def on_undo() -> None:
    """Take back the person's last move (and the bot's answer)."""
    game = _game()
    if game is not None and game.can_undo():
        game.undo()
        st.session_state.pop(SAVED_KEY, None)


def on_resign() -> None:
    """Give the game up."""
    game = _game()
    if game is not None:
        game.resign()


def on_save() -> None:
    """Record the finished game in the data folder."""
    game = _game()
    if game is None or game.can_record() is not None:
        return
    try:
        batch_id = game.save(load_settings().data_dir)
    except (DsqError, OSError) as exc:
        st.session_state[SAVED_KEY] = ("error", error_text(exc))
    else:
        st.session_state[SAVED_KEY] = ("ok", batch_id)


def on_open_saved(batch_id: str) -> None:
    """Show the saved game on the Games page (the sidebar's batch filter set to it, shown
    there, and cleared when the person leaves that page)."""
    set_temporary_batches([batch_id], page="games", why="play.temporary_why")
    st.session_state["play_go_games"] = True


def _rerun() -> None:
    """Draw the game again: the fragment alone when this run is the fragment's."""

    ctx = get_script_run_ctx()
    st.rerun(scope="fragment" if ctx is not None and ctx.fragment_ids_this_run else "app")


def controls(game: ClickGame, request: PlaySetup | None) -> None:
    """Undo, resign, new game, flip; and the option to show the tablebase value."""
    c = st.columns(3)
    c[0].button(
        t("play.undo"),
        icon=":material/undo:",
        key="play_undo",
        on_click=on_undo,
        disabled=not game.can_undo(),
        width="stretch",
    )
    c[1].button(
        t("play.resign"),
        icon=":material/flag:",
        key="play_resign",
        on_click=on_resign,
        disabled=game.over,
        width="stretch",
    )
    c[2].button(
        t("play.new"),
        icon=":material/restart_alt:",
        key="play_new",
        on_click=new_game,
        args=(request,),
        disabled=request is None,
        width="stretch",
    )
    st.toggle(t("play.flip"), key="play_flip")
    if hints.available() and st.toggle(t("play.hint"), key="play_hint", value=True):
        value = hints.position_value(game.setup.rules, game.pos.fen())
        if value is None:
            st.caption(t("play.hint_none"))
        elif value["winner"] == "draw":
            st.caption(t("play.hint_draw"))
        else:
            plies = value.get("plies")
            st.caption(t(counted("play.hint_win", plies), side=side(value["winner"]),
                         plies=nf().count(plies)))  # fmt: skip


def save_panel(game: ClickGame) -> None:
    """Save a finished game as a recorded game, or say why it cannot be."""
    saved = st.session_state.get(SAVED_KEY)
    if saved and saved[0] == "ok":
        st.success(t("play.saved", batch=saved[1]))
        st.button(
            t("play.open_saved"),
            key="play_open_saved",
            on_click=on_open_saved,
            args=(saved[1],),
            icon=":material/replay:",
        )
        return
    if saved and saved[0] == "error":
        st.error(t("play.save_failed", detail=saved[1]))
    if game.can_record() is not None:
        return
    sample_note(load_settings().data_dir)
    st.button(
        t("play.save"), icon=":material/save:", key="play_save", on_click=on_save, type="primary"
    )


@st.fragment
def game_area(request: PlaySetup | None) -> None:
    """The board, the status and the controls (rerun alone on each click)."""
    try:
        _game_area(request)
    except Exception as exc:  # noqa: BLE001 - a fragment rerun bypasses app.py's handler
        st.error(t("play.failed", detail=error_text(exc)))


def _game_area(request: PlaySetup | None) -> None:
    game = _game()
    if game is None:
        return
    if st.session_state.pop("play_go_games", False):
        st.switch_page("views/games.py")
    left, right = st.columns([1, 1])
    with right:
        st.markdown(f"**{status_text(game)}**")
        bot = short_spec(game.setup.bot or "")
        st.caption(t("play.matchup", you=side(game.human), bot=bot, rules=game.setup.rules))
        thinking = st.empty()
        for line in end_notes(game):
            st.caption(line)
        note = notice_text(game)
        if note:
            st.info(note, icon=":material/info:")
        last_bot = next((m for m in reversed(game.moves) if m.by_bot), None)
        if last_bot is not None:
            st.caption(
                t("play.bot_answered", move=last_bot.move, ms=nf().num(last_bot.think_ms, 0))
            )
        for m in game.moves[-2:]:
            if m.captured:
                st.caption(
                    t(
                        "play.captured",
                        side=side(m.side),
                        piece=piece(m.captured),
                        square=m.move[2:],
                    )
                )
        if game.forfeit is not None:
            st.warning(t("play.engine_forfeit", note=game.forfeit))
        controls(game, request)
        stop_controls(game, SAVED_KEY)
        save_panel(game)
        if game.moves:
            show_table(moves_table(game), "play_moves", "moves", data=move_figures(game),
                       height=260)  # fmt: skip
    with left:
        selected = game.selected
        cells = board_cells(
            game.board(),
            lang(),
            fox(),
            game.ruleset.dog_over_wolf,
            selected,
            game.targets(selected) if selected is not None else set(),
            set(game.forbidden(selected)) if selected is not None else set(),
            game.last_move,
            bool(game.moves and game.moves[-1].captured),
        )
        draw_board(cells, bool(st.session_state.get("play_flip")), on_square)
        game.start_clocks()  # the person sees the board from now: their time runs
        if game.over and game.result is not None:
            winner, why = game.result
            st.markdown(f"**{t('play.final', result=result(winner, why))}**")
    if game.bot_to_move:
        with thinking, st.spinner(t("play.thinking", bot=bot)):
            game.bot_move()
        _rerun()


st.title(t("play.title"))
st.caption(t("play.caption"))
settings = load_settings()
warm_up()
request = setup_form(settings.limits)
error = st.session_state.get(ERROR_KEY)
if error is not None:
    st.error(t("play.bad_settings", detail=error_text(error)))
if _game() is None and request is not None:
    new_game(request)
elif _game() is None:
    new_game(PlaySetup.against("standard", "red", DEFAULT_BOT, None, secrets.randbits(31)))
if (current := _game()) is not None:
    clock_panel(current)
game_area(request)
