"""Bots: only legal moves under every preset and option mix, determinism, tactics
(wins in 1 and forced wins in 3 plies), no pieces given away, repetition rules."""

from __future__ import annotations

import numpy as np
import pytest

from engine import Position, core
from engine.position import decode_move
from engine.rng import seed_state
from sim.bots import make_bot
from sim.play.referee import game_moves, play_game

RULESETS = [
    "standard",
    "yeshou",
    "datou",
    "standard+dog_over_wolf+rat_cross_capture",
    "datou+jump_block=enemy+lion_jump=horizontal+no_capture_plies=40",
    "yeshou+tiger_jump=none+rule_7_3=false",
    "standard+rule_7_3+no_capture_plies=0",
]
SMALL_BOTS = [
    "random",
    "greedy",
    "alphabeta:depth=1",
    "alphabeta:depth=2,noise=15",
    "alphabeta:depth=3,contempt=0,tt_mb=1",
    "alphabeta:depth=8,nodes=300",
    "mcts:playouts=40",
    "mcts:playouts=25,rollout=greedy,rollout_plies=6,c=0.5",
    "mcts:playouts=30,rollout_plies=0",
]


def _choose(spec: str, pos: Position, seed: int = 1) -> str:
    bot = make_bot(spec, pos.rules, seed_state(seed))
    return decode_move(bot.choose(pos.st))


@pytest.mark.parametrize("rules", RULESETS)
def test_every_bot_plays_only_legal_moves(rules: str) -> None:
    for i, red in enumerate(SMALL_BOTS):
        blue = SMALL_BOTS[(i * 3 + 1) % len(SMALL_BOTS)]
        record = play_game(rules, red, blue, seed=100 + i, opening_plies=i % 5, ply_cap=50)
        pos = Position(rules)
        pos.play_moves(game_moves(record))  # raises on any illegal move
        if record["reason"] == "ply_cap":
            assert pos.result is None and record["plies"] == 50
        else:
            assert (pos.result.winner, pos.result.reason) == (record["winner"], record["reason"])


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS)
def test_many_long_games_stay_legal(rules: str) -> None:
    for seed in range(12):
        red = SMALL_BOTS[seed % len(SMALL_BOTS)]
        blue = SMALL_BOTS[(seed * 5 + 2) % len(SMALL_BOTS)]
        record = play_game(rules, red, blue, seed=seed, opening_plies=4, ply_cap=400)
        Position(rules).play_moves(game_moves(record))


@pytest.mark.parametrize("spec", SMALL_BOTS + ["alphabeta:depth=3,noise=40"])
def test_same_seed_same_move(spec: str) -> None:
    pos = Position("yeshou")
    pos.play_moves("c3d3 e7d7 a3a4 g7g6")
    assert len({_choose(spec, pos, seed=9) for _ in range(3)}) == 1
    before = pos.st.copy()
    _choose(spec, pos)
    assert np.array_equal(before, pos.st)  # the bot leaves the state as it found it


def test_same_seed_same_game() -> None:
    for red, blue in [("alphabeta:depth=2,noise=30", "mcts:playouts=30"), ("greedy", "random")]:
        a = play_game("datou", red, blue, seed=5, opening_plies=3, ply_cap=80)
        b = play_game("datou", red, blue, seed=5, opening_plies=3, ply_cap=80)
        a.pop("duration_ms")
        b.pop("duration_ms")
        assert a == b


def test_noise_varies_play_between_seeds() -> None:
    pos = Position()
    moves = {_choose("alphabeta:depth=2,noise=200", pos, seed=s) for s in range(12)}
    assert len(moves) > 1


# Hand-built positions. Win in 1: Blue's lion beside Red's den; Blue's dog takes Red's last
# piece. Win in 3: Red's lion walks d7-d8-d9; or takes a rat on d8 on the way.
WIN_IN_1 = [
    ("7/7/7/7/7/7/7/3l3/L6 b 0 1", "d2d1"),
    ("6e/7/7/d6/C6/7/7/7/7 b 0 1", "a6a5"),
]
WIN_IN_3 = [
    "7/7/3L3/7/7/r6/7/7/6E r 0 1",
    "e6/3r3/3L3/7/7/7/7/7/6E r 0 1",
    "6e/2W1D2/7/7/7/7/7/7/6E r 0 1",
]
TACTIC_RULES = ["standard", "yeshou", "datou", "standard+dog_over_wolf+jump_block=enemy"]
SEARCHERS = ["alphabeta:depth=1", "alphabeta:depth=4", "mcts:playouts=300", "greedy"]


@pytest.mark.parametrize("rules", TACTIC_RULES)
@pytest.mark.parametrize(("fen", "win"), WIN_IN_1)
def test_win_in_one(rules: str, fen: str, win: str) -> None:
    for spec in SEARCHERS:
        assert _choose(spec, Position(rules, fen)) == win, spec


