"""Scoring 1 (``void_rounds``): yeshou's game that ends within 10 rounds scores nothing.

The option is a rule set's like the others (parsed, canonical, in the presets) but the
kernels never read it, and adding it changed no canonical spec already recorded."""

from __future__ import annotations

import random

import duckdb
import pytest

from engine import PRESETS, Position, RulesError, parse_rules
from engine.rules import canonical_rules
from engine.ruleset_options import OPTION_BY_NAME, R_STRENGTH, RULES_ARRAY_SIZE
from sim.stats.query import VOID_SQL
from tests.support import ROOT

# Canonical specs as dsq wrote them before the option existed (the presets, the tables'
# folders, and specs whose nearest preset was a tie): each must still be its own
# canonical form, so the games recorded under it are found and grouped as before.
RECORDED = (
    "standard", "yeshou", "datou",
    "standard+no_capture_plies=0",
    "standard+jump_block=enemy+rat_cross_capture+no_capture_plies=0",
    "standard+tiger_jump=horizontal+no_capture_plies=0",
    "standard+jump_block=enemy+rat_cross_capture",
    "standard+rat_cross_capture+rule_7_3",
    "standard+rat_cross_capture+rule_17_5",
    "standard+rat_cross_capture+elephant_captures_rat+no_capture_plies=0",
    "yeshou+tiger_jump=horizontal+rule_7_3=false",
    "yeshou+tiger_jump=horizontal+rule_17_5=false",
    "yeshou+rule_17_5=false",
    "yeshou+lion_jump=none+rule_7_3=false",
    "datou+lion_jump=none+elephant_captures_rat",
    "datou+lion_jump=horizontal+rule_7_3",
    "standard+dog_over_wolf+jump_block=enemy",
    "standard+no_capture_plies=100",
)  # fmt: skip


def test_recorded_canonical_specs_are_unchanged() -> None:
    for spec in RECORDED:
        assert canonical_rules(spec) == spec
    from sim.stats.games import distinct_values
    from sim.storage.reading import open_dataset

    with open_dataset(ROOT / "data") as ds:  # the bundled sample's games
        recorded = distinct_values(ds.con)["rules"]
    assert recorded and all(canonical_rules(spec) == spec for spec in recorded)


def test_tables_keep_their_folders() -> None:
    from sim.tablebase.store import rules_key

    assert [rules_key(p) for p in PRESETS] == [
        "standard+no_capture_plies=0",
        "standard+jump_block=enemy+rat_cross_capture+no_capture_plies=0",
        "standard+tiger_jump=horizontal+no_capture_plies=0",
    ]
    assert rules_key("yeshou+void_rounds=0") == rules_key("yeshou")  # tables ignore scoring


def test_the_option_parses_and_is_canonical() -> None:
    assert [PRESETS[p].void_rounds for p in ("standard", "yeshou", "datou")] == [0, 10, 0]
    assert parse_rules("standard+void_rounds=10").spec == "standard+void_rounds=10"
    assert parse_rules("yeshou+void_rounds=0").spec == "yeshou+void_rounds=0"
    assert parse_rules("yeshou+void_rounds=10").spec == "yeshou"
    assert parse_rules("datou+void_rounds=3").void_rounds == 3
    for bad, says in (("-1", "every game scores"), ("1001", "to 1000"), ("x", "whole")):
        with pytest.raises(RulesError, match=says):
            parse_rules(f"yeshou+void_rounds={bad}")
    with pytest.raises(RulesError, match="needs a value"):
        parse_rules("yeshou+void_rounds")


def test_the_kernels_do_not_read_it() -> None:
    assert not OPTION_BY_NAME["void_rounds"].kernel
    a, b = parse_rules("yeshou").as_array(), parse_rules("yeshou+void_rounds=0").as_array()
    assert len(a) == RULES_ARRAY_SIZE == R_STRENGTH + 9
    assert (a == b).all()


def test_the_boundary_is_the_tenth_round() -> None:
    yeshou = PRESETS["yeshou"]
    assert not yeshou.scores(20) and yeshou.scores(21)  # ply 20 ends round 10
    assert not yeshou.scores(0) and not yeshou.scores(1)
    assert all(PRESETS[p].scores(n) for p in ("standard", "datou") for n in (0, 1, 20))
    assert not parse_rules("standard+void_rounds=1").scores(2)
    assert parse_rules("standard+void_rounds=1").scores(3)


def _played(fen: str, plies: int, seed: int) -> Position:
    p = Position(PRESETS["yeshou"], fen=fen)
    rng = random.Random(seed)
    while len(p.history) < plies and p.legal_moves():
        p.play(rng.choice(p.legal_moves()))
    return p


def test_a_game_from_a_fen_with_blue_to_move_counts_rounds_from_its_first_ply() -> None:
    fen = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
    for plies, scores in ((20, False), (21, True)):
        p = _played(fen, plies, seed=plies)
        assert len(p.history) == plies and p.result is None
        assert PRESETS["yeshou"].scores(len(p.history)) is scores


def test_the_statistics_sql_is_the_engines_rule() -> None:
    con = duckdb.connect()
    specs = ["standard", "yeshou", "datou", "yeshou+void_rounds=0", "standard+void_rounds=3",
             "yeshou+rule_7_3=false+void_rounds=12", "datou+void_rounds=1000"]  # fmt: skip
    for spec in (parse_rules(s).spec for s in specs):
        for plies in (0, 1, 5, 6, 7, 19, 20, 21, 24, 25, 2000, 2001):
            (void,) = con.execute(
                f"SELECT {VOID_SQL} FROM (SELECT ? AS rules, ? AS plies)", [spec, plies]
            ).fetchone()
            assert void is (not parse_rules(spec).scores(plies)), (spec, plies)


def test_docs_state_the_rule() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "## Scoring" in page and "若棋局在10个回合内结束" in page
    assert "十二金鸡棋" in page and "Not modelled" in page
    assert "超过3次" in page and "第8步" in page
