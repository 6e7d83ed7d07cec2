"""Rule sets: the options of docs/rules.md, the three presets, spec parsing and canonical specs.

A spec is a preset name followed by ``+option`` or ``+option=value`` parts, e.g.
``yeshou+tiger_jump=horizontal+no_capture_plies=100``. A bare boolean option means true;
``=false`` turns one off. The canonical spec names the preset closest to the rule set
and then the options that differ from it, in the fixed option order.

The options (their kinds, values, presets and kernel slots) are declared once, in
:mod:`engine.ruleset_options`; this module's checks, parser and array derive from it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.codes import DOG, JUMP_BLOCK_VALUES, JUMP_VALUES, WOLF, Animal
from engine.errors import RulesError, did_you_mean
from engine.ruleset_options import (
    KERNEL_OPTIONS,
    MAX_NO_CAPTURE_PLIES,
    OPTION_BY_NAME,
    OPTION_NAMES,
    OPTIONS,
    PRESET_NAMES,
    R_DOG_OVER_WOLF,
    R_ELEPHANT_RAT,
    R_JUMP_BLOCK,
    R_LION_JUMP,
    R_NO_CAPTURE,
    R_RAT_CROSS,
    R_RULE_7_3,
    R_RULE_17_5,
    R_STRENGTH,
    R_TIGER_JUMP,
    R_TRAPPED_CAPTURE,
    RULES_ARRAY_SIZE,
    Option,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "JUMP_BLOCK_VALUES",
    "JUMP_VALUES",
    "MAX_NO_CAPTURE_PLIES",
    "OPTION_NAMES",
    "PRESETS",
    "RULES_ARRAY_SIZE",
    "R_DOG_OVER_WOLF",
    "R_ELEPHANT_RAT",
    "R_JUMP_BLOCK",
    "R_LION_JUMP",
    "R_NO_CAPTURE",
    "R_RAT_CROSS",
    "R_RULE_7_3",
    "R_RULE_17_5",
    "R_STRENGTH",
    "R_TIGER_JUMP",
    "R_TRAPPED_CAPTURE",
    "Ruleset",
    "parse_rules",
]


@dataclass(frozen=True)
class Ruleset:
    """One edition's rules: every option of :data:`engine.ruleset_options.OPTIONS`, in
    order, each defaulting to its ``standard`` value (a test checks the fields agree)."""

    dog_over_wolf: bool = False
    jump_block: str = "any"
    lion_jump: str = "both"
    tiger_jump: str = "both"
    rat_cross_capture: bool = False
    elephant_captures_rat: bool = False
    trapped_can_capture: bool = False
    rule_7_3: bool = False
    rule_17_5: bool = False
    no_capture_plies: int = 200
    move_time: int = 0
    time_strikes: int = 1
    game_time: int = 0
    draw_by_agreement: bool = False
    void_rounds: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_value(OPTION_BY_NAME[f.name], getattr(self, f.name))

    @cached_property
    def spec(self) -> str:
        """The canonical spec: the closest preset, then the options that differ, in order."""
        best_name, best_diff = "", None
        for name, preset in PRESETS.items():
            diff = [n for n in OPTION_NAMES if getattr(self, n) != getattr(preset, n)]
            if best_diff is None or len(diff) < len(best_diff):
                best_name, best_diff = name, diff
        parts = [best_name]
        for name in best_diff or []:
            value = getattr(self, name)
            if isinstance(value, bool):
                parts.append(name if value else f"{name}=false")
            else:
                parts.append(f"{name}={value}")
        return "+".join(parts)

    def __str__(self) -> str:
        return self.spec

    def scores(self, plies: int) -> bool:
        """Whether a game that ended after ``plies`` plies scores (a win, a loss or a
        draw) rather than being void; the statistics' SQL (``sim.stats.query``) mirrors it."""
        # Scoring 1: with void_rounds = N > 0 a game ending in round N or earlier (a round is
        # two plies from the game's first, whichever side moved first) scores nothing
        return self.void_rounds == 0 or plies > 2 * self.void_rounds

    def as_array(self) -> np.ndarray:
        """The int32 array the compiled kernels read (``R_*`` of
        :mod:`engine.ruleset_options`: each option's slot, then the animals' strengths)."""
        # lazy: start-up time (numpy: `dsq rules`, `dsq bots` and `--help` read rules only)
        import numpy as np

        a = np.zeros(RULES_ARRAY_SIZE, dtype=np.int32)
        for i, option in enumerate(KERNEL_OPTIONS):
            a[i] = option.code(getattr(self, option.name))
        for animal in Animal:
            a[R_STRENGTH + animal] = animal  # the default strength is the animal's code
        if self.dog_over_wolf:  # Pieces: dog_over_wolf
            # the dog and the wolf exchange strengths: dog 4, wolf 3
            a[R_STRENGTH + DOG], a[R_STRENGTH + WOLF] = a[R_STRENGTH + WOLF], a[R_STRENGTH + DOG]
        return a


