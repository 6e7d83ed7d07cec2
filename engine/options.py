"""What each preset and option of a rule set means, in words (``dsq rules``, help texts).

Clause numbers are those of ``docs/rules.md`` (and of the labels in the kernels).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.rules import PRESETS, Ruleset, parse_rules


@dataclass(frozen=True)
class OptionDoc:
    """An option: the clause it changes, what it is about, and what each value means."""

    name: str
    clause: str
    about: str
    values: dict[str, str]

    def meaning(self, value: object) -> str:
        """What ``value`` of this option means."""
        if self.name == "no_capture_plies":
            if value == 0:
                return "no draw for lack of captures"
            return f"drawn after {value} plies in a row without a capture"
        return self.values[_value_text(value)]


OPTIONS: dict[str, OptionDoc] = {
    d.name: d
    for d in (
        OptionDoc(
            "dog_over_wolf",
            "Pieces",
            "which of dog and wolf is stronger",
            {"false": "the wolf (4) is stronger than the dog (3)",
             "true": "the dog (4) is stronger than the wolf (3)"},
        ),
        OptionDoc(
            "jump_block",
            "Movement 7",
            "which rats in the river block a lion's or tiger's jump",
            {"any": "any rat on the jump's path blocks it, even the jumper's own",
             "enemy": "only an enemy rat blocks a jump; the jumper's own rat does not"},
        ),
        OptionDoc(
            "lion_jump",
            "Movement 9",
            "the lion's river jumps",
            {"both": "the lion jumps across the rivers and along them",
             "horizontal": "the lion jumps only across the rivers (along a rank)",
             "none": "the lion never jumps"},
        ),
        OptionDoc(
            "tiger_jump",
            "Movement 9",
            "the tiger's river jumps",
            {"both": "the tiger jumps across the rivers and along them",
             "horizontal": "the tiger jumps only across the rivers (along a rank)",
             "none": "the tiger never jumps"},
        ),
        OptionDoc(
            "rat_cross_capture",
            "Captures 1",
            "whether a rat may capture a rat across the water's edge",
            {"false": "a rat in water and a rat on land cannot capture each other",
             "true": "a rat in water and a rat on land may capture each other"},
        ),
        OptionDoc(
            "elephant_captures_rat",
            "Captures 4",
            "whether an elephant may capture a rat",
            {"false": "an elephant may not capture a rat (except in a trap)",
             "true": "an elephant may capture a rat on land"},
        ),
        OptionDoc(
            "trapped_can_capture",
            "Captures 2",
            "whether an animal in an enemy trap may capture",
            {"false": "an animal in an enemy trap has strength 0 and cannot capture",
             "true": "an animal in an enemy trap keeps its strength and may capture"},
        ),
        OptionDoc(
            "rule_7_3",
            "7-3 rule",
            "the 7-3 anti-chasing rule",
            {"false": "no 7-3 rule",
             "true": "an animal may not visit the same square a 4th time within its "
                     "side's last 7 moves (unless chased, or a move entered a trap)"},
        ),
        OptionDoc(
            "rule_17_5",
            "17-5 rule",
            "the 17-5 anti-chasing rule",
            {"false": "no 17-5 rule",
             "true": "after 17 moves in a row of one animal within at most 5 squares, it "
                     "may not return to them (unless a move entered a trap)"},
        ),
        OptionDoc(
            "no_capture_plies",
            "End 3",
            "the draw for lack of captures",
            {},
        ),
    )
}  # fmt: skip

PRESET_SOURCES: dict[str, str] = {
    "standard": "the rules of the Portuguese page on the game, with a 200-ply no-capture draw",
    "yeshou": "野兽争霸斗兽棋, a computer edition described on the Chinese page",
    "datou": "大头斗兽棋, a mobile edition described on the Chinese page",
}


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_rows(rules: Ruleset, against: Ruleset | None = None) -> list[dict[str, Any]]:
    """Every option of ``rules``: name, value, clause and meaning, and whether it differs
    from ``against`` (``standard`` by default)."""
    base = against if against is not None else PRESETS["standard"]
    rows = []
    for f in fields(Ruleset):
        doc = OPTIONS[f.name]
        value = getattr(rules, f.name)
        rows.append(
            {
                "option": f.name,
                "value": _value_text(value),
                "clause": doc.clause,
                "meaning": doc.meaning(value),
                "differs": value != getattr(base, f.name),
            }
        )
    return rows


def explain(spec: str | Ruleset) -> dict[str, Any]:
    """A rule set in words: canonical spec, closest preset, every option (``RulesError`` on a
    bad spec)."""
    rules = parse_rules(spec)
    preset = rules.spec.split("+", 1)[0]
    return {
        "spec": rules.spec,
        "preset": preset,
        "preset_source": PRESET_SOURCES[preset],
        "options": option_rows(rules),
    }


def differences(a: str | Ruleset, b: str | Ruleset) -> dict[str, Any]:
    """What differs between two rule sets: each option whose value differs, both values and
    their meanings."""
    ra, rb = parse_rules(a), parse_rules(b)
    rows = []
    for f in fields(Ruleset):
        va, vb = getattr(ra, f.name), getattr(rb, f.name)
        if va != vb:
            doc = OPTIONS[f.name]
            rows.append(
                {
                    "option": f.name,
                    "clause": doc.clause,
                    "a": _value_text(va),
                    "b": _value_text(vb),
                    "a_meaning": doc.meaning(va),
                    "b_meaning": doc.meaning(vb),
                }
            )
    return {"a": ra.spec, "b": rb.spec, "same": not rows, "differences": rows}


def catalogue() -> dict[str, Any]:
    """Every preset (with its source and canonical options) and every option with its values."""
    return {
        "presets": [
            {
                "name": name,
                "source": PRESET_SOURCES[name],
                "options": {f.name: _value_text(getattr(r, f.name)) for f in fields(Ruleset)},
            }
            for name, r in PRESETS.items()
        ],
        "options": [
            {
                "name": d.name,
                "clause": d.clause,
                "about": d.about,
                "values": d.values or {"N": "drawn after N plies without a capture (0: never)"},
            }
            for d in OPTIONS.values()
        ],
    }
