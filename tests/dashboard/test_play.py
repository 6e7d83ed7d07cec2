"""The Play page under Streamlit's AppTest: a real engine, real bots and real parquet files.

A game is played to its result by clicking squares (a simple den-rushing player against
the random bot with a fixed seed), saved, found on the Games page and left out of the
statistics unless asked; a game from a FEN is saved and replayed from it; undo, resign,
flip, illegal clicks, the anti-chasing explanations and bad settings are checked through
the page too.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dashboard.i18n import result_text, text
from dashboard.playgame import ClickGame
from engine.board import square_index
from sim.report import fmt
from sim.stats import general_stats
from sim.stats.query import HUMAN, Selection
from sim.storage.reading import open_dataset
from tests.support import APP
from tests.support.apptest import metrics, run_app
from tests.support.dataset import TOTAL_GAMES
from tests.support.procs import WAIT

DEN = square_index("d9")


def game(at: AppTest) -> ClickGame:
    """The game the page holds in its session."""
    value = at.session_state["play_game"]
    assert isinstance(value, ClickGame)
    return value


def click(at: AppTest, square: str | int) -> None:
    """Click a square of the board (by name or index)."""
    index = square_index(square) if isinstance(square, str) else square
    at.button(key=f"sq_{index}").click().run()
    assert not at.exception, [e.value for e in at.exception]


def bold(at: AppTest) -> list[str]:
    """The page's status lines (bold markdown)."""
    return [m.value.strip("*") for m in at.markdown if m.value.startswith("**")]


def new_game(at: AppTest, bot: str = "random", seed: int = 3, colour: str = "red",
             fen: str = "", rules: str | None = None) -> None:  # fmt: skip
    """Start a game with these settings through the page's form."""
    if rules:
        at.selectbox(key="play_preset").set_value(rules).run()
    at.selectbox(key="play_opp_bot").set_value(bot).run()
    at.number_input(key="play_seed").set_value(seed).run()
    at.radio(key="play_colour").set_value(colour).run()
    at.text_input(key="play_fen").input(fen).run()
    at.button(key="play_new").click().run()
    assert not at.exception, [e.value for e in at.exception]


