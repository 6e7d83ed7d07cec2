"""Rules specs: presets, options, canonical form and clear errors."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import PRESETS, RulesError, Ruleset, parse_rules


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("standard", "standard"),
        ("yeshou+tiger_jump=horizontal", "yeshou+tiger_jump=horizontal"),
        ("standard+tiger_jump=horizontal+rule_17_5+move_time=30+time_strikes=2", "datou"),
        ("standard+tiger_jump=horizontal+rule_17_5", "standard+tiger_jump=horizontal+rule_17_5"),
        ("datou+rule_17_5=false", "datou+rule_17_5=false"),
        ("standard+dog_over_wolf", "standard+dog_over_wolf"),
        ("standard+dog_over_wolf=true+dog_over_wolf=false", "standard"),
        ("yeshou+no_capture_plies=100", "yeshou+no_capture_plies=100"),
        (" Datou + lion_jump=none ", "datou+lion_jump=none"),
    ],
)
def test_canonical_spec(spec: str, canonical: str) -> None:
    assert parse_rules(spec).spec == canonical


rulesets = st.builds(
    Ruleset,
    dog_over_wolf=st.booleans(),
    jump_block=st.sampled_from(["any", "enemy"]),
    lion_jump=st.sampled_from(["none", "horizontal", "both"]),
    tiger_jump=st.sampled_from(["none", "horizontal", "both"]),
    rat_cross_capture=st.booleans(),
    rule_7_3=st.booleans(),
    rule_17_5=st.booleans(),
    no_capture_plies=st.integers(0, 5000),
)


@given(rulesets)
def test_canonical_spec_round_trips(rules: Ruleset) -> None:
    assert parse_rules(rules.spec) == rules
    assert parse_rules(rules.spec).spec == rules.spec


def test_every_preset_option_combination_parses() -> None:
    for preset, flag in itertools.product(
        PRESETS, ["dog_over_wolf", "rat_cross_capture", "rule_7_3", "rule_17_5"]
    ):
        for value in ("", "=true", "=false"):
            rules = parse_rules(f"{preset}+{flag}{value}")
            assert getattr(rules, flag) is (value != "=false")


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("chess", "presets are: standard, yeshou, datou"),
        ("", "start with a preset"),
        ("standard+fly", "options are: dog_over_wolf"),
        ("standard+lion_jump=up", "one of none, horizontal, both"),
        ("standard+lion_jump", "needs a value"),
        ("standard+no_capture_plies=ten", "whole number"),
        ("standard+no_capture_plies=-4", "0 (no draw rule)"),
        ("standard+rule_7_3=perhaps", "true/yes/on/1 or false/no/off/0"),
        ("standard+jump_block", "needs a value: jump_block=any|enemy"),
        ("standard+no_capture_plies", "needs a value: no_capture_plies=N"),
        ("standard++rule_7_3", "empty option"),
    ],
)
def test_bad_specs_say_what_is_allowed(spec: str, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_rules(spec)


@pytest.mark.parametrize(
    "spec",
    ["STANDARD+Tiger_Jump=Horizontal+RULE_7_3=Yes", "Standard+tiger_jump=HORIZONTAL+rule_7_3"],
)
def test_option_names_and_values_match_whatever_their_case(spec: str) -> None:
    """As the preset names are: the same rule set as the lower-case spec."""
    assert parse_rules(spec) == parse_rules("standard+tiger_jump=horizontal+rule_7_3")
    assert parse_rules(spec).spec == "standard+tiger_jump=horizontal+rule_7_3"
