"""Every FEN that dsq prints, it reads: random games to every end the rules give (den,
capture_all, no_moves, no_capture) through ``dsq replay`` (one game, ``--jsonl``) and
``dsq moves``; a game won in a den has no FEN (``"fen": null``) and its board is given."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import Position
from engine.errors import FenError
from tests.support import ROOT
from tests.support import reference_board as ref_board
from tests.support.procs import in_process

RULES = ("standard", "yeshou+no_capture_plies=40", "datou+no_capture_plies=30")
# A red cat in the corner, a dog above it: the wolf's b2b1 leaves Red no move (rare in
# random play, so one such game is added).
NO_MOVES = ("standard", "7/7/7/7/7/7/7/dw5/C6 b 0 1", ["b2b1"])


def random_game(seed: int) -> tuple[str, str, list[str]]:
    """``(rules, start FEN, moves)`` of a random game played to its end (or 400 plies)."""
    rng = random.Random(seed)
    rules = RULES[seed % len(RULES)]
    fen = ref_board.START_FEN if seed % 4 == 0 else ref_board.random_fen(rng, rng.randint(1, 5), 1)
    pos = Position(rules, fen)
    moves: list[str] = []
    while pos.result is None and len(moves) < 400:
        move = rng.choice(pos.legal_moves())
        pos.play(move)
        moves.append(move)
    return rules, fen, moves


def check_printed(rules: str, obj: dict) -> str | None:
    """Assert a printed position reads back (same result) or is one won in a den; its end."""
    result = obj["result"]
    if obj["fen"] is None:
        assert result == {"winner": result["winner"], "reason": "den"}
        text = obj["board"]  # the board in FEN notation, a piece on a den
        assert text.count("/") == 8
        with pytest.raises(FenError, match="on the den"):
            Position(rules, f"{text} r 0 1")
        return "den"
    back = Position(rules, obj["fen"])  # every printed FEN is read back
    assert back.fen() == obj["fen"]
    assert obj["board"] == obj["fen"].split()[0]
    got = None if back.result is None else back.result.as_dict()
    assert got == result, obj
    return None if result is None else result["reason"]


def test_every_printed_fen_reads_back() -> None:
    games = [random_game(seed) for seed in range(240)] + [NO_MOVES]
    ends: Counter[str] = Counter()
    lines = "".join(json.dumps({"rules": r, "fen": f, "moves": m}) + "\n" for r, f, m in games)
    code, out, err = in_process(["replay", "--jsonl"], lines)
    assert code == 0, err
    printed = [json.loads(x) for x in out.splitlines()]
    assert len(printed) == len(games)
    for (rules, _, _), obj in zip(games, printed, strict=True):
        ends[check_printed(rules, obj) or "none"] += 1
    assert {"den", "capture_all", "no_moves", "no_capture"} <= set(ends), ends
    # one game at a time, and dsq moves, print the same position
    for rules, fen, moves in games[:: len(games) // 12]:
        for command in ("replay", "moves"):
            code, out, err = in_process([command, "--rules", rules, "--fen", fen,
                                         "--moves", " ".join(moves)])  # fmt: skip
            assert code == 0, err
            check_printed(rules, json.loads(out))


def test_a_game_won_in_the_den_prints_its_board_not_a_fen() -> None:
    with open(ROOT / "docs/examples/games.jsonl", encoding="utf-8") as f:
        first = json.loads(f.readline())
    code, out, err = in_process(["replay", "--moves", " ".join(first["moves"])])
    assert code == 0, err
    obj = json.loads(out)
    assert obj["result"] == {"winner": "red", "reason": "den"}
    assert obj["fen"] is None
    assert obj["board"] == "ld1T1ct/7/4w1e/7/7/6R/1E1WP2/3CD2/5L1"
    # the position before the winning move has a FEN, which dsq reads
    code, out, err = in_process(["moves", "--moves", " ".join(first["moves"][:-1])])
    before = json.loads(out)
    assert before["fen"] is not None and first["moves"][-1] in before["legal"]
    code, out, err = in_process(["perft", "--fen", before["fen"], "--depth", "1"])
    assert code == 0 and int(out.strip()) == len(before["legal"])
