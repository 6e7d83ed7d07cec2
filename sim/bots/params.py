"""Bot parameters: their kinds (whole number, number, choice, animal values), defaults,
limits and meanings, parsed from and formatted to spec text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import DsqError

DEFAULT_VALUES = (450, 200, 300, 350, 500, 800, 900, 1000)


class BotSpecError(DsqError):
    """An unknown bot, parameter or parameter value."""


@dataclass(frozen=True)
class Param:
    """One bot parameter: its kind (int, float, choice, values), default, limits, meaning.

    ``listed``: whether the canonical spec always names the parameter. A parameter added to
    a bot kind after games were first stored is named only when it differs from its
    default, so the specs stored before it still name the same bot.
    """

    name: str
    kind: str  # "int", "float", "choice" or "values"
    default: Any
    help: str
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    listed: bool = True

    def allowed(self) -> str:
        """A short description of the values this parameter takes."""
        if self.kind == "int":
            return f"a whole number from {int(self.low)} to {int(self.high)}"
        if self.kind == "float":
            return f"a number from {self.low:g} to {self.high:g}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        return (
            "8 whole numbers 0..100000 separated by '/' "
            "(rat/cat/dog/wolf/leopard/tiger/lion/elephant)"
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
        parts = text.split("/")
        if len(parts) != 8:
            raise bad
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise bad from None
        if any(not 0 <= v <= 100000 for v in values):
            raise bad
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
    "animal values for the evaluation",
)
