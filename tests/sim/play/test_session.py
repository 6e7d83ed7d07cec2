"""The game with a person at the board (sim.interactive.session), as the Play page and ``dsq play``
run it: the setup, a person's moves and the anti-chasing explanations, undo, resign, the
bot's move, the ply cap and what can be recorded."""

from __future__ import annotations

import pytest

from engine import Position
from engine.board import square_index
from engine.errors import DsqError, MoveError
from sim.interactive.board_queries import ForbiddenMove
from sim.interactive.session import PlayGame, PlaySetup
from sim.records.human import HUMAN

CHASE_FEN = "6l/7/7/7/7/7/E6/7/6C r 0 1"  # docs/rules.md's 17-5 example

DATOU_SPELLED = "standard+tiger_jump=horizontal+rule_17_5+move_time=30+time_strikes=2"


def test_a_setup_is_checked_and_made_canonical():
    s = PlaySetup.against(DATOU_SPELLED, "blue",
                          "mcts:playouts=50", "start", 9).checked()  # fmt: skip
    assert (s.rules, s.fen, s.blue, s.human) == ("datou", None, HUMAN, "blue")
    assert s.bot.startswith("mcts:playouts=50,") and s.red == s.bot
    with pytest.raises(DsqError, match="red or blue"):
        PlaySetup.against("standard", "green", "random")
    for bad in (PlaySetup.against("nope", "red", "random"),
                PlaySetup.against("standard", "red", "nobot"),
                PlaySetup.against("standard", "red", "random", "bad fen")):  # fmt: skip
        with pytest.raises(DsqError):
            bad.checked()
    both = PlaySetup("standard", "Human", "human").checked()
    assert (both.red, both.blue, both.human, both.bot) == (HUMAN, HUMAN, None, None)


def test_moves_undo_and_resign_against_a_bot():
    g = PlayGame(PlaySetup.against("standard", "red", "greedy", None, 4))
    assert g.person_to_move and not g.can_undo()
    with pytest.raises(MoveError, match="no red piece on b3"):  # the engine's reason
        g.play("b3b4")
    g.play("a3a4")
    with pytest.raises(DsqError, match="bot's turn"):
        g.play("a7a6")
    assert g.bot_to_move and g.moves[0].move == "a3a4" and not g.moves[0].by_bot
    answer = g.bot_move()
    assert answer.by_bot and answer.side == "blue" and answer.think_ms >= 0
    assert g.last_move == (square_index(answer.move[:2]), square_index(answer.move[2:]))
    assert g.undo() == 2  # the person's move and the bot's answer
    assert g.moves == [] and g.pos.fen() == Position().fen() and not g.can_undo()
    g.play("a3a4")
    g.bot_move()
    g.resign()
    assert g.result == ("blue", "resign") and g.resigned == "red" and g.over
    assert not g.can_undo() and g.can_record() is None  # a resignation is final
    with pytest.raises(DsqError, match="over"):
        g.play("a4a5")
    assert g.undo() == 0 and g.result == ("blue", "resign") and len(g.moves) == 2
    row = g.record()
    assert (row["red"], row["blue"], row["reason"], row["plies"]) == (
        HUMAN, g.setup.bot, "resign", 2,
    )  # fmt: skip


def test_a_move_only_the_anti_chasing_rules_forbid_is_explained():
    g = PlayGame(PlaySetup.against("datou", "red", "random", CHASE_FEN, 1))
    for move in ["a3a4", "a4a5", "a5a4", "a4a3"] * 4 + ["a3a4"]:
        g.play(move)
        g.bot_move()
    a4 = square_index("a4")
    assert g.targets(a4) == set()
    forbidden = {square_index("a3"): ("rule_17_5",), square_index("a5"): ("rule_17_5",)}
    assert g.forbidden(a4) == forbidden and g.forbidding("a4a5") == ("rule_17_5",)
    with pytest.raises(ForbiddenMove, match="the 17-5 rule") as exc:
        g.play("a4a5")
    assert exc.value.rules == ("rule_17_5",)
    with pytest.raises(MoveError) as other:  # not a chase: the engine's own message
        g.play("a4b6")
    assert not isinstance(other.value, ForbiddenMove)
    assert g.forbidding("zz") == ()
    g.play("g1f1")  # another animal moves freely


def test_two_people_two_bots_and_the_ply_cap():
    people = PlayGame(PlaySetup("standard", HUMAN, HUMAN), ply_cap=3)
    for move in ("a3a4", "a7a6"):
        people.play(move)
    assert people.undo() == 1 and people.to_move == "blue"  # one move back: blue again
    people.play("a7a6")
    people.play("a4a5")
    assert people.result == ("draw", "ply_cap") and people.can_record() == "no_human"
    bots = PlayGame(PlaySetup("standard", "random", "greedy", None, 2), timed=True, ply_cap=4)
    while bots.bot_to_move:
        bots.bot_move()
    assert bots.result == ("draw", "ply_cap") and not bots.can_undo()
    with pytest.raises(DsqError, match="only a person"):
        PlayGame(bots.setup).resign()
    capped = PlayGame(PlaySetup.against("standard", "red", "random"), ply_cap=1)
    capped.play("a3a4")
    assert capped.over and capped.can_record() == "unfinished"


class HandClock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_with_clock_waits_the_clocks_start_when_the_board_is_shown():
    clock = HandClock()
    g = PlayGame(PlaySetup.against("datou", "red", "random", None, 4),
                 clock=clock, clock_waits=True)  # fmt: skip
    clock.now += 14  # a page still loading: no thinking time
    assert g.turn_ms() == 0 and not g.flag()
    clock.now += 100  # past datou's 30 s twice over, the board never shown: no loss
    assert not g.flag() and not g.over
    g.start_clocks()
    clock.now += 5
    assert g.turn_ms() == 5000
    g.start_clocks()  # shown again: the clock runs on
    assert g.turn_ms() == 5000
    plain = PlayGame(PlaySetup.against("datou", "red", "random", None, 4), clock=clock)
    clock.now += 2  # without clock_waits (dsq play): from the game's creation
    assert plain.turn_ms() == 2000


def test_a_yeshou_game_ended_within_ten_rounds_is_void():
    g = PlayGame(PlaySetup.against("yeshou", "red", "random", None, 4))
    for _ in range(2):
        g.play(next(m for m in g.pos.legal_moves()))
        g.bot_move()
    assert not g.void  # not over yet
    answer = g.offer_draw()
    assert answer.accepted and g.result == ("draw", "agreed_draw")
    assert len(g.moves) == 4 and g.void  # ended in round 2 of 10
    standard = PlayGame(PlaySetup.against("standard", "red", "random", None, 4))
    standard.play("a3a4")
    standard.resign()
    assert standard.over and not standard.void  # standard scores every game
