"""Rules specs: the engine's parser against the reference's reading of RULES.md 'Presets'."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import reference_board as ref_board
from tests.support.rulesets import RULESETS

OPTION_VALUES = {
    "dog_over_wolf": ["", "=true", "=false"],
    "jump_block": ["=any", "=enemy"],
    "lion_jump": ["=both", "=horizontal", "=none"],
    "tiger_jump": ["=both", "=horizontal", "=none"],
    "rat_cross_capture": ["", "=true", "=false"],
    "rule_7_3": ["", "=true", "=false"],
    "rule_17_5": ["", "=true", "=false"],
    "no_capture_plies": ["=0", "=6", "=100", "=200", "=1000"],
    "void_rounds": ["=0", "=3", "=10"],
    "move_time": ["=0", "=30"],
    "time_strikes": ["=1", "=2"],
    "game_time": ["=0", "=600"],
    "draw_by_agreement": ["", "=true", "=false"],
}

BAD_SPECS = [
    "chinese",
    "standard+bogus_rule",
    "standard+tiger_jump=diagonal",
    "standard+lion_jump=vertical",
    "standard+jump_block=own",
    "standard+rule_7_3=maybe",
    "standard+no_capture_plies=-1",
    "standard+no_capture_plies=x",
    "standard+jump_block",
]


def engine_options(spec: str) -> dict[str, object]:
    from engine import parse_rules

    rules = parse_rules(spec)
    return {name: getattr(rules, name) for name in ref_board.PRESETS["standard"]}


def test_presets_match_rules_md() -> None:
    """The presets' options: RULES.md's table, and the reference generator's presets."""
    from engine import PRESETS, Ruleset

    assert set(PRESETS) == {"standard", "yeshou", "datou"}
    for name in PRESETS:
        assert engine_options(name) == ref_board.PRESETS[name], name
    assert PRESETS["standard"] == Ruleset()
    y = PRESETS["yeshou"]
    assert (y.jump_block, y.rat_cross_capture, y.rule_7_3, y.rule_17_5) == (
        "enemy",
        True,
        True,
        True,
    )
    assert y.tiger_jump == "both" and not y.dog_over_wolf
    d = PRESETS["datou"]
    assert (d.tiger_jump, d.rule_17_5, d.rule_7_3, d.jump_block) == (
        "horizontal",
        True,
        False,
        "any",
    )
    assert {r.no_capture_plies for r in PRESETS.values()} == {200}


@pytest.mark.parametrize("spec", RULESETS)
def test_spec_options_and_round_trip(spec: str) -> None:
    from engine import parse_rules

    assert engine_options(spec) == ref_board.parse_rules(spec)
    rules = parse_rules(spec)
    assert parse_rules(rules.spec) == rules


@settings(max_examples=200, deadline=None)
@given(
    preset=st.sampled_from(sorted(ref_board.PRESETS)),
    options=st.lists(
        st.sampled_from(sorted(OPTION_VALUES)).flatmap(
            lambda name: st.sampled_from([name + v for v in OPTION_VALUES[name]])
        ),
        max_size=6,
    ),
)
def test_random_specs(preset: str, options: list[str]) -> None:
    from engine import parse_rules

    spec = "+".join([preset, *options])
    assert engine_options(spec) == ref_board.parse_rules(spec)
    rules = parse_rules(spec)
    assert parse_rules(rules.spec) == rules
    assert engine_options(rules.spec) == ref_board.parse_rules(rules.spec)


@pytest.mark.parametrize("spec", BAD_SPECS)
def test_bad_specs_refused(spec: str) -> None:
    from engine import parse_rules
    from engine.errors import RulesError

    with pytest.raises(ValueError):
        ref_board.parse_rules(spec)
    with pytest.raises(RulesError):
        parse_rules(spec)
