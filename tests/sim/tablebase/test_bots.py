"""Bots with tables: a won endgame converted in exactly the table's plies, a draw kept,
the no-capture clock respected, and the parameter that turns it off."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import Position
from engine.errors import MoveError
from engine.position import decode_move
from engine.rng import seed_state
from engine.rules import parse_rules
from sim.bots import BotContext, make_bot, parse_bot
from sim.play.referee import play_game
from sim.tablebase import outcomes as V
from sim.tablebase.advice import TableAdvisor
from sim.tablebase.analysis import fen_of
from sim.tablebase.material import parse_material
from sim.tablebase.probe import probe
from sim.tablebase.store import cache_for, rules_key, tables_root


def _position(root: Path, code: int, side: int, material: str = "LR v e") -> str:
    """The FEN of the first position of ``material`` (standard) with value ``code`` and
    ``side`` to move."""
    m = parse_material(material)
    values = cache_for(root).get(rules_key("standard"), m).values
    half = values[side * m.half : (side + 1) * m.half]
    return fen_of(m, side * m.half + int(np.flatnonzero(half == code)[0]))


def _play(
    fen: str, red: str, blue: str, root: Path, rules: str = "standard", limit: int = 200
) -> Position:
    pos = Position(rules, fen)
    context = BotContext(tables=root)  # the bots probe the tables in root
    bots = [
        make_bot(red, rules, seed_state(1), context),
        make_bot(blue, rules, seed_state(2), context),
    ]
    while pos.result is None and pos.ply < limit:
        side = 0 if pos.side == "red" else 1
        pos.play(decode_move(bots[side].choose(pos.st)))
    return pos


@pytest.mark.parametrize("winner", ["alphabeta:depth=2", "mcts:playouts=50"])
def test_won_endgame_converted_in_the_table_plies(tb_data: Path, winner: str) -> None:
    root = tables_root(tb_data)
    fen = _position(root, V.win_code(19), 0)
    assert probe("standard", fen, root) == ("win", 19)
    pos = _play(fen, winner, "alphabeta:depth=2", root)
    assert pos.result is not None and pos.result.winner == "red" and pos.ply == 19


def test_the_referee_hands_its_tables_folder_to_the_bots(tb_data: Path, tmp_path: Path) -> None:
    root = tables_root(tb_data)
    fen = _position(root, V.win_code(19), 0)
    bots = ("mcts:playouts=50", "alphabeta:depth=2")
    game = play_game("standard", *bots, seed=1, fen=fen, ply_cap=200, tables=str(root))
    assert (game["winner"], game["plies"]) == ("red", 19)
    elsewhere = play_game("standard", *bots, seed=1, fen=fen, ply_cap=200, tables=str(tmp_path))
    assert (elsewhere["winner"], elsewhere["plies"]) != ("red", 19)  # no tables there


def test_without_tables_the_bot_is_not_faster(tb_data: Path) -> None:
    root = tables_root(tb_data)
    fen = _position(root, V.win_code(19), 0)
    pos = _play(fen, "alphabeta:depth=2,tablebase=off", "alphabeta:depth=2", root)
    assert pos.result is None or pos.result.winner != "red" or pos.ply >= 19


def test_a_draw_is_kept(tb_data: Path) -> None:
    root = tables_root(tb_data)
    fen = _position(root, V.DRAW, 1)
    pos = Position("standard", fen)
    bot = make_bot("alphabeta:depth=3", "standard", seed_state(4), BotContext(tables=root))
    move = bot.choose(pos.st)
    assert bot.info["tablebase"] == {"value": "draw", "plies": None}
    pos.play(decode_move(move))
    assert probe("standard", pos.st, root) == ("draw", None)


def test_the_clock_decides_when_a_win_is_played_from_the_table(tb_data: Path) -> None:
    root = tables_root(tb_data)
    fen = _position(root, V.win_code(19), 0)
    late = fen.replace(" r 0 1", " r 25 1")
    advisor = TableAdvisor(parse_rules("standard+no_capture_plies=44"), root)
    st = Position("standard+no_capture_plies=44", late).st
    legal = Position("standard+no_capture_plies=44", late).legal_codes()
    assert advisor.advise(st, legal).play is not None  # 19 <= 44 - 25
    st2 = Position("standard+no_capture_plies=43", late).st
    assert (
        TableAdvisor(parse_rules("standard+no_capture_plies=43"), root).advise(st2, legal) is None
    )


def test_parameter_and_no_tables(tmp_path: Path) -> None:
    assert parse_bot("alphabeta").params["tablebase"] == "on"
    assert parse_bot("mcts:tablebase=off").canonical.endswith(",tablebase=off")
    over = Position("standard", "7/7/7/7/7/7/7/7/L6 b 0 1").st
    with pytest.raises(MoveError):
        make_bot("alphabeta", "standard", seed_state(1)).choose(over)
    empty = BotContext(tables=tmp_path)  # no tables there: the bot searches as always
    bot = make_bot("alphabeta:depth=2", "standard", seed_state(1), empty)
    bot.choose(Position("standard", "7/7/7/7/3L3/7/7/7/e6 r 0 1").st)
    assert "tablebase" not in bot.info
