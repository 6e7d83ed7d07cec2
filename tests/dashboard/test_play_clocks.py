"""The Play page's clocks, draw offer and "leave the game" under Streamlit's AppTest: the
person's time is the server's (the game's clock is set by the test), a loss on time, an
agreed draw and an abandoned game are shown and recorded with their reasons."""

from __future__ import annotations

from dashboard.i18n import result_text, text
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