def _wins_in_three(pos: Position, move: str) -> bool:
    """After ``move``, every reply leaves the mover a winning move."""
    after = pos.copy()
    after.play(move)
    if after.result is not None:
        return after.result.winner == pos.side
    for reply in after.legal_moves():
        nxt = after.copy()
        nxt.play(reply)
        if nxt.result is not None:
            if nxt.result.winner != pos.side:
                return False
            continue
        finishing = False
        for mv in nxt.legal_moves():
            last = nxt.copy()
            last.play(mv)
            if last.result is not None and last.result.winner == pos.side:
                finishing = True
                break
        if not finishing:
            return False
    return True


@pytest.mark.parametrize("rules", TACTIC_RULES)
@pytest.mark.parametrize("fen", WIN_IN_3)
def test_forced_win_in_three(rules: str, fen: str) -> None:
    pos = Position(rules, fen)
    for spec in ["alphabeta:depth=3", "alphabeta:depth=6", "mcts:playouts=2000"]:
        move = _choose(spec, pos)
        assert _wins_in_three(pos, move), (spec, move)
    bot = make_bot("alphabeta:depth=6", pos.rules, seed_state(1))
    bot.choose(pos.st)
    assert bot.info["mate_in"] == 3 and len(bot.info["pv"]) == 3


def test_longest_defence_when_lost() -> None:
    # Blue to move, Red's lion on d7 walks in; Blue should not hand over a shorter loss.
    pos = Position("standard", "e6/7/3L3/7/7/7/7/7/6E b 0 1")
    bot = make_bot("alphabeta:depth=6", pos.rules, seed_state(1))
    bot.choose(pos.st)
    assert bot.info["mate_in"] == -4


# Red to move, material about even; a careless move hands a piece over for nothing.
SAFE = [
    "e6/7/3l3/3T3/7/7/7/7/E5R r 0 1",  # the lion on d7 attacks the tiger on d6
    "e6/7/3t3/3W3/7/7/7/7/E5R r 0 1",  # the tiger on d6 attacks the wolf on d5
    "e6/7/7/3l3/7/3T3/7/7/E5R r 0 1",  # the tiger must not step to d4 (beside the lion)
]


def _hangs_nothing(pos: Position, move: str) -> bool:
    after = pos.copy()
    after.play(move)
    for reply in after.legal_moves():
        if after.piece_at(reply[2:]) is not None:
            return False
    return True


@pytest.mark.parametrize("rules", ["standard", "yeshou", "datou"])
@pytest.mark.parametrize("fen", SAFE)
def test_never_gives_a_piece_away(rules: str, fen: str) -> None:
    pos = Position(rules, fen)
    for spec in ["greedy", "alphabeta:depth=1", "alphabeta:depth=3", "mcts:playouts=2000"]:
        for seed in range(3):
            move = _choose(spec, pos, seed)
            assert _hangs_nothing(pos, move), (spec, move)


def test_takes_a_free_piece() -> None:
    pos = Position("standard", "e6/7/7/3w3/3L3/7/7/7/E5R r 0 1")  # lion d5, wolf d6
    for spec in ["greedy", "alphabeta:depth=2", "mcts:playouts=500"]:
        assert _choose(spec, pos) == "d5d6", spec


# 7-3 rule (yeshou): the lion has gone to d7 three times among Red's last 7 moves.
SHUTTLE_FEN = "e6/7/7/3L3/7/7/7/7/6R r 0 1"
SHUTTLE = "d6d7 a9a8 d7d6 a8a9 d6d7 a9a8 d7d6 a8a9 d6d7 a9a8 d7d6 a8a9"


def test_seven_three_rule_is_respected() -> None:
    fresh = Position("yeshou", SHUTTLE_FEN)
    assert _choose("alphabeta:depth=4", fresh) == "d6d7"
    pos = Position("yeshou", SHUTTLE_FEN)
    pos.play_moves(SHUTTLE)
    assert "d6d7" not in pos.legal_moves()
    for spec in ["random", "greedy", "alphabeta:depth=6", "mcts:playouts=300"]:
        for seed in range(3):
            move = _choose(spec, pos, seed)
            assert move in pos.legal_moves() and move != "d6d7", spec
    bot = make_bot("alphabeta:depth=8", pos.rules, seed_state(2))
    bot.choose(pos.st)
    line = pos.copy()
    line.play_moves(bot.info["pv"])  # the principal variation is legal with the history
    # Without the history it is mate in 5 by d6d7-d7d8-d8d9; the search must not count on
    # the forbidden d6d7.
    assert bot.info["mate_in"] is None or bot.info["mate_in"] > 5
    fresh_bot = make_bot("alphabeta:depth=8", fresh.rules, seed_state(2))
    fresh_bot.choose(fresh.st)
    assert fresh_bot.info["mate_in"] == 5


