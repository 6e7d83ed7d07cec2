"""``dsq rules``: the presets and options, one rule set explained, or two compared."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Callable
from typing import Any

from engine.errors import DsqError
from sim.report.tables import aligned_table


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``rules`` command."""
    # lazy: start-up time (numpy and the rules, only when the parser is built)
    from engine.options import options_help

    p = sub.add_parser(
        "rules",
        help="presets and options; explain a rules spec, or compare two",
        description="Without a spec: every preset and option with its meaning. With one spec: "
        "its canonical form and each option in words, marking those that differ from "
        "'standard'. With two specs: what differs between them. A spec is a preset with "
        "options, e.g. yeshou+tiger_jump=horizontal (see docs/rules.md). "
        f"{options_help()}.",
    )
    p.add_argument("specs", nargs="*", metavar="SPEC", help="zero, one or two rules specs")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--markdown",
        action="store_true",
        help="print the options table of docs/rules.md (each preset's values)",
    )
    p.set_defaults(func=run)


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, 88, initial_indent=indent, subsequent_indent=indent)


def catalogue_text(cat: dict[str, Any]) -> str:
    """Every preset and option, readable."""
    out = ["presets:"]
    for p in cat["presets"]:
        out.append(f"  {p['name']}")
        out.extend(_wrap(p["source"], "      "))
    out += ["", "options (write PRESET+option or PRESET+option=value):"]
    for o in cat["options"]:
        out.append(f"  {o['name']}  ({o['clause']}: {o['about']})")
        for value, meaning in o["values"].items():
            out.extend(_wrap(f"{value}: {meaning}", "      "))
    out += ["", "e.g. dsq rules yeshou; dsq rules datou standard+tiger_jump=horizontal"]
    return "\n".join(out)


def explain_text(ex: dict[str, Any]) -> str:
    """One rule set in words."""
    rows = [
        [
            ("* " if r["differs"] else "  ") + r["option"],
            r["value"],
            r["clause"],
            r["meaning"],
        ]
        for r in ex["options"]
    ]
    out = [
        f"{ex['spec']}  (closest preset: {ex['preset']}, {ex['preset_source']})",
        "",
        aligned_table(["option", "value", "clause", "meaning"], rows, right=set()),
    ]
    if any(r["differs"] for r in ex["options"]):  # the legend only where a row is starred
        out += ["", "* differs from standard"]
    return "\n".join(out)


def differences_text(diff: dict[str, Any]) -> str:
    """What differs between two rule sets."""
    if diff["same"]:
        return f"{diff['a']} and {diff['b']} are the same rules"
    rows = [[d["option"], d["clause"], d["a"], d["b"]] for d in diff["differences"]]
    out = [
        f"{diff['a']} vs {diff['b']}: {len(rows)} option(s) differ",
        "",
        aligned_table(["option", "clause", diff["a"], diff["b"]], rows, right=set()),
        "",
    ]
    for d in diff["differences"]:
        out.append(f"{d['option']}:")
        out.extend(_wrap(f"{diff['a']}: {d['a_meaning']}", "    "))
        out.extend(_wrap(f"{diff['b']}: {d['b_meaning']}", "    "))
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq rules``."""
    # lazy: start-up time (numpy and the rules)
    from engine.options import catalogue, differences, explain, markdown_table

    if args.markdown:
        if args.specs or args.json:
            raise DsqError("--markdown takes no spec and no --json")
        print(markdown_table())
        return 0
    if len(args.specs) > 2:
        raise DsqError("give at most two rules specs (one to explain, two to compare)")
    text: Callable[[dict[str, Any]], str]
    if not args.specs:
        obj, text = catalogue(), catalogue_text
    elif len(args.specs) == 1:
        obj, text = explain(args.specs[0]), explain_text
    else:
        obj, text = differences(*args.specs), differences_text
    print(json.dumps(obj) if args.json else text(obj))
    return 0
