"""The one replay (sim.records.replay) of the Games page, ``dsq replay`` and ``dsq replay
--game``: frames and captures as the referee recorded them, a damaged record's ply, and
the comparison of a replay with its record."""

from __future__ import annotations

import pytest

from engine import Position, encode_move
from sim.play.referee import play_game
from sim.records.human import HUMAN, Stop, human_game_row
from sim.records.replay import agrees, replay, replay_cap, replay_game, verdict


@pytest.mark.parametrize("rules", ["standard", "yeshou", "datou+dog_over_wolf"])
def test_replay_reaches_the_referees_result(rules):
    for seed in range(4):
        game = play_game(Position(rules).rules, "random", "greedy", seed=seed, ply_cap=400)
        rep = replay_game(game["rules"], game["moves"], game["ply_cap"])
        assert rep.error is None
        assert (rep.winner, rep.reason) == (game["winner"], game["reason"])
        assert rep.plies == game["plies"]
        caps = [f.ply - 1 for f in rep.frames if f.captured]
        assert caps == [c["ply"] for c in game["captures"]]
        assert verdict(game["winner"], game["reason"], rep) == "agree"
        report = replay(game["rules"], None, [f.move for f in rep.frames[1:]])
        assert report["plies"] == rep.plies and len(report["legal_counts"]) == rep.plies


def test_replay_reports_a_damaged_record():
    bad = [encode_move("a3a4"), encode_move("a3a5")]
    rep = replay_game("standard", bad)
    assert rep.plies == 1 and rep.error and rep.error_ply == 2 and rep.error_move == "a3a5"
    assert verdict("red", "den", rep) == "differ"
    bad_rules = replay_game("nonsense", [])
    assert bad_rules.error and bad_rules.error_ply is None


def test_a_stopped_game_replays_unfinished_and_is_told_apart():
    moves = ["a3a4", "a7a6"]
    row = human_game_row("standard", HUMAN, "greedy", moves, stop=Stop("red", "resign"))
    cap = replay_cap(row["reason"], row["ply_cap"])
    assert cap is None and replay_cap("ply_cap", 60) == 60
    rep = replay_game(row["rules"], row["moves"], cap)
    assert (rep.winner, rep.reason, rep.plies) == (None, None, 2)
    assert verdict(row["winner"], row["reason"], rep) == "stopped"
    assert verdict("red", "tablebase", rep) == "tables"
    assert agrees(None, "blue", "resign") and not agrees(None, "red", "den")
    capped = replay_game(row["rules"], row["moves"], 2)
    assert (capped.winner, capped.reason) == ("draw", "ply_cap")
