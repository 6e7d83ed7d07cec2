"""The referee applies the rule set's time rules to bots, measured on real bots that think
longer than the limit (alpha-beta with a time budget), and an external engine is never
told it has more time than the rules leave it."""

from __future__ import annotations

from engine import parse_rules
from sim.bots import parse_bot
from sim.external.clocks import GameClocks
from sim.play.referee import play_game

SLOW = "alphabeta:time_ms=1500"  # each move takes about 1.5 s: over a 1 s limit


def test_one_strike_loses_when_the_rules_say_so():
    r = play_game("standard+move_time=1", SLOW, "random", seed=1, ply_cap=20)
    assert (r["winner"], r["reason"], r["plies"]) == ("blue", "time", 0)
    assert "1 strikes in a row over 1 s per move (1 lose)" in r["forfeit_note"]
    assert r["time_control"].endswith("rules: move 1 s, 1 strikes")


def test_two_strikes_in_a_row_lose_at_the_second_slow_move():
    r = play_game("standard+move_time=1+time_strikes=2", "random", SLOW, seed=2, ply_cap=20)
    assert (r["winner"], r["reason"], r["plies"]) == ("red", "time", 3)
    assert r["move_ms"][1] > 1000  # blue's first move: one strike, played
    assert "2 strikes in a row" in r["forfeit_note"]


def test_the_clock_for_the_whole_game_runs_out():
    r = play_game("standard+game_time=1", "alphabeta:time_ms=600", "random", seed=3, ply_cap=20)
    assert (r["winner"], r["reason"], r["plies"]) == ("blue", "time", 2)
    assert 0 < r["red_clock_ms"] < 1000 and "clock of 1 s ran out" in r["forfeit_note"]


def test_an_engine_is_given_no_more_time_than_the_rules_leave():
    engine = parse_bot("engine:x,movetime=5000")
    clocks = GameClocks.for_specs([engine, engine], parse_rules("datou"))
    assert clocks.go_args(0, engine.params) == "movetime 5000"  # its own, within 30 s
    assert clocks.budget_ms(0) == 5000
    tight = GameClocks.for_specs([engine, engine], parse_rules("standard+move_time=2"))
    assert tight.go_args(0, engine.params) == "movetime 2000"
    assert tight.wait_ms(0) == 2000 + tight.sides[0].margin_ms
    clocked = parse_bot("engine:x,tc=40/900")
    game = GameClocks.for_specs([clocked, clocked], parse_rules("yeshou"))
    assert game.go_args(1, clocked.params) == "wtime 600000 btime 600000 movestogo 40"
    assert game.text == "40/900; rules: game 600 s"
    free = parse_bot("engine:x")
    assert GameClocks.for_specs([free, free], parse_rules("yeshou")).go_args(0, {}) == (
        "wtime 600000 btime 600000 movetime 1000"  # its own default budget per move
    )
