"""The rules' time rules, draw offers and leaving in a game with a person at the board
(sim.interactive.session), the person's move times given by an injected clock; the games saved
and read back with their reasons."""

from __future__ import annotations

import pytest

from engine.errors import DsqError
from sim.interactive.agreement import ACCEPT_BELOW, material_score
from sim.interactive.session import PlayGame, PlaySetup
from sim.storage.reading import open_dataset

BLUE_AHEAD = "e5l/7/7/7/7/7/7/7/6R r 0 1"  # blue's elephant and lion against a red rat


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def game(rules: str, bot: str = "random", fen: str | None = None) -> tuple[PlayGame, Clock]:
    clock = Clock()
    return PlayGame(PlaySetup.against(rules, "red", bot, fen, 7), clock=clock), clock


def saved(g: PlayGame, tmp_path) -> dict:
    batch = g.save(tmp_path)
    rows = open_dataset(tmp_path).con.execute(
        "select winner, reason, forfeit_note, time_control, move_ms from games"
        " where batch_id = ?", [batch]
    ).fetchall()  # fmt: skip
    assert len(rows) == 1
    return dict(zip(("winner", "reason", "note", "time_control", "move_ms"), rows[0], strict=True))


def test_datou_two_strikes_in_a_row_lose_on_time(tmp_path):
    g, clock = game("datou")
    assert g.clocks is not None and g.clocks.time_rules.move_ms == 30_000
    clock.now += 31  # one strike
    assert g.play("a3a4") is not None and g.clocks.strikes(0) == 1
    g.bot_move()
    clock.now += 5  # in time: the strikes start again
    assert g.play(g.pos.legal_moves()[0]) is not None and g.clocks.strikes(0) == 0
    g.bot_move()
    clock.now += 31
    g.play(g.pos.legal_moves()[0])
    g.bot_move()
    clock.now += 31  # the second strike in a row: the move is not played, the game lost
    assert g.play(g.pos.legal_moves()[0]) is None
    assert g.result == ("blue", "time") and len(g.moves) == 6
    row = saved(g, tmp_path)
    assert (row["winner"], row["reason"]) == ("blue", "time")
    assert "2 strikes in a row over 30 s" in row["note"]
    assert row["time_control"] == "rules: move 30 s, 2 strikes"
    assert row["move_ms"][0] == 31_000 and len(row["move_ms"]) == 6


def test_waiting_past_the_strikes_loses_without_a_move():
    g, clock = game("datou")
    clock.now += 59
    assert not g.flag() and not g.over
    clock.now += 2  # 61 s: two limits gone by on one move
    assert g.flag() and g.result == ("blue", "time")
    assert g.can_record() is None and not g.can_undo()


def test_yeshou_the_clock_for_the_whole_game_runs_out():
    g, clock = game("yeshou")
    clock.now += 599
    g.play("a3a4")
    assert g.clock_left("red") == 1000
    g.bot_move()
    clock.now += 1.5
    assert g.flag() and g.result == ("blue", "time")
    assert "clock of 600 s ran out" in g.stopped.note


def test_untimed_rules_have_no_clocks():
    g, clock = game("standard")
    clock.now += 10_000
    assert g.clocks is None and not g.flag() and g.play("a3a4") is not None


def test_a_draw_offer_accepted_by_a_level_bot_is_recorded(tmp_path):
    g, _ = game("yeshou")
    g.play("a3a4")
    g.bot_move()
    assert g.can_offer_draw
    answer = g.offer_draw()
    assert answer.accepted and answer.source == "material" and answer.score == 0.0
    assert g.result == ("draw", "agreed_draw")
    row = saved(g, tmp_path)
    assert (row["winner"], row["reason"]) == ("draw", "agreed_draw")


def test_a_bot_ahead_declines_until_the_game_moves_on():
    g, _ = game("yeshou", fen=BLUE_AHEAD)
    assert material_score(g.pos, "blue") > ACCEPT_BELOW
    answer = g.offer_draw()
    assert not answer.accepted and not g.over
    assert not g.can_offer_draw  # declined: not again before a move
    with pytest.raises(DsqError, match="no draw"):
        g.offer_draw()
    g.play(g.pos.legal_moves()[0])
    assert g.draw_answer is None


def test_a_searching_bot_answers_by_its_own_score():
    g, _ = game("yeshou", bot="alphabeta:depth=2")
    g.play("a3a4")
    g.bot_move()
    answer = g.offer_draw()
    assert answer.source == "search" and answer.accepted == (answer.score < ACCEPT_BELOW)


def test_no_draw_offer_where_the_rules_have_none():
    g, _ = game("standard")
    assert not g.can_offer_draw
    with pytest.raises(DsqError):
        g.offer_draw()


def test_leaving_a_game_loses_it_by_abandoned(tmp_path):
    g, _ = game("standard")
    assert not g.leave() and not g.over  # nothing played yet: nothing to abandon
    g.play("a3a4")
    g.bot_move()
    assert g.leave() and g.result == ("blue", "abandoned")
    assert not g.leave() and not g.can_undo()
    row = saved(g, tmp_path)
    assert (row["winner"], row["reason"], row["note"]) == ("blue", "abandoned", None)
