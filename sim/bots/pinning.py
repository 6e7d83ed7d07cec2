"""Pinned bots: the specs a batch records name their evaluation by its content.

:func:`pin_bot` turns a spec's ``eval=auto`` or ``eval=NAME`` into ``eval=NAME@HEX`` under a
rule set (HEX: :func:`sim.bots.evalfile.eval_digest`), so that a recorded spec still names
the bot that played once a shipped evaluation is replaced; ``auto`` pins the nearest
preset's shipped evaluation (``classic`` where none is shipped). A spec stored with
``eval=auto`` before batches were pinned keeps meaning whatever is shipped.

A spec written without a pin names the pinned specs it would have become as well
(:func:`recorded_pattern`, read by the statistics' bot filters).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from engine.errors import DsqError
from engine.rules import parse_rules
from sim.bots.evalfile import (
    PINNED_DIR,
    SHIPPED,
    SUFFIX,
    eval_digest,
    evals_dir,
    is_shipped,
    nearest_preset,
    resolve,
)
from sim.bots.params import AUTO, CLASSIC, PIN_DIGITS, split_pin
from sim.bots.spec import HUMAN, BotSpec, parse_bot

__all__ = [
    "check_evaluations",
    "names_recorded",
    "pin_bot",
    "pinned_differences",
    "recorded_pattern",
    "shipped_names",
]


def _folder(data_dir: Path | None) -> Path | None:
    return evals_dir(data_dir) if data_dir is not None else None


def pin_bot(spec_text: str, rules_spec: str, data_dir: Path | None = None) -> str:
    """The canonical spec of ``spec_text`` with its evaluation pinned under ``rules_spec``:
    ``auto`` and the shipped evaluations always, those of ``data_dir``'s ``evals/`` when it
    is given (else they stay as written); a pinned spec is checked and kept. Specs without
    an evaluation (random, greedy, engines, human) and the classic one's are unchanged.
    EvalError when the evaluation is missing, fits other moves or is not available."""
    text = spec_text.strip()
    if text == HUMAN:
        return text
    spec = parse_bot(text)
    choice = spec.params.get("eval")
    if choice is None or choice == CLASSIC:
        return spec.canonical
    if choice != AUTO and data_dir is None and not is_shipped(split_pin(str(choice))[0]):
        return spec.canonical  # a data folder's evaluation: only its folder can pin it
    ef = resolve(str(choice), parse_rules(rules_spec), _folder(data_dir))
    pinned = CLASSIC if ef is None else f"{ef.name}@{eval_digest(ef)}"
    return BotSpec(spec.name, {**spec.params, "eval": pinned}).canonical


def pinned_differences(
    recorded_spec: str, rules_spec: str, data_dir: Path | None = None
) -> str | None:
    """What has changed for a recorded pinned spec: a line saying that its unpinned form
    (``auto`` for the nearest preset's shipped evaluation, else its name) pins another
    evaluation today, or is not available; None when it pins the same one, or when the
    spec pins nothing (or a data folder's evaluation and ``data_dir`` is not given)."""
    if recorded_spec.strip() == HUMAN:
        return None
    spec = parse_bot(recorded_spec)
    name, pin = split_pin(str(spec.params.get("eval", CLASSIC)))
    if pin is None or (data_dir is None and not is_shipped(name)):
        return None
    rules = parse_rules(rules_spec)
    unpinned = AUTO if name == nearest_preset(rules) and is_shipped(name) else name
    try:
        today = pin_bot(BotSpec(spec.name, {**spec.params, "eval": unpinned}).canonical,
                        rules.spec, data_dir)  # fmt: skip
    except DsqError as exc:
        return f"eval={unpinned} pins no evaluation today: {exc}"
    now = str(parse_bot(today).params.get("eval", CLASSIC))
    if now == f"{name}@{pin}":
        return None
    return f"eval={unpinned} pinned {name}@{pin} and pins {now} today"


def check_evaluations(bots: tuple[str, ...], rules: str, data_dir: Path) -> None:
    """EvalError when a bot spec of ``bots`` names an evaluation that ``data_dir`` lacks or
    that was fitted for rules whose moves differ from ``rules`` (checked before a batch)."""
    ruleset = parse_rules(rules)
    for text in bots:
        if text.startswith("engine:") or text == HUMAN:
            continue
        choice = parse_bot(text).params.get("eval")
        if choice is not None:
            resolve(str(choice), ruleset, evals_dir(data_dir))


def shipped_names() -> tuple[str, ...]:
    """The names of the shipped evaluations, today's and those kept after a replacement."""
    names = {p.name[: -len(SUFFIX)] for p in SHIPPED.glob(f"*{SUFFIX}")}
    names |= {split_pin(p.name[: -len(SUFFIX)])[0] for p in (SHIPPED / PINNED_DIR).glob("*@*")}
    return tuple(sorted(names))


_MARK = "PINNEDEVALUATION"  # upper case: never in a canonical spec with an evaluation
_HEX = f"@[0-9a-f]{{{PIN_DIGITS}}}"


@lru_cache(maxsize=1024)
def recorded_pattern(written: str) -> str | None:
    """A regular expression (for Python's ``re`` and DuckDB's ``regexp_full_match``) of the
    recorded specs the canonical spec ``written`` names, or None when it names only itself:
    with ``eval=auto`` it also names the same bot with a shipped evaluation pinned, with
    ``eval=NAME`` the same bot with NAME pinned (the specs batches record)."""
    try:
        spec = parse_bot(written)
    except DsqError:
        return None
    choice = spec.params.get("eval")
    if choice is None or choice == CLASSIC or split_pin(str(choice))[1] is not None:
        return None
    names: Iterable[str] = shipped_names() if choice == AUTO else (str(choice),)
    pinned = "|".join(re.escape(n) for n in names)
    evals = f"(?:{re.escape(str(choice))}|(?:{pinned}){_HEX})"
    text = BotSpec(spec.name, {**spec.params, "eval": _MARK}).canonical
    return re.escape(text).replace(_MARK, evals, 1)


def names_recorded(written: str, recorded: str) -> bool:
    """Whether the canonical spec ``written`` names the recorded spec ``recorded`` (the
    same text, or its pinned form: see :func:`recorded_pattern`)."""
    if written == recorded:
        return True
    pattern = recorded_pattern(written)
    return pattern is not None and re.fullmatch(pattern, recorded) is not None
