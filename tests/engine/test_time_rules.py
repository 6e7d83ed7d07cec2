"""The players' rules of a rule set (docs/rules.md, Clocks): the options parse, the
presets give the editions' values, a move's time is judged by them, and every rules
string recorded before they existed keeps its canonical form (records group by it)."""

from __future__ import annotations

import duckdb
import pytest

from engine import PRESETS, RulesError, parse_rules
from engine.rules import canonical_rules
from engine.timerules import RuleClock, TimeRules, move_strikes, time_rules
from sim.tablebase.store import rules_key
from tests.support import ROOT

# Canonical specs as recorded before the time options existed (engine 0.6.0), and the
# endgame tables' keys of the presets then: both must stay the same strings.
RECORDED = [
    "standard", "yeshou", "datou", "standard+tiger_jump=horizontal", "standard+rule_17_5",
    "standard+jump_block=enemy+rat_cross_capture", "yeshou+tiger_jump=horizontal",
    "datou+dog_over_wolf", "yeshou+no_capture_plies=100", "standard+rat_cross_capture+rule_7_3",
    "datou+lion_jump=none", "standard+rat_cross_capture+elephant_captures_rat+no_capture_plies=0",
]  # fmt: skip
TABLE_KEYS = {
    "standard": "standard+no_capture_plies=0",
    "yeshou": "standard+jump_block=enemy+rat_cross_capture+no_capture_plies=0",
    "datou": "standard+tiger_jump=horizontal+no_capture_plies=0",
}


def test_the_editions_time_rules_are_their_presets_values() -> None:
    assert time_rules(PRESETS["standard"]) == TimeRules()
    assert time_rules(PRESETS["datou"]) == TimeRules(move_ms=30_000, strikes=2)
    assert time_rules(PRESETS["yeshou"]) == TimeRules(game_ms=600_000, draws=True)
    assert not TimeRules().timed and TimeRules(game_ms=1).timed
    assert time_rules(PRESETS["datou"]).text == "move 30 s, 2 strikes"


def test_the_options_parse_and_bad_values_are_refused() -> None:
    r = parse_rules("standard+move_time=10+time_strikes=3+game_time=300+draw_by_agreement")
    assert time_rules(r) == TimeRules(10_000, 3, 300_000, True)
    assert parse_rules(r.spec) == r
    assert parse_rules("datou+move_time=0").spec == "datou+move_time=0"
    with pytest.raises(RulesError, match="time_strikes takes 1"):
        parse_rules("datou+time_strikes=0")
    with pytest.raises(RulesError, match="move_time takes 0"):
        parse_rules("standard+move_time=-5")
    with pytest.raises(RulesError, match="game_time takes a whole number"):
        parse_rules("yeshou+game_time=ten")


def test_recorded_rules_strings_keep_their_canonical_form() -> None:
    bundled = duckdb.sql(
        f"select distinct rules from read_parquet('{ROOT / 'data' / 'games'}/**/*.parquet',"
        " union_by_name = true)"
    ).fetchall()
    assert bundled, "the bundled sample has games"
    for (spec,) in bundled:
        assert canonical_rules(spec) == spec, spec
    for spec in RECORDED:
        assert canonical_rules(spec) == spec, spec
    for preset, key in TABLE_KEYS.items():
        assert rules_key(preset) == key  # the tables ignore the time rules


def test_a_move_earns_one_strike_for_each_full_limit_it_went_past() -> None:
    assert [move_strikes(30_000, ms) for ms in (0, 30_000, 30_001, 60_000, 61_000)] == [
        0, 0, 1, 1, 2,
    ]  # fmt: skip
    assert move_strikes(None, 10**9) == 0


def test_strikes_in_a_row_lose_and_a_move_in_time_clears_them() -> None:
    clock = RuleClock(TimeRules(move_ms=30_000, strikes=2))
    assert clock.verdict(31_000) is None
    clock.charge(31_000)
    assert clock.strikes == 1 and clock.budget_ms() == 30_000
    clock.charge(5_000)  # in time: the count starts again
    assert clock.strikes == 0
    clock.charge(31_000)
    assert "2 strikes in a row" in (clock.verdict(45_000) or "")
    assert clock.verdict(61_000) is not None and RuleClock(clock.rules).verdict(61_000)


def test_the_game_clock_runs_out() -> None:
    clock = RuleClock(TimeRules(game_ms=1_000))
    assert clock.verdict(600) is None
    clock.charge(600)
    assert clock.left_ms == 400 and clock.budget_ms() == 400
    assert "clock of 1 s ran out" in (clock.verdict(401) or "")
