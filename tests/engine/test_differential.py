"""Differential test: the numba engine against tests/support/reference.py over seeded random games.

At every position of every game, the engine's sorted legal moves, result and FEN must equal the
reference's; every so often the depth-2 divide (which walks the history along the path) too.
Games run under all presets and option combinations that toggle every option, from the initial
position and from random positions, with move policies that provoke the repetition rules, the
no-capture clock and the game endings.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.support import reference as ref
from tests.support import reference_board as ref_board
from tests.support.rulesets import RULESETS

# Every option of RULES.md takes at least two values across these rule sets.

POLICIES = ("random", "shuffle", "shuffle", "capture")


def test_rulesets_toggle_every_option() -> None:
    values: dict[str, set] = {}
    for spec in RULESETS:
        for name, value in ref_board.parse_rules(spec).items():
            values.setdefault(name, set()).add(value)
    for name, seen in values.items():
        assert len(seen) >= 2, name
    assert values["lion_jump"] == values["tiger_jump"] == {"both", "horizontal", "none"}
    assert {0, 6} <= values["no_capture_plies"]


def choose(rng: random.Random, policy: str, legal: list[str], pos: ref_board.Pos) -> str:
    """Pick a move; 'shuffle' walks pieces back and forth to trigger the repetition rules."""
    if policy == "shuffle":
        if len(pos.history) >= 2:  # the sides alternate: the mover's last move
            last = pos.history[-2]
            back = ref_board.square_name(last.to) + ref_board.square_name(last.frm)
            if back in legal and rng.random() < 0.7:
                return back
            same = [m for m in legal if m[:2] == ref_board.square_name(last.to)]
            if same and rng.random() < 0.6:
                return rng.choice(same)
    elif policy == "capture":
        captures = [m for m in legal if pos.board[ref_board.square_index(m[2:])]]
        if captures and rng.random() < 0.8:
            return rng.choice(captures)
    return rng.choice(legal)


def play_game(seed: int, ply_cap: int, stats: Counter, divide_every: int = 0) -> None:
    from engine import Position

    rng = random.Random(seed)
    spec = rng.choice(RULESETS)
    policy = rng.choice(POLICIES)
    fen = ref_board.START_FEN if rng.random() < 0.6 else ref_board.random_fen(rng, 6, 1)
    rules = ref_board.parse_rules(spec)
    repetition = rules["rule_7_3"] or rules["rule_17_5"]
    rpos = ref_board.parse_fen(fen)
    epos = Position(spec, fen)
    played: list[str] = []

    def where() -> str:  # the failure message (built only when an assertion fails)
        return f"seed {seed}: rules {spec!r}, fen {fen!r}, moves {' '.join(played)!r}"

    for ply in range(ply_cap + 1):
        forbidden: list[str] = []  # what the repetition rules took away here
        legal = ref.legal_moves(rpos, rules, forbidden)
        assert epos.legal_moves() == legal, where()
        outcome = None if legal else ref.outcome(rpos, rules)
        result = epos.result
        assert (None if result is None else (result.winner, result.reason)) == outcome, where()
        assert epos.fen() == ref_board.to_fen(rpos), where()
        if divide_every and ply % divide_every == divide_every - 1 and legal:
            assert epos.divide(2) == ref.divide(rpos, 2, rules), where()
            stats["divide"] += 1
        if repetition and forbidden and outcome is None:
            stats["repetition_forbade"] += 1
        stats["positions"] += 1
        if outcome is not None:
            stats[outcome[1]] += 1
            return
        move = choose(rng, policy, legal, rpos)
        played.append(move)
        rpos = ref.make_move(rpos, move)
        epos.play(move)
    stats["ply_cap"] += 1


def test_differential_random_games() -> None:
    stats: Counter = Counter()
    for seed in range(300):
        play_game(seed, ply_cap=150, stats=stats, divide_every=50)
    # The run must have exercised what it claims to check (no_moves is rare in random play:
    # the slow test and the hand-made positions cover it).
    for reason in ("den", "capture_all", "no_capture"):
        assert stats[reason] > 0, stats
    assert stats["repetition_forbade"] > 20, stats
    assert stats["positions"] > 15_000 and stats["divide"] > 100, stats


@pytest.mark.slow
def test_differential_many_random_games() -> None:
    stats: Counter = Counter()
    for seed in range(10_000, 13_000):
        play_game(seed, ply_cap=400, stats=stats, divide_every=97)
    for reason in ("den", "capture_all", "no_capture", "no_moves"):
        assert stats[reason] > 0, stats
    assert stats["repetition_forbade"] > 500, stats
