"""What each preset and option of a rule set means, in words (``dsq rules``, help texts,
the options table of ``docs/rules.md``), from the declaration in
:mod:`engine.ruleset_options`.

Clause numbers are those of ``docs/rules.md`` (and of the labels in the kernels).
"""

from __future__ import annotations

from typing import Any

from engine.rules import PRESETS, Ruleset, parse_rules
from engine.ruleset_options import OPTION_BY_NAME, Option

__all__ = [
    "OPTIONS",
    "PRESET_SOURCES",
    "catalogue",
    "differences",
    "explain",
    "markdown_table",
    "option_rows",
    "options_help",
]

OPTIONS: dict[str, Option] = OPTION_BY_NAME

PRESET_SOURCES: dict[str, str] = {
    "standard": "the rules of the Portuguese page on the game, with a 200-ply no-capture draw",
    "yeshou": "野兽争霸斗兽棋, a computer edition described on the Chinese page",
    "datou": "大头斗兽棋, a mobile edition described on the Chinese page",
}


def option_rows(rules: Ruleset, against: Ruleset | None = None) -> list[dict[str, Any]]:
    """Every option of ``rules``: name, value, clause and meaning, and whether it differs
    from ``against`` (``standard`` by default)."""
    base = against if against is not None else PRESETS["standard"]
    rows = []
    for option in OPTIONS.values():
        value = getattr(rules, option.name)
        rows.append(
            {
                "option": option.name,
                "value": option.text(value),
                "clause": option.clause,
                "meaning": option.meaning(value),
                "differs": value != getattr(base, option.name),
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
    for option in OPTIONS.values():
        va, vb = getattr(ra, option.name), getattr(rb, option.name)
        if va != vb:
            rows.append(
                {
                    "option": option.name,
                    "clause": option.clause,
                    "a": option.text(va),
                    "b": option.text(vb),
                    "a_meaning": option.meaning(va),
                    "b_meaning": option.meaning(vb),
                }
            )
    return {"a": ra.spec, "b": rb.spec, "same": not rows, "differences": rows}


def _value_meanings(option: Option) -> dict[str, str]:
    if option.kind is int:
        zero = {"0": option.meaning(0)} if option.low == 0 else {}
        return {**zero, "N": option.meanings["N"].format(n="N")}
    return {v: option.meanings[v] for v in option.values}


def catalogue() -> dict[str, Any]:
    """Every preset (with its source and canonical options) and every option with its values."""
    return {
        "presets": [
            {
                "name": name,
                "source": PRESET_SOURCES[name],
                "options": {o.name: o.text(getattr(r, o.name)) for o in OPTIONS.values()},
            }
            for name, r in PRESETS.items()
        ],
        "options": [
            {
                "name": o.name,
                "clause": o.clause,
                "about": o.about,
                "values": _value_meanings(o),
            }
            for o in OPTIONS.values()
        ],
    }


def options_help() -> str:
    """The presets and options in one line each, for help texts."""
    parts = []
    for o in OPTIONS.values():
        if o.kind is bool:
            parts.append(o.name)
        elif o.kind is int:
            parts.append(f"{o.name}=N")
        else:
            parts.append(f"{o.name}={'|'.join(o.choices)}")
    return f"presets: {', '.join(PRESETS)}; options: {', '.join(parts)}"


def _cell(option: Option, value: object) -> str:
    if option.kind is bool:
        return "yes" if value else "no"
    if option.kind is str:
        return f"`{value}`"
    return str(value)


def markdown_table() -> str:
    """The options table of ``docs/rules.md`` ("Presets and options"): each option's value
    in each preset, its clause and what it is about."""
    head = ["option", *(f"`{p}`" for p in PRESETS), "clause", "what it changes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for o in OPTIONS.values():
        cells = [f"`{o.name}`", *(_cell(o, getattr(r, o.name)) for r in PRESETS.values())]
        lines.append("| " + " | ".join([*cells, o.clause, o.about]) + " |")
    return "\n".join(lines)