def den_rush(g: ClickGame) -> str:
    """A simple player: enter the den if it can, else capture, else step towards d9."""

    def distance(sq: int) -> int:
        return abs(sq % 7 - 3) + abs(sq // 7 - 8)

    board = g.board()

    def key(move: str) -> tuple[bool, bool, int, str]:
        a, b = square_index(move[:2]), square_index(move[2:])
        return b != DEN, board[b] is None, distance(b) - distance(a), move

    return min(g.pos.legal_moves(), key=key)


def test_a_game_is_played_to_its_result_saved_and_replayed(monkeypatch, data_copy):
    at = run_app(monkeypatch, data_copy, "play")
    new_game(at, bot="random", seed=3)
    g = game(at)
    assert g.setup.bot == "random" and g.setup.seed == 3 and g.human == "red"
    for _ in range(40):
        if g.over:
            break
        move = den_rush(g)
        click(at, move[:2])
        assert set(g.targets(square_index(move[:2]))) >= {square_index(move[2:])}
        click(at, move[2:])  # the person's move, then the bot's answer (same page run)
        g = game(at)
        assert g.moves[-1].by_bot or g.over
    assert g.result == ("red", "den")
    won = text("en", "play.result_won", result=result_text("en", "red", "den"))
    assert won in bold(at)
    assert any(m.value.startswith("**Final position") for m in at.markdown)
    moves = [m.move for m in g.moves]

    at.button(key="play_save").click().run()
    saved = next(s.value for s in at.success if "Saved as batch" in s.value)
    batch_id = saved.split("`")[1]
    with open_dataset(data_copy) as ds:
        row = ds.con.execute(
            "SELECT red, blue, winner, reason, plies, rules, seed FROM games WHERE batch_id = ?",
            [batch_id],
        ).fetchone()
        everything = general_stats(ds.con, Selection(humans=True)).games
        bots_only = general_stats(ds.con, Selection()).games
    assert row == (HUMAN, "random", "red", "den", len(moves), "standard", 3)
    assert (bots_only, everything) == (TOTAL_GAMES, TOTAL_GAMES + 1)

    # The statistics leave the game out unless the sidebar asks for it ...
    at.switch_page("views/overview.py").run()
    assert metrics(at)["Games played"][0] == fmt.count(TOTAL_GAMES)
    at.sidebar.checkbox(key="f_humans").check().run()
    assert metrics(at)["Games played"][0] == fmt.count(TOTAL_GAMES + 1)
    at.sidebar.checkbox(key="f_humans").uncheck().run()
    # ... and the Games page lists it and replays it to the same result: the Play page's
    # button goes there with the sidebar's batch filter set to the saved game.
    at.switch_page("views/play.py").run()
    at.button(key="play_open_saved").click().run()
    assert at.title[0].value == "Games"
    assert at.sidebar.multiselect(key="f_batches").value == [batch_id]
    recorded = result_text("en", "red", "den")
    assert any(f"Recorded result: {recorded}" in s.value and "agree" in s.value for s in at.success)
    at.button(key=f"ply_{batch_id}_0_end").click().run()
    assert any(f"Final position: {recorded}" in m.value for m in at.markdown)


def test_clicks_undo_flip_and_resign(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="greedy", seed=1)
    click(at, "a3")  # the red elephant
    g = game(at)
    assert g.selected == square_index("a3")
    assert g.targets(g.selected) == {square_index(s) for s in ("a2", "a4", "b3")}
    assert any("legal move" in line for line in bold(at))
    click(at, "e5")  # not a destination: the selection goes, nothing is played
    assert game(at).selected is None and not game(at).moves
    click(at, "a9")  # an enemy piece: nothing happens
    assert game(at).selected is None and not game(at).moves
    click(at, "a3")
    click(at, "a4")
    g = game(at)
    assert [m.move for m in g.moves][0] == "a3a4" and len(g.moves) == 2 and g.moves[1].by_bot
    assert any("The bot played" in c.value for c in at.caption)
    table = next(d.value for d in at.dataframe if "move" in d.value.columns)
    assert list(table["move"]) == [g.moves[1].move, "a3a4"]  # newest first
    # the bot's time column holds the bot's time only, not the person's
    assert table["bot's time"].iloc[0].endswith(" ms") and table["bot's time"].iloc[1] == ""

    keys = [b.key for b in at.button if b.key and b.key.startswith("sq_")]
    assert keys[0] == "sq_56" and keys[-1] == "sq_6"  # a9 first, g1 last
    at.toggle(key="play_flip").set_value(True).run()
    keys = [b.key for b in at.button if b.key and b.key.startswith("sq_")]
    assert keys[0] == "sq_6" and keys[-1] == "sq_56"  # seen from Blue

    at.button(key="play_undo").click().run()
    assert game(at).moves == [] and game(at).to_move == "red"
    at.button(key="play_resign").click().run()
    g = game(at)
    assert g.result == ("blue", "resign")
    assert text("en", "play.you_resigned", side="Blue") in bold(at)
    assert [b for b in at.button if b.key == "play_save"]  # a resigned game can be saved
    # A resignation is final: Undo is off, and the page says why
    assert at.button(key="play_undo").disabled
    assert text("en", "play.resign_final") in [c.value for c in at.caption]
    game(at).undo()  # the page's own call refuses too
    at.run()
    assert game(at).result == ("blue", "resign")


def test_the_bot_moves_first_when_you_play_blue(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="mcts", seed=2, colour="blue")
    g = game(at)
    assert g.human == "blue" and len(g.moves) == 1 and g.moves[0].by_bot
    assert g.moves[0].think_ms is not None and g.to_move == "blue"
    assert not g.can_undo()


def test_a_move_the_7_3_rule_forbids_is_not_offered_and_is_explained(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    at.toggle(key="play_opt_standard_rule_7_3").set_value(True).run()
    new_game(at, bot="random", seed=5)
    assert game(at).setup.rules == "standard+rule_7_3"
    for move in ("a3a4", "a4a3", "a3a4", "a4a3", "a3a4", "a4a3"):
        click(at, move[:2])
        click(at, move[2:])
    g = game(at)
    assert [m.move for m in g.moves if not m.by_bot] == ["a3a4", "a4a3"] * 3
    click(at, "a3")
    g = game(at)
    assert square_index("a4") not in g.targets(square_index("a3"))
    assert g.forbidden(square_index("a3")) == {square_index("a4"): ("rule_7_3",)}
    click(at, "a4")
    assert len(game(at).moves) == 12  # nothing was played
    why = text("en", "play.why_rule_7_3")
    assert any(why in i.value and "a3 → a4" in i.value for i in at.info)


def test_bad_settings_give_one_readable_message(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    before = game(at)
    at.text_input(key="play_fen").input("not a fen").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("These settings cannot start a game")
    assert at.button(key="play_new").disabled
    at.text_input(key="play_fen").input("").run()
    at.selectbox(key="play_opp_bot").set_value("alphabeta").run()
    at.text_input(key="play_opp_alphabeta_values").input("1/2/3").run()
    assert any("values takes 8 whole numbers" in e.value for e in at.error)
    assert game(at) is before  # the game in progress is untouched


def test_a_game_from_a_fen_is_saved_and_replayed_from_it(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    # Red's lion beside Blue's den: one move wins.
    fen = "6t/3L3/7/7/7/7/7/7/l6 r 0 1"
    new_game(at, bot="greedy", seed=1, fen=fen)
    click(at, "d8")
    click(at, "d9")
    assert game(at).result == ("red", "den")
    at.button(key="play_save").click().run()
    batch_id = next(s.value for s in at.success if "Saved as batch" in s.value).split("`")[1]
    with open_dataset(tmp_path / "data") as ds:
        row = ds.con.execute("SELECT start_fen, moves, reason FROM games").fetchone()
    assert row == (fen, [square_index("d8") * 64 + square_index("d9")], "den")
    at.button(key="play_open_saved").click().run()
    recorded = result_text("en", "red", "den")
    assert any(f"Recorded result: {recorded}" in s.value and "agree" in s.value for s in at.success)
    assert any(fen in c.value for c in at.caption)  # the set-up position is named
    assert any("Set-up position" in m.value for m in at.markdown)  # ply 0 is that position
    at.button(key=f"ply_{batch_id}_0_end").click().run()
    assert any(f"Final position: {recorded}" in m.value for m in at.markdown)


def test_the_fox_setting_changes_only_what_is_shown(monkeypatch, tmp_path):
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    monkeypatch.setenv("DSQ_DATA", str(tmp_path / "data"))
    at.query_params["fox"] = "1"
    at.query_params["lang"] = "zh"
    at.run()
    at.switch_page("views/play.py").run()
    assert not at.exception
    assert at.button(key=f"sq_{square_index('c3')}").label == "狐"  # the red wolf
    css = next(h.proto.body for h in at.get("html") if "st-key-sq_" in h.proto.body)
    assert '.st-key-sq_16 button p::before { content: "F";' in css
    assert "W" in game(at).pos.fen()  # the rules and the FEN keep the wolf