def _check_value(option: Option, value: object) -> None:
    name = option.name
    if option.kind is bool:
        if not isinstance(value, bool):
            raise RulesError(f"option {name} takes true or false, not {value!r}")
    elif option.kind is str:
        if value not in option.choices:
            allowed = ", ".join(option.choices)
            raise RulesError(f"option {name} takes one of {allowed}, not {value!r}")
    else:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"option {name} takes a whole number, not {value!r}")
        if not option.low <= value <= option.high:
            raise RulesError(
                f"option {name} takes {option.low} ({option.low_means}) to {option.high},"
                f" not {value}"
            )


def _preset(preset: str) -> Ruleset:
    values: dict[str, Any] = {o.name: o.presets[preset] for o in OPTIONS}
    return Ruleset(**values)


PRESETS: dict[str, Ruleset] = {preset: _preset(preset) for preset in PRESET_NAMES}


TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def _parse_option(part: str) -> tuple[str, object]:
    """``name`` or ``name=value`` of a spec: names and words matched whatever their case,
    as the preset names are."""
    name, sep, text = part.partition("=")
    name = name.strip().lower()
    text = text.strip()
    option = OPTION_BY_NAME.get(name)
    if option is None:
        raise RulesError(
            f"unknown rules option {part.partition('=')[0].strip()!r};"
            f" options are: {', '.join(OPTION_NAMES)}{did_you_mean(name, OPTION_NAMES)}"
        )
    if option.kind is bool:
        if not sep:
            return name, True
        low = text.lower()
        if low in TRUE_WORDS:
            return name, True
        if low in FALSE_WORDS:
            return name, False
        raise RulesError(
            f"option {name} takes {'/'.join(TRUE_WORDS)} or {'/'.join(FALSE_WORDS)}, not {text!r}"
        )
    if not sep or not text:
        what = "|".join(option.choices) if option.kind is str else "N"
        raise RulesError(f"option {name} needs a value: {name}={what}")
    if option.kind is int:
        try:
            return name, int(text)
        except ValueError:
            raise RulesError(f"option {name} takes a whole number, not {text!r}") from None
    return name, text.lower() if text.lower() in option.choices else text


def parse_rules(spec: str | Ruleset | None) -> Ruleset:
    """Parse a rules spec such as ``datou`` or ``standard+dog_over_wolf+no_capture_plies=100``.

    Raises RulesError, listing what is allowed, for an unknown preset, option or value.
    """
    if isinstance(spec, Ruleset):
        return spec
    if spec is None:
        return PRESETS["standard"]
    parts = [p.strip() for p in str(spec).strip().split("+")]
    if not parts[0]:
        raise RulesError(f"empty rules spec; start with a preset: {', '.join(PRESETS)}")
    preset_name = parts[0].lower()
    if preset_name not in PRESETS:
        raise RulesError(
            f"unknown rules preset {parts[0]!r}; presets are: {', '.join(PRESETS)}"
            f"{did_you_mean(preset_name, PRESETS)}"
        )
    changes: dict[str, Any] = {}
    for part in parts[1:]:
        if not part:
            raise RulesError(f"empty option in rules spec {spec!r}")
        name, value = _parse_option(part)
        changes[name] = value
    return replace(PRESETS[preset_name], **changes)


def canonical_rules(spec: str) -> str:
    """The canonical form of a rules spec: the one recorded and compared (``RulesError`` for
    an unknown preset or option)."""
    return parse_rules(spec).spec
