"""Hypothesis properties of the rules engine (checked against the reference generator).

* FEN round-trips for random valid positions (engine and reference).
* Perft (and the result) is unchanged by the 180-degree rotation that swaps the colours, also
  after a move history (the repetition rules).
* Random games always end by a rule or a ply cap, and every position passes FEN validation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import reference as ref
from tests.support import reference_board as ref_board
from tests.support.rulesets import RULESETS

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rulesets = st.sampled_from(RULESETS)
REPETITION_RULESETS = [
    r
    for r in RULESETS
    if ref_board.parse_rules(r)["rule_7_3"] or ref_board.parse_rules(r)["rule_17_5"]
]


@st.composite
def valid_fens(draw: st.DrawFn) -> str:
    """Random valid positions: any subset of each side's animals, only rats in water."""
    return ref_board.random_fen(random.Random(draw(seeds)), max_per_side=8, min_per_side=0)


def new_position(rules: str, fen: str):
    from engine import Position

    return Position(rules, fen)


@SETTINGS
@given(fen=valid_fens(), rules=rulesets)
def test_fen_round_trip(fen: str, rules: str) -> None:
    assert ref_board.to_fen(ref_board.parse_fen(fen)) == fen
    pos = new_position(rules, fen)
    assert pos.fen() == fen
    assert new_position(rules, pos.fen()).legal_moves() == pos.legal_moves()


def result_key(pos) -> tuple[str, str] | None:
    result = pos.result
    return None if result is None else (result.winner, result.reason)


SWAP = {"red": "blue", "blue": "red", "draw": "draw"}


@SETTINGS
@given(fen=valid_fens(), rules=rulesets, depth=st.integers(1, 3))
def test_perft_unchanged_by_rotation(fen: str, rules: str, depth: int) -> None:
    pos = new_position(rules, fen)
    rotated = new_position(rules, ref_board.rotate_fen(fen))
    assert ref_board.rotate_fen(ref_board.rotate_fen(fen)) == fen
    assert rotated.perft(depth) == pos.perft(depth)
    assert sorted(ref_board.rotate_move(m) for m in pos.legal_moves()) == rotated.legal_moves()
    key = result_key(pos)
    assert result_key(rotated) == (None if key is None else (SWAP[key[0]], key[1]))


@SETTINGS
@given(seed=seeds, rules=st.sampled_from(REPETITION_RULESETS))
def test_perft_after_history_unchanged_by_rotation(seed: int, rules: str) -> None:
    """Shuffle a piece back and forth (repetition rules), then compare perft(3) rotated."""
    rng = random.Random(seed)
    fen = ref_board.random_fen(rng, 5, 1)
    pos = new_position(rules, fen)
    played = []
    for _ in range(rng.randint(6, 24)):
        legal = pos.legal_moves()
        if not legal:
            break
        back = [m for m in legal if len(played) >= 2 and m == played[-2][2:] + played[-2][:2]]
        move = back[0] if back and rng.random() < 0.8 else rng.choice(legal)
        pos.play(move)
        played.append(move)
    rotated = new_position(rules, ref_board.rotate_fen(fen))
    rotated.play_moves(" ".join(ref_board.rotate_move(m) for m in played))
    assert rotated.perft(3) == pos.perft(3)
    # Same board, side and clock; the fullmove number counts Blue's moves, so it may differ.
    assert rotated.fen().split()[:3] == ref_board.rotate_fen(pos.fen()).split()[:3]


@SETTINGS
@given(seed=seeds, rules=rulesets, from_start=st.booleans())
def test_random_games_end_by_a_rule_or_the_cap(seed: int, rules: str, from_start: bool) -> None:
    rng = random.Random(seed)
    fen = ref_board.START_FEN if from_start else ref_board.random_fen(rng, 8, 0)
    pos = new_position(rules, fen)
    limit = ref_board.parse_rules(rules)["no_capture_plies"]
    ply_cap = 600
    plies = 0
    result = pos.result  # read once per position (the position changes only in play)
    while result is None and plies < ply_cap:
        legal = pos.legal_moves()
        assert legal, "a game without a result must have a legal move"
        pos.play(rng.choice(legal))
        plies += 1
        result, fen = pos.result, pos.fen()
        if result is not None and result.reason == "den":
            # RULES.md refuses a FEN with a piece on a den (the game is over): check the rest,
            # and that the piece on the den is the winner's, on the loser's den.
            board = ref_board.parse_fen(fen, allow_den=True).board
            loser = "b" if result.winner == "red" else "r"
            assert (
                board[ref_board.DEN[loser]]
                and ref_board.side_of(board[ref_board.DEN[loser]]) != loser
            )
            assert not board[ref_board.DEN[ref_board.OTHER[loser]]]
            continue
        ref_board.parse_fen(fen)  # raises if the engine produced an invalid position
        assert new_position(rules, fen).fen() == fen
    if result is not None:
        assert result.reason in ("den", "capture_all", "no_capture", "no_moves")
        assert pos.legal_moves() == []
    if 0 < limit:
        # The clock forces an end: at most `limit` quiet plies after each of <= 16 captures.
        assert plies <= 16 * limit or pos.result is not None


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fen=valid_fens(), rules=rulesets)
def test_perft2_matches_reference_on_random_positions(fen: str, rules: str) -> None:
    pos = new_position(rules, fen)
    rules_dict, rpos = ref_board.parse_rules(rules), ref_board.parse_fen(fen)
    assert pos.divide(2) == ref.divide(rpos, 2, rules_dict)


@SETTINGS
@given(seed=seeds, rules=rulesets)
def test_captures_with_the_no_move_flag_agree_with_the_full_lists(seed: int, rules: str) -> None:
    """legal_captures_or_none (quiescence's one walk) gives legal_captures' list and says
    "no legal move" exactly when legal_moves finds none, along a random game with
    back-and-forth moves (the repetition rules forbid some)."""
    import numpy as np

    from engine.game import legal_captures, legal_captures_or_none, legal_moves

    rng = random.Random(seed)
    pos = new_position(rules, ref_board.random_fen(rng, 5, 1))
    a, b, c = (np.zeros(64, dtype=np.int32) for _ in range(3))
    played: list[str] = []
    for _ in range(rng.randint(10, 40)):
        k, none = legal_captures_or_none(pos.st, pos.rules_array, a)
        want = legal_captures(pos.st, pos.rules_array, b)
        assert (k, list(a[:k])) == (want, list(b[:want]))
        assert none == (legal_moves(pos.st, pos.rules_array, c) == 0)
        legal = pos.legal_moves()
        if not legal or pos.result is not None:
            break
        back = [m for m in legal if len(played) >= 2 and m == played[-2][2:] + played[-2][:2]]
        move = back[0] if back and rng.random() < 0.7 else rng.choice(legal)
        pos.play(move)
        played.append(move)
