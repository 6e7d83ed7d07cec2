"""The Play page's pure parts: the game against a bot (clicks, undo, the anti-chasing
explanations), the board of buttons, and a human game's record (same columns and meanings
as the referee's records)."""

from __future__ import annotations

import pytest

from dashboard.playboard import board_cells, board_css, display_order, square_kind
from dashboard.playgame import PlayGame, PlaySetup
from engine import Position
from engine.board import square_index
from engine.errors import DsqError
from sim.play.human import HUMAN, RecordError, Stop, human_game_row, save_human_game
from sim.play.referee import game_moves, play_game
from sim.storage.reading import open_dataset

FEN = "6t/3L3/7/7/7/7/7/7/l6 r 0 1"
SAME_COLUMNS = (
    "rules", "opening_plies", "winner", "reason", "plies", "red_captures", "blue_captures",
    "red_pieces_left", "blue_pieces_left", "den_animal", "moves", "captures",
)  # fmt: skip


def play(g: PlayGame, move: str) -> str:
    """Two clicks: the piece, then its destination; what the second click did."""
    g.click(square_index(move[:2]))
    return g.click(square_index(move[2:]))


@pytest.mark.parametrize("seed", [0, 1])
def test_a_human_record_has_the_referees_columns(seed):
    game = play_game("yeshou", "greedy", "random", seed=seed, ply_cap=1000)
    assert game["reason"] != "ply_cap"
    row = human_game_row("yeshou", HUMAN, "random", game_moves(game), seed=seed)
    for column in SAME_COLUMNS:
        assert row[column] == game[column], column
    assert row["branching"] == pytest.approx(game["branching"])
    assert (row["red"], row["blue"], row["seed"], row["ply_cap"]) == (
        HUMAN, "random", seed, game["plies"],
    )  # fmt: skip


def test_only_finished_games_with_a_person_are_recorded(tmp_path):
    with pytest.raises(RecordError, match="ended by the rules") as exc:
        human_game_row("standard", HUMAN, "greedy", ["a3a4"])
    assert exc.value.why == "unfinished"
    with pytest.raises(RecordError) as exc:
        human_game_row("standard", "random", "greedy", [])
    assert exc.value.why == "no_human"
    with pytest.raises(DsqError):
        human_game_row("standard", HUMAN, "greedy", ["a3a5"])
    # Stopped games: only the person resigns, only the bot forfeits, never after the end.
    for stop in (Stop("blue", "resign"), Stop("red", "forfeit", "crash: x"), Stop("red", "x")):
        with pytest.raises(RecordError) as exc:
            human_game_row("standard", HUMAN, "greedy", ["a3a4"], stop=stop)
        assert exc.value.why == "stop"
    won = ["d8d9"]  # Red's lion enters the den
    with pytest.raises(RecordError, match="had ended"):
        human_game_row("standard", HUMAN, "greedy", won, start_fen=FEN, stop=Stop("red", "resign"))
    game = play_game("standard", "greedy", "random", seed=3)
    batch = save_human_game(tmp_path, human_game_row("standard", "greedy", HUMAN,
                                                     game_moves(game)))  # fmt: skip
    with open_dataset(tmp_path) as ds:
        assert ds.con.execute("SELECT blue, plies FROM games").fetchall() == [
            (HUMAN, game["plies"])
        ]
        record = next(b for b in ds.batches if b["batch_id"] == batch)
    assert batch.startswith("play-") and record["status"] == "done"
    assert record["games_done"] == 1 and record["counts"][game["winner"]] == 1


def test_clicks_select_move_and_never_harm():
    g = PlayGame(PlaySetup("standard", "red", "greedy", None, 4))
    assert g.click(square_index("e5")) == "illegal"  # an empty square, nothing selected
    assert g.click(square_index("a9")) == "illegal"  # an enemy piece
    assert g.click(square_index("a3")) == "selected"
    assert g.click(square_index("a3")) == "deselected"
    assert play(g, "a3a4") == "moved" and g.bot_to_move
    assert g.click(square_index("c3")) == "waiting"  # the bot's turn
    with pytest.raises(DsqError):
        PlayGame(PlaySetup("standard", "red", "greedy")).bot_move()
    answer = g.bot_move()
    assert answer.by_bot and answer.side == "blue" and answer.think_ms >= 0
    assert g.last_move == (square_index(answer.move[:2]), square_index(answer.move[2:]))
    g.undo()
    assert g.moves == [] and g.pos.fen() == Position().fen() and not g.can_undo()


def test_the_anti_chasing_rules_are_explained():
    # docs/rules.md's 17-5 example: the elephant goes round a3 a4 a5 for 17 moves.
    g = PlayGame(PlaySetup("datou", "red", "random", "6l/7/7/7/7/7/E6/7/6C r 0 1", 1))
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


def test_a_setup_is_checked_and_made_canonical():
    s = PlaySetup("standard+tiger_jump=horizontal+rule_17_5", "blue", "mcts:playouts=50",
                  "start", 9).checked()  # fmt: skip
    assert (s.rules, s.fen) == ("datou", None) and s.bot.startswith("mcts:playouts=50,")
    for bad in (PlaySetup("nope", "red", "random"), PlaySetup("standard", "green", "random"),
                PlaySetup("standard", "red", "nobot"),
                PlaySetup("standard", "red", "random", "bad fen")):  # fmt: skip
        with pytest.raises(DsqError):
            bad.checked()


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
