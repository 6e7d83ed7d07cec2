"""Saving every finished game with a person (the Play page's and ``dsq play --save``): a
resignation, a game from a FEN and an external engine's forfeit are recorded, read back
through the one reader, replayed to the positions that were played (on the Games page's
replay and by ``dsq replay``), and counted by the statistics only when games against
people are asked for."""

from __future__ import annotations

from pathlib import Path

from sim.bots.context import BotContext
from sim.external import pool
from sim.external.registry import EngineRegistry
from sim.interactive.session import PlayGame, PlaySetup
from sim.records.human import HUMAN
from sim.records.replay import replay, replay_game
from sim.stats import end_reasons, general_stats
from sim.stats.games import game_record, replay_input
from sim.stats.query import Selection
from sim.storage.reading import open_dataset
from tests.support.engines import bad_engine, write_registry

# Blue to move first; Red's lion two steps from Blue's den, Blue's rat far away.
FEN = "7/7/3L3/7/7/7/7/7/6r b 0 1"


def play_out(g: PlayGame, moves: list[str]) -> list[tuple[str | None, ...]]:
    """Play the person's ``moves``, the bot answering each (and moving first when it is to
    move); the boards after every ply, the first one included."""
    boards = [tuple(g.board())]
    if g.bot_to_move:
        g.bot_move()
        boards.append(tuple(g.board()))
    for move in moves:
        g.play(move)
        boards.append(tuple(g.board()))
        if g.bot_to_move:
            g.bot_move()
            boards.append(tuple(g.board()))
    return boards


def replayed(data: Path, batch_id: str) -> tuple[dict, list[tuple[str | None, ...]]]:
    """The stored game and the boards of its replay (the Games page's)."""
    with open_dataset(data) as ds:
        assert ds.skipped == []
        game = game_record(ds.con, batch_id, 0)
    assert game is not None
    rep = replay_game(game["rules"], game["moves"], None, game["start_fen"])
    assert rep.error is None
    return game, [f.board for f in rep.frames]


def test_resigned_and_fen_games_are_saved_replayed_and_counted_with_people_only(tmp_path):
    resigned = PlayGame(PlaySetup.against("standard", "red", "greedy", None, 4))
    boards = play_out(resigned, ["a3a4", "g3g4"])
    resigned.resign()
    assert resigned.result == ("blue", "resign") and resigned.can_record() is None
    first = resigned.save(tmp_path)
    game, frames = replayed(tmp_path, first)
    assert (game["red"], game["blue"], game["winner"], game["reason"]) == (
        HUMAN, "greedy", "blue", "resign",
    )  # fmt: skip
    assert (game["start_fen"], game["forfeit_note"], game["plies"]) == (None, None, 4)
    assert frames == boards

    from_fen = PlayGame(PlaySetup.against("standard", "red", "random", FEN, 7))
    boards = play_out(from_fen, ["d7d8", "d8d9"])
    assert from_fen.result == ("red", "den") and from_fen.can_record() is None
    second = from_fen.save(tmp_path)
    game, frames = replayed(tmp_path, second)
    assert (game["start_fen"], game["winner"], game["reason"], game["plies"]) == (
        FEN, "red", "den", 4,
    )  # fmt: skip
    assert frames == boards and game["den_animal"] == "lion"
    line = replay_input(game)  # what `dsq replay --jsonl` reads
    assert line["fen"] == FEN and line["moves"] == [m.move for m in from_fen.moves]
    out = replay(line["rules"], line["fen"], line["moves"])
    assert out["result"] == {"winner": "red", "reason": "den"}
    assert out["fen"] is None  # won in the den: no FEN describes the final position
    assert out["board"] == from_fen.pos.board_text() == from_fen.pos.fen().split()[0]

    with open_dataset(tmp_path) as ds:
        assert general_stats(ds.con, Selection()).games == 0
        assert general_stats(ds.con, Selection(humans=True)).games == 2
        reasons = end_reasons(ds.con, Selection(humans=True)).set_index("reason")
    assert reasons.loc["resign", "games"] == 1 and reasons.loc["resign", "blue"] == 1
    assert reasons.loc["den", "games"] == 1


def test_an_engine_that_faults_loses_by_forfeit_and_the_game_is_saved(tmp_path):
    path = write_registry(tmp_path / "engines.toml", bad_engine("bad-crash", "crash"))
    context = BotContext(engines=EngineRegistry.load(path))
    try:
        g = PlayGame(
            PlaySetup.against("standard", "red", "engine:bad-crash", None, 1), context=context
        )
        g.play("a3a4")
        assert g.bot_to_move and g.bot_move() is None  # the engine crashed at its search
        assert g.result == ("red", "forfeit") and g.forfeit.startswith("crash: ")
        assert not g.can_undo() and g.can_record() is None
        batch = g.save(tmp_path / "data")
    finally:
        pool.close_all()
    game, frames = replayed(tmp_path / "data", batch)
    assert (game["winner"], game["reason"], game["plies"]) == ("red", "forfeit", 1)
    assert game["forfeit_note"] == g.forfeit
    assert game["blue_engine"]["name"] == "bad-crash" and game["red_engine"] is None
    assert len(frames) == 2
