"""Every rules option is declared once (engine.ruleset_options) and everything else derives
from that declaration: the Ruleset's fields, the presets, the parser's checks, the
kernels' array, the tables' rule set, ``dsq rules``, the docs table and the clause labels."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import fields

import pytest

import engine.ruleset_options as decl
from engine import PRESETS, RulesError, Ruleset, parse_rules
from engine.options import markdown_table
from engine.ruleset_options import (
    KERNEL_OPTIONS,
    OPTIONS,
    PRESET_NAMES,
    R_STRENGTH,
    RULES_ARRAY_SIZE,
    slot,
)
from sim.cli import main as dsq
from tests.support import ROOT


def test_ruleset_fields_are_the_declared_options() -> None:
    assert [(f.name, f.type, f.default) for f in fields(Ruleset)] == [
        (o.name, o.kind.__name__, o.default) for o in OPTIONS
    ]
    assert len({o.name for o in OPTIONS}) == len(OPTIONS)


def test_presets_are_the_declared_values() -> None:
    assert tuple(PRESETS) == PRESET_NAMES
    for o in OPTIONS:
        assert set(o.presets) == set(PRESET_NAMES), o.name
        for preset, rules in PRESETS.items():
            assert getattr(rules, o.name) == o.presets[preset]


def test_every_value_parses_and_every_other_is_refused() -> None:
    for o in OPTIONS:
        values = list(o.values) or [str(o.low), str(o.high)]
        for text in values:
            rules = parse_rules(f"standard+{o.name}={text}")
            assert o.text(getattr(rules, o.name)) == text
            assert parse_rules(rules.spec) == rules
            assert o.meaning(getattr(rules, o.name))
        bad = "maybe" if o.kind is not int else str(o.high + 1)
        with pytest.raises(RulesError, match=o.name):
            parse_rules(f"standard+{o.name}={bad}")


def test_each_option_has_one_slot_of_the_kernels_array() -> None:
    constants = {n: v for n, v in vars(decl).items() if n.startswith("R_") and n != "R_STRENGTH"}
    assert sorted(constants.values()) == list(range(len(KERNEL_OPTIONS)))
    assert RULES_ARRAY_SIZE == R_STRENGTH + 9
    for rules in [*PRESETS.values(), parse_rules("datou+lion_jump=none+no_capture_plies=7")]:
        a = rules.as_array()
        for o in KERNEL_OPTIONS:
            assert a[slot(o.name)] == o.code(getattr(rules, o.name)), o.name
    for o in OPTIONS:
        if not o.kernel:  # how a finished game scores: the kernels never read it
            with pytest.raises(ValueError):
                slot(o.name)


def test_tables_fix_the_history_options() -> None:
    from sim.tablebase.store import table_ruleset

    rules = table_ruleset("yeshou+no_capture_plies=40")
    for o in OPTIONS:
        expected = (
            o.table_value if o.table_value is not None else getattr(PRESETS["yeshou"], o.name)
        )
        assert getattr(rules, o.name) == expected, o.name


def test_docs_table_is_the_rendered_declaration(capsys) -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert markdown_table() in page, "docs/rules.md: paste the output of dsq rules --markdown"
    assert dsq(["rules", "--markdown"]) == 0
    assert capsys.readouterr().out.strip() == markdown_table()


def test_dsq_rules_lists_every_declared_option(capsys) -> None:
    assert dsq(["rules", "--json"]) == 0
    listed = {o["name"]: o for o in json.loads(capsys.readouterr().out)["options"]}
    assert list(listed) == [o.name for o in OPTIONS]
    for o in OPTIONS:
        assert listed[o.name]["clause"] == o.clause
        for value in o.values:
            assert listed[o.name]["values"][value] == o.meanings[value]


def _engine_lines() -> list[str]:
    return [
        line
        for path in sorted((ROOT / "engine").glob("*.py"))
        if path.name != "ruleset_options.py"
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def test_each_option_is_read_on_a_line_labelled_with_its_clause() -> None:
    """The kernels name the docs/rules.md clause an option changes (``# Captures 2: ...``)
    on a line that reads it (its slot constant) or names it."""
    constant = {v: n for n, v in vars(decl).items() if n.startswith("R_") and n != "R_STRENGTH"}
    lines = _engine_lines()
    for o in OPTIONS:
        label = re.compile(rf"#\s{re.escape(o.clause)}(:|$)")
        words = [re.escape(o.name)] + ([constant[slot(o.name)]] if o.kernel else [])
        named = re.compile(rf"\b({'|'.join(words)})\b")
        assert any(label.search(line) and named.search(line) for line in lines), o.name


def test_each_clause_of_an_option_is_in_the_docs() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (\w[\w -]*)\n(.*?)(?=^## )", page, re.M | re.S))
    for o in OPTIONS:
        head, _, number = o.clause.partition(" ")
        if number.isdigit():  # "Captures 1": item 1 of the Captures section names the option
            section = next(body for title, body in sections.items() if title.startswith(head))
            items = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |^\n|\Z)", section, re.M | re.S)
            text = next(body for n, body in items if n == number)
            assert f"`{o.name}" in text, o.clause
        else:  # "Pieces", "7-3 rule": the section or heading exists and names the option
            assert head in page and f"`{o.name}`" in page


def test_no_other_module_lists_the_options() -> None:
    """Outside the declaration, code names at most a couple of options as strings (a page
    that picks out the anti-chasing rules); none spells out the list."""
    names = {o.name for o in OPTIONS}
    crowded = {}
    for pkg in ("engine", "sim", "dashboard"):
        for path in (ROOT / pkg).rglob("*.py"):
            if path.name == "ruleset_options.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found = {
                n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in names
            }
            if len(found) > 2:
                crowded[str(path.relative_to(ROOT))] = sorted(found)
    assert not crowded, crowded


def test_capture_clause_titles_are_the_docs_headings() -> None:
    from engine.moves import CAPTURE_CLAUSES

    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    captures = page.split("## Captures", 1)[1].split("\n## ", 1)[0]
    headings = re.findall(r"^\d+\. \*\*(.+?)\.\*\*", captures, re.M)
    assert [h.lower() for h in headings] == list(CAPTURE_CLAUSES)
