"""A study report's names and sentences in the page's language: pairings, conditions, the
effects' sentences, the findings' subjects and verdicts. The figures are the report's
(:mod:`sim.study`); only the words around them are translated here."""

from __future__ import annotations

import re
from typing import Any

from dashboard.lang import nf, t
from sim.study.effects import sentence_parts
from sim.study.spec import pairing_bots

DIGITS = {"elo": 0, "plies": 0, "points": 1}
SEEDS = re.compile(r"\bseeds#(\d+)\b")  # as sim.study.spec.Cell.condition writes a seed set


def pairing_label(pairing: str) -> str:
    """A pairing as the report names it (``random``, ``random vs greedy``), its "vs" in
    this language."""
    bots = pairing_bots(pairing)
    return bots[0] if len(bots) == 1 else t("study.vs", red=bots[0], blue=bots[1])


def condition_label(c: dict[str, Any]) -> str:
    """A cell's condition as the report names it (its pairing, with its family, opening
    protocol and seed set where the study has those axes), in this language."""
    pairing = str(c["pairing"])
    words = str(c.get("condition") or pairing).replace(pairing, pairing_label(pairing), 1)
    return SEEDS.sub(lambda m: t("study.seeds", n=m.group(1)), words)


def effect_sentence(e: dict[str, Any]) -> str:
    """An effect significant after Holm's correction as a sentence: the option, what it
    does to the figure, by how much with its interval, at which pairing, and its p-value."""
    s = sentence_parts(e)
    n = nf()
    d = DIGITS[s["unit"]]
    key = f"study.effect_{s['metric']}_{'up' if s['up'] else 'down'}"
    return t(
        key,
        term=s["term"],
        size=n.num(s["size"], d),
        interval=n.interval(s["low"], s["high"], "num", d),
        pairing=pairing_label(s["pairing"]),
        p=n.p_value(e.get("p_holm")),
    )


def subject_label(x: dict[str, Any]) -> str:
    """What a finding is about: ``datou: the first-move advantage`` or ``yeshou − datou:
    game length``, in this language."""
    who = x["rules"] if x.get("against") is None else f"{x['rules']} − {x['against']}"
    return t("study.subject", who=who, what=t(f"study.what_{x['metric']}"))


def verdict_label(verdict: str, axes: list[str] | str) -> str:
    """``robust``, ``depends on: level, openings`` or ``not established``."""
    names = axes.split(", ") if isinstance(axes, str) else axes
    words = t("compare.list_separator").join(t(f"study.axis_{a}") for a in names if a)
    head = t(f"studies.verdict_{verdict.replace(' ', '_')}")
    return f"{head}: {words}" if words else head


def unit_label(unit: str) -> str:
    """A finding's unit (Elo, percentage points, plies) in this language."""
    return t(f"study.unit_{unit.lower()}")
