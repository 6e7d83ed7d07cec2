"""The Play page's clocks, draw offer and "leave the game" under Streamlit's AppTest: the
person's time is the server's (the game's clock is set by the test), a loss on time, an
agreed draw and an abandoned game are shown and recorded with their reasons."""

from __future__ import annotations

from dashboard.i18n import result_text, text
from dashboard.playgame import ClickGame, PlaySetup
from sim.storage.reading import open_dataset
from tests.dashboard.test_play import bold, click, game, new_game
from tests.support.apptest import run_app


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def hand_clock(at) -> Clock:
    """Give the page's game a clock the test moves."""
    g, clock = game(at), Clock()
    g.clock, g.turn_started = clock, clock.now
    return clock


def recorded(data) -> list[tuple[str, str]]:
    return open_dataset(data).con.execute("select winner, reason from games").fetchall()


def test_datou_shows_the_clock_and_loses_on_time(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="random", seed=4, rules="datou")
    clock = hand_clock(at)
    at.run()
    line = text("en", "play.clock_move", side="Red", left="0:30", strikes=0, limit=2)
    assert line in [c.value for c in at.caption]
    clock.now += 61  # two limits gone by: the server flags the fall on the next run
    at.run()
    assert game(at).result == ("blue", "time")
    assert text("en", "play.result_lost", result=result_text("en", "blue", "time")) in bold(at)
    assert any("2 strikes in a row" in w.value for w in at.warning)
    at.button(key="play_save").click().run()
    assert recorded(tmp_path / "data") == [("blue", "time")]


def test_a_draw_offer_the_bot_accepts(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="random", seed=4, rules="yeshou")
    assert any("left on the clock" in c.value for c in at.caption)
    at.button(key="play_offer_draw").click().run()
    assert game(at).result == ("draw", "agreed_draw")
    at.button(key="play_save").click().run()
    assert recorded(tmp_path / "data") == [("draw", "agreed_draw")]


def test_standard_has_no_draw_offer_and_leaving_records_the_loss(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="greedy", seed=1)
    assert not [b for b in at.button if b.key == "play_offer_draw"]
    assert at.button(key="play_leave").disabled  # nothing played yet
    click(at, "a3")
    click(at, "a4")
    at.button(key="play_leave").click().run()
    assert game(at).result == ("blue", "abandoned")
    assert text("en", "play.you_left", side="Blue") in bold(at)
    assert recorded(tmp_path / "data") == [("blue", "abandoned")]


def test_a_new_game_records_the_unfinished_one_as_abandoned(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="greedy", seed=1)
    click(at, "a3")
    click(at, "a4")
    at.button(key="play_new").click().run()
    assert not game(at).moves
    assert recorded(tmp_path / "data") == [("blue", "abandoned")]
    assert any("recorded as abandoned" in i.value for i in at.info)


def clock_captions(at) -> list[str]:
    return [c.value for c in at.caption if "left" in c.value]


def test_the_clocks_start_when_the_board_is_first_shown(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    clock = Clock()
    # A game made on the server while the page is still to be drawn (14 s of loading)
    at.session_state["play_game"] = ClickGame(PlaySetup.against("datou", "red", "random",
                                                                None, 4), clock=clock)  # fmt: skip
    clock.now += 14
    at.run()  # the page first shows the board: the full 30 s
    full = text("en", "play.clock_move", side="Red", left="0:30", strikes=0, limit=2)
    assert full in clock_captions(at)
    clock.now += 5
    at.run()
    later = text("en", "play.clock_move", side="Red", left="0:25", strikes=0, limit=2)
    assert later in clock_captions(at)


def test_a_yeshou_draw_agreed_at_ply_4_is_said_to_be_void(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="random", seed=4, rules="yeshou")
    for _ in range(2):
        g = game(at)
        move = g.pos.legal_moves()[0]
        click(at, move[:2])
        click(at, move[2:])
    assert len(game(at).moves) == 4
    at.button(key="play_offer_draw").click().run()
    assert game(at).result == ("draw", "agreed_draw")
    void = text("en", "play.void", rounds="10", plies="4")
    assert void in [c.value for c in at.caption]


def test_final_clocks_read_as_minutes_and_seconds_on_the_games_page(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "data", "play")
    new_game(at, bot="random", seed=4, rules="yeshou")  # 600 s a side
    clock = hand_clock(at)
    clock.now += 42.5
    click(at, "a3")
    click(at, "a4")
    at.button(key="play_offer_draw").click().run()
    at.button(key="play_save").click().run()
    at.button(key="play_open_saved").click().run()
    facts = " ".join(m.value for m in [*at.markdown, *at.caption])
    assert text("en", "games.clock_left", side="Red", left="9:17") in facts  # 600 - 42.5 s
    assert " ms" not in facts
