"""Recording a game a person played (sim.records.human): the referee's columns and meanings,
and only finished games with a person, stopped only as a person or a bot can be."""

from __future__ import annotations

import pytest

from engine.errors import DsqError
from sim.play.referee import game_moves, play_game
from sim.records.human import HUMAN, RecordError, Stop, human_game_row, save_human_game
from sim.storage.reading import open_dataset

FEN = "6t/3L3/7/7/7/7/7/7/l6 r 0 1"
SAME_COLUMNS = (
    "rules", "opening_plies", "winner", "reason", "plies", "red_captures", "blue_captures",
    "red_pieces_left", "blue_pieces_left", "den_animal", "moves", "captures",
)  # fmt: skip


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


def test_a_bot_that_lost_on_time_is_recorded_with_its_note():
    stop = Stop("blue", "time", "blue took 900 ms with 100 ms left on its time per move")
    row = human_game_row("standard", HUMAN, "greedy", ["a3a4"], stop=stop)
    assert (row["winner"], row["reason"], row["forfeit_note"]) == ("red", "time", stop.note)
    late = human_game_row("datou", HUMAN, "greedy", ["a3a4"], stop=Stop("red", "time", "x"))
    assert (late["winner"], late["reason"]) == ("blue", "time")  # the rules time people too
    with pytest.raises(RecordError, match="only the person"):
        human_game_row("standard", HUMAN, "greedy", ["a3a4"], stop=Stop("blue", "abandoned"))
    with pytest.raises(RecordError, match="no draw by agreement"):
        human_game_row("standard", HUMAN, "greedy", ["a3a4"], stop=Stop("red", "agreed_draw"))
    draw = human_game_row("yeshou", HUMAN, "greedy", ["a3a4"], stop=Stop("red", "agreed_draw"))
    assert (draw["winner"], draw["reason"], draw["forfeit_note"]) == ("draw", "agreed_draw", None)
