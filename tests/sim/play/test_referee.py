"""The referee: the game record's columns, determinism, shared openings, the fast and the
stepwise game loops agreeing, and clear errors."""

from __future__ import annotations

import pytest

from engine import Position, parse_rules
from engine.errors import DsqError
from sim.play import referee
from sim.play.referee import bot_seed, game_moves, play_game
from sim.storage.schema import ANIMALS, GAME_SCHEMA, OPTIONAL_COLUMNS, REASONS

KEYS = {
    "rules",
    "red",
    "blue",
    "opening_plies",
    "ply_cap",
    "winner",
    "reason",
    "plies",
    "red_captures",
    "blue_captures",
    "red_pieces_left",
    "blue_pieces_left",
    "den_animal",
    "branching",
    "moves",
    "captures",
    "duration_ms",
} | set(OPTIONAL_COLUMNS)  # clocks, forfeits, engines: None for in-process bots untimed


def _strip(record: dict) -> dict:
    out = dict(record)
    out.pop("duration_ms")
    return out


def test_record_has_exactly_the_columns() -> None:
    record = play_game("standard", "random", "greedy", seed=1, opening_plies=4)
    assert set(record) == KEYS
    assert all(record[k] is None for k in OPTIONAL_COLUMNS)
    assert KEYS - {"duration_ms"} < set(GAME_SCHEMA.names) | {"duration_ms"}
    assert record["rules"] == "standard"
    assert record["red"] == "random" and record["blue"] == "greedy"
    assert record["winner"] in ("red", "blue", "draw")
    assert record["reason"] in REASONS
    assert record["plies"] == len(record["moves"])
    assert all(isinstance(m, int) for m in record["moves"])
    assert record["duration_ms"] >= 0


@pytest.mark.parametrize("rules", ["standard", "yeshou", "datou+dog_over_wolf"])
@pytest.mark.parametrize("seed", range(6))
def test_record_matches_a_replay(rules: str, seed: int) -> None:
    record = play_game(rules, "greedy", "random", seed=seed, opening_plies=seed % 4)
    pos = Position(rules)
    branching = []
    captures = []
    for ply, move in enumerate(game_moves(record)):
        branching.append(len(pos.legal_moves()))
        target = pos.piece_at(move[2:])
        mover = pos.piece_at(move[:2])
        pos.play(move)
        if target is not None:
            captures.append((ply, mover, target))
    assert record["branching"] == pytest.approx(sum(branching) / len(branching))
    assert [(c["ply"]) for c in record["captures"]] == [c[0] for c in captures]
    for c in record["captures"]:
        assert 1 <= c["capturer"] <= 16 and 1 <= c["captured"] <= 16
        assert (c["capturer"] <= 8) != (c["captured"] <= 8)
    red_caps = sum(1 for c in record["captures"] if c["capturer"] <= 8)
    assert record["red_captures"] == red_caps
    assert record["blue_captures"] == len(record["captures"]) - red_caps
    assert record["red_pieces_left"] == 8 - record["blue_captures"]
    assert record["blue_pieces_left"] == 8 - record["red_captures"]
    result = pos.result
    assert result is not None
    assert (result.winner, result.reason) == (record["winner"], record["reason"])
    if record["reason"] == "den":
        letter = pos.piece_at(game_moves(record)[-1][2:])  # the piece stands on the den
        assert record["den_animal"] == ANIMALS["RCDWPTLE".index(letter.upper())]
    else:
        assert record["den_animal"] is None


def test_den_animal_names_the_piece() -> None:
    record = play_game("standard", "random", "greedy", seed=2, fen="7/7/7/7/7/7/7/3l3/L6 b 0 1")
    assert (record["winner"], record["reason"], record["den_animal"]) == ("blue", "den", "lion")
    assert record["plies"] == 1


def test_determinism_and_seeds() -> None:
    for red, blue in [("random", "random"), ("greedy", "random"), ("greedy", "mcts:playouts=20")]:
        a = play_game("standard", red, blue, seed=42, opening_plies=6, ply_cap=120)
        b = play_game("standard", red, blue, seed=42, opening_plies=6, ply_cap=120)
        assert _strip(a) == _strip(b)
    moves = {tuple(play_game("standard", "random", "random", seed=s)["moves"]) for s in range(5)}
    assert len(moves) == 5
    assert bot_seed(1, 0) != bot_seed(1, 1) != bot_seed(2, 0)


def test_colour_swapped_pair_shares_the_opening() -> None:
    a = play_game("yeshou", "greedy", "random", seed=1, opening_plies=8, opening_seed=77)
    b = play_game("yeshou", "random", "greedy", seed=2, opening_plies=8, opening_seed=77)
    assert a["moves"][:8] == b["moves"][:8]
    c = play_game("yeshou", "greedy", "random", seed=77, opening_plies=8)
    assert c["moves"][:8] == a["moves"][:8]  # opening_seed defaults to seed


def test_ply_cap_is_a_draw() -> None:
    record = play_game("standard+no_capture_plies=0", "random", "random", seed=3, ply_cap=7)
    assert (record["winner"], record["reason"], record["plies"]) == ("draw", "ply_cap", 7)
    assert record["ply_cap"] == 7


def test_no_capture_rule_ends_games() -> None:
    record = play_game("standard+no_capture_plies=10", "random", "random", seed=4)
    assert record["reason"] in ("no_capture", "den", "capture_all", "no_moves")
    assert record["plies"] <= 10 or record["captures"]


def test_fast_and_stepwise_loops_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [play_game("datou", "greedy", "random", seed=s, opening_plies=3) for s in range(4)]
    monkeypatch.setattr(referee, "_FAST_KINDS", {})
    slow = [play_game("datou", "greedy", "random", seed=s, opening_plies=3) for s in range(4)]
    # The same games. The stepwise loop judges datou's time per move, but the moves' times
    # of untimed bots are recorded only when the rules' clock ends a game: the rows agree.
    assert all(r["time_control"] is None and r["move_ms"] is None for r in slow)
    assert [_strip(r) for r in fast] == [_strip(r) for r in slow]


def test_ruleset_objects_and_canonical_specs() -> None:
    r = parse_rules("standard+rule_17_5+tiger_jump=horizontal+move_time=30+time_strikes=2")
    a = play_game(r, "random", " greedy ", seed=5, ply_cap=30)
    b = play_game("datou", "random", "greedy", seed=5, ply_cap=30)
    assert a["rules"] == "datou" and _strip(a) == _strip(b)
    c = play_game("standard", "mcts:c=2,playouts=5", "alphabeta:depth=1", seed=1, ply_cap=4)
    assert c["red"].startswith("mcts:playouts=5,c=2.0,")
    assert c["blue"].startswith("alphabeta:depth=1,noise=0,")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "nope"},
        {"red": "minimax"},
        {"blue": "alphabeta:depth=-1"},
        {"seed": "x"},
        {"ply_cap": 0},
        {"opening_plies": -1},
        {"fen": "not a fen"},
    ],
)
def test_bad_arguments_raise_dsq_errors(kwargs: dict) -> None:
    args = {"rules": "standard", "red": "random", "blue": "random", "seed": 1, **kwargs}
    with pytest.raises(DsqError):
        play_game(**args)
