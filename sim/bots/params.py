"""Bot parameters: their kinds (whole number, number, choice, animal values), defaults,
limits and meanings, parsed from and formatted to spec text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import DsqError
from sim.bots.evalbound import CLASSIC_POSITIONAL, MAX_EVAL, classic_reach

DEFAULT_VALUES = (450, 200, 300, 350, 500, 800, 900, 1000)
EVAL_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
"""The names of evaluations: lowercase letters, digits, ``_`` and ``-``, at most 40."""
AUTO, CLASSIC = "auto", "classic"
PIN_DIGITS = 12
PINNED_EVAL = re.compile(rf"({EVAL_NAME.pattern})@([0-9a-f]{{{PIN_DIGITS}}})")
"""A pinned evaluation, ``NAME@HEX``: the evaluation NAME whose content has that digest
(the first 12 hex digits of its SHA-256, see :func:`sim.bots.evalfile.eval_digest`)."""


def split_pin(choice: str) -> tuple[str, str | None]:
    """The name and the pin (None: not pinned) of a spec's ``eval`` value."""
    m = PINNED_EVAL.fullmatch(choice)
    return (m.group(1), m.group(2)) if m else (choice, None)


def classic(values: Mapping[str, Any]) -> bool:
    """Whether a spec's ``values`` name the classic (hand-written) evaluation, as every
    spec did before evaluations could be chosen."""
    return values.get("eval", CLASSIC) == CLASSIC


class BotSpecError(DsqError):
    """An unknown bot, parameter or parameter value."""


@dataclass(frozen=True)
class Param:
    """One bot parameter: its kind (int, float, choice, values), default, limits, meaning.

    ``listed``: whether the canonical spec always names the parameter. A parameter added to
    a bot kind after games were first stored is named only when it differs from its
    default, so the specs stored before it still name the same bot.

    ``legacy``: for a parameter added with the choice of evaluation, the value it takes in
    a spec of the classic evaluation (:func:`classic`) that does not give it: the behaviour
    of the bot before the parameter existed (None: the default, as for any other).
    """

    name: str
    kind: str  # "int", "float", "choice" or "values"
    default: Any
    help: str
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    listed: bool = True
    legacy: Any = None

    def reference(self, values: Mapping[str, Any]) -> Any:
        """The value a spec with these ``values`` takes when it does not name the parameter."""
        if self.legacy is not None and classic(values):
            return self.legacy
        return self.default

    def allowed(self) -> str:
        """A short description of the values this parameter takes."""
        if self.kind == "int":
            return f"a whole number from {int(self.low)} to {int(self.high)}"
        if self.kind == "float":
            return f"a number from {self.low:g} to {self.high:g}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "eval":
            return (
                "auto (the rule set's tuned evaluation), classic (the hand-written one) or the "
                "name of an evaluation in the data folder's evals/ (made by dsq tune), "
                f"optionally pinned to its content as NAME@HEX ({PIN_DIGITS} hex digits)"
            )
        return (
            "8 whole numbers from 0 separated by '/' "
            "(rat/cat/dog/wolf/leopard/tiger/lion/elephant) whose sum plus three quarters of "
            f"the largest is at most {MAX_EVAL - 8 * CLASSIC_POSITIONAL:,}"
        )

    def parse(self, bot: str, text: str) -> Any:
        """The value of ``text`` for this parameter; BotSpecError when it is not allowed."""
        text = text.strip()
        bad = BotSpecError(f"bot {bot}: {self.name} takes {self.allowed()}, not {text!r}")
        if self.kind == "int":
            try:
                value: Any = int(text)
            except ValueError:
                raise bad from None
            if not self.low <= value <= self.high:
                raise bad
            return value
        if self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                raise bad from None
            if not self.low <= value <= self.high:  # also refuses nan
                raise bad
            return value
        if self.kind == "choice":
            if text.lower() not in self.choices:
                raise bad
            return text.lower()
        if self.kind == "eval":
            low = text.lower()
            pinned = PINNED_EVAL.fullmatch(low)
            if pinned and pinned.group(1) not in (AUTO, CLASSIC):
                return low
            if not EVAL_NAME.fullmatch(low):
                raise bad
            return low
        parts = text.split("/")
        if len(parts) != 8:
            raise bad
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise bad from None
        if any(not 0 <= v <= 100000 for v in values):
            raise bad
        if classic_reach(values) > MAX_EVAL:
            raise BotSpecError(
                f"bot {bot}: {self.name} {text!r} could score {classic_reach(values):,}, beyond "
                f"the {MAX_EVAL:,} an evaluation may reach (the search's mate scores are "
                f"above): their sum plus three quarters of the largest must be at most "
                f"{MAX_EVAL - 8 * CLASSIC_POSITIONAL:,}"
            )
        return values

    def format(self, value: Any) -> str:
        """The canonical text of ``value``."""
        if self.kind == "float":
            return repr(float(value))
        if self.kind == "values":
            return "/".join(str(int(v)) for v in value)
        return str(value)


VALUES = Param(
    "values",
    "values",
    DEFAULT_VALUES,
    "animal values of the classic evaluation (eval=classic)",
)
EVAL = Param(
    "eval",
    "eval",
    AUTO,
    "the evaluation: auto (the rule set's tuned one, else its nearest preset's), classic "
    "(the hand-written one: a spec that gives values and no eval means it too), or a name "
    "from dsq tune; NAME@HEX pins the evaluation NAME with that content (a batch records "
    "its bots so)",
)


def listed(param: Param, values: Mapping[str, Any]) -> bool:
    """Whether the canonical spec names ``param``: the values of the classic evaluation
    always (as every spec did), the evaluation when it is not the classic one, a
    parameter with a ``legacy`` value when it differs from the value the spec would take
    without it, any other as its ``listed`` says or when it differs from its default."""
    value = values[param.name]
    if param is VALUES:
        return classic(values) or value != param.default
    if param is EVAL:
        return not classic(values)
    if param.legacy is not None:
        return value != param.reference(values)
    return param.listed or value != param.default


def fill_eval(values: dict[str, Any], given: frozenset[str]) -> None:
    """Complete the evaluation of a spec (a :data:`sim.bots.bot_kind.Fill` rule): a spec
    that gives the animal values and no evaluation is of the classic evaluation, as every
    spec was before there was a choice (the parser then gives the parameters with a
    ``legacy`` value that the spec does not name that value). Custom values with another
    evaluation are refused."""
    if "eval" not in given and "values" in given:
        values["eval"] = CLASSIC
    if not classic(values) and values["values"] != DEFAULT_VALUES:
        raise BotSpecError(
            f"values are the animal values of the classic evaluation, not of eval={values['eval']}"
            ": drop them, or add eval=classic"
        )
