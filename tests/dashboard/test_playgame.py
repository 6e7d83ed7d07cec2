"""The Play page's pure parts: the clicks on a game against a bot (selection, undo, the
anti-chasing explanations) and the board of buttons (the game itself is tested in
``tests/sim/play/test_session.py``)."""

from __future__ import annotations

import pytest

from dashboard.playboard import board_cells, board_css, display_order, square_kind
from dashboard.playgame import ClickGame, PlaySetup
from engine import Position
from engine.board import square_index
from engine.errors import DsqError


def play(g: ClickGame, move: str) -> str:
    """Two clicks: the piece, then its destination; what the second click did."""
    g.click(square_index(move[:2]))
    return g.click(square_index(move[2:]))


def test_clicks_select_move_and_never_harm():
    g = ClickGame(PlaySetup.against("standard", "red", "greedy", None, 4))
    assert g.click(square_index("e5")) == "illegal"  # an empty square, nothing selected
    assert g.click(square_index("a9")) == "illegal"  # an enemy piece
    assert g.click(square_index("a3")) == "selected"
    assert g.click(square_index("a3")) == "deselected"
    assert play(g, "a3a4") == "moved" and g.bot_to_move
    assert g.click(square_index("c3")) == "waiting"  # the bot's turn
    with pytest.raises(DsqError):
        ClickGame(PlaySetup.against("standard", "red", "greedy")).bot_move()
    answer = g.bot_move()
    assert answer.by_bot and answer.side == "blue" and answer.think_ms >= 0
    assert g.last_move == (square_index(answer.move[:2]), square_index(answer.move[2:]))
    g.undo()
    assert g.moves == [] and g.pos.fen() == Position().fen() and not g.can_undo()


def test_the_anti_chasing_rules_are_explained():
    # docs/rules.md's 17-5 example: the elephant goes round a3 a4 a5 for 17 moves.
    g = ClickGame(PlaySetup.against("datou", "red", "random", "6l/7/7/7/7/7/E6/7/6C r 0 1", 1))
    for move in ["a3a4", "a4a5", "a5a4", "a4a3"] * 4 + ["a3a4"]:
        assert play(g, move) == "moved"
        g.bot_move()
    a4 = square_index("a4")
    assert g.targets(a4) == set()
    forbidden = {square_index("a3"): ("rule_17_5",), square_index("a5"): ("rule_17_5",)}
    assert g.forbidden(a4) == forbidden
    assert g.click(a4) == "selected"
    assert g.click(square_index("a5")) == "forbidden"
    assert g.notice.key == "play.forbidden" and g.notice.fields["rules"] == ("rule_17_5",)
    assert play(g, "g1f1") == "moved"  # another animal moves freely


def test_the_board_of_buttons():
    board = Position().board()
    cells = board_cells(board, "pt", fox=True, selected=14, targets={21, 7}, forbidden={15},
                        last_move=(20, 27))  # fmt: skip
    by = {c.square: c for c in cells}
    assert by[14].label == "Elefante" and by[14].power == "8" and "selected" in by[14].marks
    assert by[16].label == "Raposa" and by[16].letter == "F"  # the wolf, shown as a fox
    assert by[21].marks == ("target",) and "forbidden" in by[15].marks
    assert "last_from" in by[20].marks and "last_to" in by[27].marks
    assert by[3].label == "TOCA" and by[2].label == "armadilha" and by[28].label == ""
    assert [square_kind(s) for s in (3, 2, 29, 0)] == ["den", "trap", "water", "land"]
    css = board_css(cells)
    assert '.st-key-sq_16 button p::before { content: "F";' in css
    assert css.count("::after") >= 3
    assert display_order(False)[0][0] == 56 and display_order(True)[0][0] == 6
    assert sorted(sq for row in display_order(True) for sq in row) == list(range(63))
