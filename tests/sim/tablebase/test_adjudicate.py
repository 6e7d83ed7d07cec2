"""Adjudication by the tables: the stepwise referee and the fast path cut games at the same
position, only clock-safe results end a game, and ``dsq simulate --adjudicate tablebase``
records them with reason ``tablebase``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine import Position, core
from engine.codes import BLUE_WON, DRAWN, RED_WON, TABLEBASE
from engine.errors import DsqError
from engine.fen import parse_fen
from engine.rng import seed_word
from engine.rules import parse_rules
from sim.bots import fast
from sim.bots.piece_values import values_array
from sim.bots.spec import DEFAULT_VALUES, parse_bot
from sim.cli import main
from sim.play import referee
from sim.play.columnar import play_fast_games
from sim.play.referee import bot_seed, play_game
from sim.play.stepwise import play_stepwise
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record
from sim.tablebase import outcomes as V
from sim.tablebase.adjudicate import adjudicator, cut_games
from sim.tablebase.probe import probe
from sim.tablebase.store import tables_root

# Four animals whose captures lead to tables of the fixture (LR v t, LR v e, two-piece)
START = "7/7/1e5/7/7/7/4t2/2L4/6R r 0 1"


def _rngs(seed: int) -> np.ndarray:
    words = [seed_word(seed), seed_word(bot_seed(seed, 0)), seed_word(bot_seed(seed, 1))]
    return np.array(words, dtype=np.uint64)


@pytest.mark.parametrize("rules", ["standard", "standard+no_capture_plies=40"])
def test_stepwise_and_cut_games_agree(tb_data: Path, rules: str) -> None:
    root = tables_root(tb_data)
    ruleset = parse_rules(rules)
    ra = ruleset.as_array()
    adj = adjudicator(ruleset, root)
    start = parse_fen(START, ra, 1)
    n = 24
    kinds = np.array([[0, 1], [1, 0], [0, 0]] * 8, dtype=np.int32)
    rngs = np.stack([_rngs(s) for s in range(n)])
    values = values_array(DEFAULT_VALUES, ruleset)
    whole = fast.fast_games(start, ra, kinds, values, rngs.copy(), 2, 150)  # advances them
    summary, moves, offsets, caps, cap_offsets = cut_games(start, ra, adj, *whole)
    names = {0: "random", 1: "greedy"}
    adjudicated = 0
    for g in range(n):
        st = np.zeros(4096, dtype=np.int32)
        st[: start.shape[0]] = start
        specs = (parse_bot(names[int(kinds[g, 0])]), parse_bot(names[int(kinds[g, 1])]))
        packed = play_stepwise(st, ruleset, ra, specs, rngs[g], 2, 150, adj)
        plies = int(packed[0])
        assert packed[: fast.SUMMARY_SIZE - 1].tolist() == summary[g, :-1].tolist(), g
        assert packed[fast.SUMMARY_SIZE : fast.SUMMARY_SIZE + plies].tolist() == (
            moves[offsets[g] : offsets[g + 1]].tolist()
        )
        got_caps = packed[fast.SUMMARY_SIZE + plies :].reshape(-1, 4)
        assert got_caps.tolist() == caps[cap_offsets[g] : cap_offsets[g + 1]].tolist()
        adjudicated += int(summary[g, 3] == TABLEBASE)
    assert adjudicated > 0


def test_play_game_records_the_table_result(tb_data: Path) -> None:
    root = str(tables_root(tb_data))
    seen = 0
    for seed in range(12):
        rec = play_game(
            "standard", "greedy", "random", seed, fen=START, adjudicate="tablebase", tables=root
        )
        plain = play_game("standard", "greedy", "random", seed, fen=START)
        assert rec["moves"] == plain["moves"][: rec["plies"]]  # the same game, cut
        if rec["reason"] != "tablebase":
            assert rec == {**plain, "duration_ms": rec["duration_ms"]}
            continue
        seen += 1
        pos = Position("standard", START)
        pos.play_moves(referee.game_moves(rec))
        value = probe("standard", pos.st, root)
        assert value is not None and pos.result is None
        side = pos.side
        if value[0] == "draw":
            assert rec["winner"] == "draw"
        else:
            other = "blue" if side == "red" else "red"
            assert rec["winner"] == (side if value[0] == "win" else other)
        assert rec["den_animal"] is None
        assert (rec["red_pieces_left"], rec["blue_pieces_left"]) == (
            int(pos.st[core.S_COUNT]),
            int(pos.st[core.S_COUNT + 1]),
        )
    assert seen > 0


def test_only_clock_safe_results(tb_data: Path) -> None:
    root = tables_root(tb_data)
    adj = adjudicator("standard+no_capture_plies=20", root)
    win9 = V.win_code(9)
    assert adj.verdict(win9, 0, 11) == RED_WON  # 9 <= 20 - 11
    assert adj.verdict(win9, 0, 12) is None  # the clock may draw it first
    assert adj.verdict(V.loss_code(8), 1, 12) == RED_WON
    assert adj.verdict(V.loss_code(8), 1, 13) is None
    assert adj.verdict(V.DRAW, 1, 19) == DRAWN
    free = adjudicator("standard+no_capture_plies=0", root)
    assert free.verdict(V.win_code(201), 1, 10_000) == BLUE_WON
    with pytest.raises(DsqError, match="no tables"):
        adjudicator("standard+dog_over_wolf", root)


def test_columnar_games_equal_play_game(tb_data: Path) -> None:
    root = str(tables_root(tb_data))
    n = 300
    seeds = list(range(n))
    reds = ["random", "greedy", "random"] * 100
    blues = ["random"] * n
    columns = play_fast_games(
        "standard", reds, blues, seeds, seeds, 2, 600, adjudicate="tablebase", tables=root
    )
    reasons = columns["reason"].to_pylist()
    picked = [i for i in range(n) if reasons[i] == "tablebase"]
    assert picked  # the fixture's tables settle some of these games
    for i in picked + list(range(0, n, 37)):
        game = play_game(
            "standard",
            reds[i],
            blues[i],
            seeds[i],
            2,
            600,
            seeds[i],
            adjudicate="tablebase",
            tables=root,
        )
        for key, value in game.items():
            got = columns[key][i].as_py()
            if key == "branching":
                assert got == pytest.approx(value, rel=1e-6)
            elif key != "duration_ms":
                assert got == value, (i, key)


def test_simulate_adjudicates(tb_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--rules",
        "standard",
        "--red",
        "random",
        "--blue",
        "random",
        "--games",
        "400",
        "--seed",
        "3",
        "--data",
        str(tb_copy),
        "--quiet",
        "--json",
        "--adjudicate",
        "tablebase",
        "--batch-id",
        "adj",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["batches"][0]["spec"]["adjudicate"] == "tablebase"
    assert read_batch_record(tb_copy, "adj")["spec"]["adjudicate"] == "tablebase"
    ds = open_dataset(tb_copy)
    reasons = dict(ds.con.sql("select reason, count(*) from games group by 1").fetchall())
    assert reasons.get("tablebase", 0) > 0 and sum(reasons.values()) == 400
    code = main(
        [
            "simulate",
            "--rules",
            "standard+dog_over_wolf",
            "--games",
            "2",
            "--data",
            str(tb_copy),
            "--adjudicate",
            "tablebase",
            "--quiet",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "no tables" in err and len(err.strip().splitlines()) == 1
