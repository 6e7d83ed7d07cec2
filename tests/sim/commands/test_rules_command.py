"""``dsq rules``: the catalogue of presets and options, one spec explained, two compared."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from engine import PRESETS, Ruleset
from engine.options import OPTIONS, differences, explain
from sim.cli import main as dsq

DATOU_SPELLED = "standard+tiger_jump=horizontal+rule_17_5+move_time=30+time_strikes=2"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert dsq(["rules", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_option_of_the_engine_is_described() -> None:
    from engine.codes import JUMP_BLOCK_VALUES, JUMP_VALUES

    assert list(OPTIONS) == [f.name for f in fields(Ruleset)]
    accepted = {"jump_block": JUMP_BLOCK_VALUES, "lion_jump": JUMP_VALUES}
    accepted["tiger_jump"] = JUMP_VALUES
    for f in fields(Ruleset):
        if OPTIONS[f.name].kind is int:  # no_capture_plies, the time rules, void_rounds
            continue
        values = accepted.get(f.name, ("true", "false"))
        assert set(OPTIONS[f.name].values) == set(values), f.name


def test_catalogue_lists_presets_and_options(capsys) -> None:
    cat = run_json(capsys)
    assert [p["name"] for p in cat["presets"]] == list(PRESETS)
    assert {o["name"] for o in cat["options"]} == set(OPTIONS)
    yeshou = next(p for p in cat["presets"] if p["name"] == "yeshou")
    assert yeshou["options"]["rule_7_3"] == "true" and "野兽争霸" in yeshou["source"]
    assert dsq(["rules"]) == 0
    text = capsys.readouterr().out
    assert "elephant_captures_rat" in text and "Captures 2" in text


def test_one_spec_is_explained_against_standard(capsys) -> None:
    ex = run_json(capsys, "datou+dog_over_wolf")
    assert ex["spec"] == "datou+dog_over_wolf" and ex["preset"] == "datou"
    differs = {r["option"] for r in ex["options"] if r["differs"]}
    assert differs == {"tiger_jump", "rule_17_5", "dog_over_wolf", "move_time", "time_strikes"}
    tiger = next(r for r in ex["options"] if r["option"] == "tiger_jump")
    assert tiger["value"] == "horizontal" and tiger["clause"] == "Movement 9"
    assert "only across" in tiger["meaning"]
    assert dsq(["rules", DATOU_SPELLED]) == 0
    assert capsys.readouterr().out.startswith("datou  (closest preset: datou")


def test_two_specs_are_compared(capsys) -> None:
    diff = run_json(capsys, "yeshou", "standard")
    assert diff["a"] == "yeshou" and not diff["same"]
    assert [d["option"] for d in diff["differences"]] == [
        "jump_block",
        "rat_cross_capture",
        "rule_7_3",
        "rule_17_5",
        "game_time",
        "draw_by_agreement",
        "void_rounds",
    ]
    assert differences("datou", DATOU_SPELLED)["same"]
    assert dsq(["rules", "standard+no_capture_plies=0", "standard"]) == 0
    out = capsys.readouterr().out
    assert "no draw for lack of captures" in out and "after 200 plies" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nonsense"], "unknown rules preset"),
        (["standard+fly"], "unknown rules option"),
        (["standard", "datou", "yeshou"], "at most two"),
    ],
)
def test_bad_specs_are_one_line_exit_2(capsys, args: list[str], message: str) -> None:
    assert dsq(["rules", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_explain_matches_the_ruleset() -> None:
    rules = Ruleset(elephant_captures_rat=True, no_capture_plies=0)
    rows = {r["option"]: r for r in explain(rules)["options"]}
    assert rows["elephant_captures_rat"]["value"] == "true"
    assert rows["no_capture_plies"]["value"] == "0" and rows["no_capture_plies"]["differs"]