def test_seventeen_five_rule_is_respected() -> None:
    pos = Position("datou", SHUTTLE_FEN)
    blue = ["a9a8", "a8a9"]
    red = ["d6d7", "d7d6", "d6d5", "d5d6"]
    moves = []
    for i in range(17):
        moves += [red[i % 4], blue[i % 2]]
    pos.play_moves(moves)
    legal = pos.legal_moves()
    assert not {"d6d5", "d6d7"} & set(legal)
    for spec in ["greedy", "alphabeta:depth=5", "mcts:playouts=200"]:
        assert _choose(spec, pos) in legal


def test_budgets_still_give_a_move() -> None:
    pos = Position()
    for spec in [
        "alphabeta:depth=30,nodes=2000",
        "alphabeta:depth=30,time_ms=30",
        "mcts:playouts=100000000,time_ms=30",
    ]:
        bot = make_bot(spec, pos.rules, seed_state(3))
        move = decode_move(bot.choose(pos.st))
        assert move in pos.legal_moves()
    bot = make_bot("alphabeta:depth=30,nodes=2000", pos.rules, seed_state(3))
    bot.choose(pos.st)
    assert 1 <= bot.info["depth"] < 30


def test_search_state_unchanged_by_deep_history() -> None:
    record = play_game("yeshou", "random", "random", seed=3, ply_cap=300)
    pos = Position("yeshou")
    pos.play_moves(game_moves(record)[:-1])
    if pos.result is None:
        st = pos.st.copy()
        move = _choose("alphabeta:depth=3", pos)
        assert move in pos.legal_moves()
        assert np.array_equal(st, pos.st)
    assert core.MAX_MOVES == 48


def test_a_budget_without_depth_searches_past_the_default_depth() -> None:
    pos = Position()
    by_nodes = make_bot("alphabeta:nodes=100000", pos.rules, seed_state(3))
    by_nodes.choose(pos.st)
    assert by_nodes.info["depth"] > 4 and by_nodes.info["nodes"] <= 100000
    capped = make_bot("alphabeta:depth=3,nodes=100000", pos.rules, seed_state(3))
    capped.choose(pos.st)
    assert capped.info["depth"] == 3  # an explicit depth still caps
    by_time = make_bot("alphabeta:time_ms=300", pos.rules, seed_state(3))
    by_time.choose(pos.st)  # the first move may include compiling the search
    by_time.choose(pos.st)
    assert by_time.info["depth"] > 4
    mcts = make_bot("mcts:time_ms=100", pos.rules, seed_state(3))
    mcts.choose(pos.st)
    mcts.choose(pos.st)
    assert mcts.info["playouts"] > 2000 or mcts.info["time_ms"] >= 100


def _iterations(spec: str, pos: Position) -> tuple[list[dict], dict]:
    """The completed iterations of a fresh bot's move in ``pos``, and its ``info``."""
    bot = make_bot(spec, pos.rules, seed_state(3))
    seen: list[dict] = []
    bot.on_iteration = seen.append
    bot.choose(pos.st)
    return seen, bot.info


@pytest.mark.parametrize("moves", [[], ["a3a4", "g7g6"], ["b2c2", "f8f7", "a3a4", "a7b7"]])
def test_a_soft_limit_starts_no_iteration_past_its_share_of_the_nodes(moves) -> None:
    pos = Position()
    pos.play_moves(moves)
    full, _ = _iterations("alphabeta:nodes=60000", pos)
    soft, info = _iterations("alphabeta:nodes=60000,soft=25", pos)
    assert all(it["nodes"] * 100 < 25 * 60000 for it in soft[:-1])  # each started the next
    # the same iterations as without the limit, up to where it stopped them
    assert [(it["move"], it["nodes"]) for it in soft] == [
        (it["move"], it["nodes"]) for it in full[: len(soft)]
    ]
    if soft[-1]["nodes"] * 100 >= 25 * 60000:  # stopped by the soft limit: nothing lost
        assert info["nodes"] == soft[-1]["nodes"] < 60000
    else:  # the next iteration started below the limit and the budget ended it
        assert len(soft) == len(full) and info["nodes"] == 60000
    assert info["move"] == soft[-1]["move"]


def test_a_soft_limit_starts_no_iteration_past_its_share_of_the_time() -> None:
    pos = Position()
    make_bot("alphabeta:depth=2", pos.rules, seed_state(3)).choose(pos.st)  # compiled
    soft, info = _iterations("alphabeta:time_ms=400,soft=30", pos)
    assert all(it["time_ms"] < 0.3 * 400 for it in soft[:-1])
    assert info["move"] == soft[-1]["move"] and info["depth"] == soft[-1]["depth"]
