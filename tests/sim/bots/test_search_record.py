"""Alpha-beta at a fixed depth searches the same tree it always has.

``tests/data/searches.jsonl`` was recorded by the search as it stood before the bitboard
move generator replaced the square-by-square one: the initial position and 8 middlegames
(reached by greedy games after a random opening) under four rule sets, each searched at
depths 1 to 6. Every line gives the position's moves from the start and the search's
principal variation, score, node count and selective depth. Today's search must agree
on all of them: the same move order gives the same cut-offs, hence the same node count.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Position
from engine.position import decode_move
from engine.rng import seed_state
from sim.bots import make_bot

RECORD = Path(__file__).resolve().parents[2] / "data" / "searches.jsonl"
SEARCHES = [json.loads(line) for line in RECORD.read_text().splitlines()]


def test_the_record_covers_every_rule_set_and_depth() -> None:
    assert len(SEARCHES) == 216
    assert {s["depth"] for s in SEARCHES} == set(range(1, 7))
    assert len({s["rules"] for s in SEARCHES}) == 4


@pytest.mark.parametrize("rules", sorted({s["rules"] for s in SEARCHES}))
def test_fixed_depth_search_is_unchanged(rules: str) -> None:
    for rec in (s for s in SEARCHES if s["rules"] == rules):
        pos = Position(rules)
        pos.play_moves(rec["moves"])
        bot = make_bot(f"alphabeta:depth={rec['depth']},eval=classic", pos.rules, seed_state(1))
        bot.choose(pos.st)
        got = {k: bot.info[k] for k in ("pv", "score", "nodes", "seldepth", "depth")}
        want = {k: rec[k] for k in got}
        assert got == want, (len(rec["moves"]), rec["depth"])


def test_late_move_reductions_change_nothing_below_depth_3_and_search_less_above() -> None:
    """``lmr=1`` reduces only at nodes 3 plies or more from the horizon: the recorded
    searches to depths 1 and 2 are the same; to depth 6 the record's positions take fewer
    nodes in all, and each answer is a legal move."""
    nodes = {"without": 0, "with": 0}
    for rec in (s for s in SEARCHES if s["depth"] in (1, 2, 6)):
        pos = Position(rec["rules"])
        pos.play_moves(rec["moves"])
        bot = make_bot(f"alphabeta:depth={rec['depth']},eval=classic,lmr=1", pos.rules,
                       seed_state(1))  # fmt: skip
        assert decode_move(bot.choose(pos.st)) in pos.legal_moves()
        if rec["depth"] < 3:
            assert (bot.info["pv"], bot.info["score"], bot.info["nodes"]) == (
                rec["pv"], rec["score"], rec["nodes"])  # fmt: skip
        else:
            nodes["without"] += rec["nodes"]
            nodes["with"] += bot.info["nodes"]
    assert nodes["with"] < nodes["without"] * 0.5, nodes


def test_aspiration_windows_find_the_recorded_scores() -> None:
    """``aspiration=1`` searches from depth 4 in a window around the last score, widened
    where it fails: to depth 6, every recorded position gets its recorded score."""
    for rec in (s for s in SEARCHES if s["depth"] == 6):
        pos = Position(rec["rules"])
        pos.play_moves(rec["moves"])
        bot = make_bot("alphabeta:depth=6,eval=classic,aspiration=1", pos.rules, seed_state(1))
        assert decode_move(bot.choose(pos.st)) in pos.legal_moves()
        assert (bot.info["depth"], bot.info["score"]) == (6, rec["score"]), rec["moves"]
