"""The ``mcts`` bot: stored specs keep their play, the leaf settle and the progressive
bias, the new defaults against the old bot, and refused parameter values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import Position, core
from engine.errors import DsqError
from engine.position import encode_move
from sim.bots import parse_bot
from sim.bots.mcts_leaf import leaf_lists, settle
from sim.bots.search import qsearch
from sim.bots.search_layout import INF, MATE, MATE_BOUND, new_workspace
from sim.play.referee import play_game
from tests.support.procs import dsq, one_line_error

V = "values=450/200/300/350/500/800/900/1000"
OLD = f"mcts:playouts=2000,c=1.4,rollout=random,rollout_plies=20,time_ms=0,{V}"

# Games recorded with the bot before it had the leaf settle and the progressive bias
# (opening_plies=2, ply_cap=24, no tables): the same specs must play the same moves.
RECORDED = [
    (
        "standard",
        OLD,
        "greedy",
        11,
        "1163 3249 1039 3511 1 2867 1307 3316 1762 3186 2217 3119 708 4029 787 3964 976 3641 "
        "1041 3704 1234 3062 521 3641",
    ),
    (
        "datou",
        "greedy",
        f"mcts:playouts=300,c=0.8,rollout=greedy,rollout_plies=6,time_ms=0,{V}",
        12,
        "7 2867 1299 3517 1236 2737 781 3178 448 2737 1041 3178 903 2737 1 3958 389 3178 462 "
        "2989 527 2737 332 3178",
    ),
    (
        "yeshou",
        f"mcts:playouts=1500,c=2.0,rollout=random,rollout_plies=0,time_ms=0,{V}",
        f"mcts:playouts=500,c=1.4,rollout=random,rollout_plies=20,time_ms=0,{V}",
        13,
        "917 3127 513 3243 1169 2861 779 3503 389 2802 1307 2737 1762 3056 1033 3113 2209 3243 "
        "2152 3186 2599 3251 66 2802",
    ),
]


@pytest.mark.parametrize(("rules", "red", "blue", "seed", "moves"), RECORDED)
def test_stored_specs_replay_the_same_games(
    rules: str, red: str, blue: str, seed: int, moves: str, tmp_path: Path
) -> None:
    rec = play_game(rules, red, blue, seed=seed, opening_plies=2, ply_cap=24, tables=str(tmp_path))
    assert " ".join(map(str, rec["moves"])) == moves


def test_old_specs_keep_their_canonical_form() -> None:
    assert parse_bot(OLD).canonical == OLD
    assert parse_bot("mcts:eval=classic,c=1.4,rollout_plies=20").canonical == OLD
    params = parse_bot(OLD).params
    assert (params["leaf"], params["bias"]) == ("eval", 0.0)
    new = parse_bot("mcts").params
    assert new["leaf"] == "qsearch" and new["bias"] > 0
    # Named only where they differ from what the spec would take without them.
    assert "leaf=qsearch" in parse_bot("mcts:eval=classic,leaf=qsearch").canonical
    assert "leaf=eval" in parse_bot("mcts:leaf=eval").canonical
    assert "bias" not in parse_bot("mcts").canonical


def _random_positions(count: int) -> list[Position]:
    rng = np.random.default_rng(5)
    out = []
    while len(out) < count:
        pos = Position(("standard", "datou", "yeshou")[len(out) % 3])
        for _ in range(int(rng.integers(6, 90))):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.play(moves[int(rng.integers(len(moves)))])
        if pos.result is None:
            out.append(pos)
    return out


def test_leaf_settle_is_the_quiescence_search() -> None:
    ws = new_workspace(1024, np.array([450, 200, 300, 350, 500, 800, 900, 1000]))["ws"]
    ml = leaf_lists()
    qml = new_workspace(1024, np.zeros(8, dtype=np.int64))["ml"]
    for pos in _random_positions(24):
        nply = int(pos.st[core.S_NPLY])
        st = core.new_state(nply + 120)
        used = core.HEADER + core.HIST_SIZE * nply
        st[:used] = pos.st[:used]
        before = st.copy()
        ra = pos.rules.as_array()
        assert settle(st, ra, ml, ws, 0) == qsearch(st, ra, qml, ws, 0, 0, -INF, INF)
        assert np.array_equal(st[:used], before[:used])  # the position is restored
        # One full ply first: the best of the moves' quiescence scores, a mate one ply on.
        best = -INF
        for mv in pos.legal_moves():
            core.make_move(st, ra, encode_move(mv))
            if st[core.S_STATUS] == core.ONGOING:
                score = -settle(st, ra, ml, ws, 0)
                score = score - 1 if score > MATE_BOUND else score + (score < -MATE_BOUND)
            else:
                score = 0 if st[core.S_STATUS] == core.DRAWN else MATE - 1
            core.unmake_move(st)
            best = max(best, score)
        assert settle(st, ra, ml, ws, 1) == best


def test_new_defaults_beat_the_old_bot(tmp_path: Path) -> None:
    # The old bot: its spec names the defaults of that time.
    new, old = "mcts:playouts=1000", "mcts:playouts=1000,eval=classic,c=1.4,rollout_plies=20"
    score = 0.0
    for seed in range(3):
        for red, blue in ((new, old), (old, new)):
            rec = play_game("standard", red, blue, seed=seed, opening_plies=2, tables=str(tmp_path))
            if rec["winner"] == "draw":
                score += 0.5
            elif (rec["winner"] == "red") == (red == new):
                score += 1.0
    assert score >= 5.0


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("mcts:leaf=deep", "leaf takes one of eval, qsearch, not 'deep'"),
        ("mcts:bias=-1", "bias takes a number from 0 to 100, not '-1'"),
        ("mcts:bias=nan", "bias takes a number from 0 to 100"),
        ("mcts:bias=x", "bias takes a number"),
    ],
)
def test_bad_values_are_refused(spec: str, fragment: str) -> None:
    with pytest.raises(DsqError) as info:
        parse_bot(spec)
    assert fragment in str(info.value)


def test_cli_refuses_a_bad_value_in_one_line() -> None:
    res = dsq("bestmove", "--bot", "mcts:bias=-1")
    assert "bias takes a number from 0 to 100" in one_line_error(res, "bestmove")
