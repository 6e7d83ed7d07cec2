"""Rule sets: the options of RULES.md, the three presets, spec parsing and canonical specs.

A spec is a preset name followed by ``+option`` or ``+option=value`` parts, e.g.
``yeshou+tiger_jump=horizontal+no_capture_plies=100``. A bare boolean option means true;
``=false`` turns one off. The canonical spec names the preset closest to the rule set
and then the options that differ from it, in the fixed option order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

from engine.codes import DOG, JUMP_BLOCK_VALUES, JUMP_VALUES, WOLF, Animal, Jump, JumpBlock
from engine.errors import RulesError

# Indices of the options in the int32 array the kernels read (see ``Ruleset.as_array``).
R_DOG_OVER_WOLF = 0
R_JUMP_BLOCK = 1  # a JumpBlock code: BLOCK_ANY (any rat blocks) or BLOCK_ENEMY
R_LION_JUMP = 2  # a Jump code: JUMP_NONE, JUMP_HORIZONTAL or JUMP_BOTH
R_TIGER_JUMP = 3
R_RAT_CROSS = 4
R_RULE_7_3 = 5
R_RULE_17_5 = 6
R_NO_CAPTURE = 7
R_STRENGTH = 8  # R_STRENGTH + animal (1..8): strength of that animal
R_ELEPHANT_RAT = R_STRENGTH + 9  # elephant_captures_rat (Captures 4)
R_TRAPPED_CAPTURE = R_STRENGTH + 10  # trapped_can_capture (Captures 2)
RULES_ARRAY_SIZE = R_STRENGTH + 11


@dataclass(frozen=True)
class Ruleset:
    """One edition's rules: every option of RULES.md."""

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

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            _check_value(f.name, value)

    @cached_property
    def spec(self) -> str:
        """The canonical spec: the closest preset, then the options that differ, in order."""
        best_name, best_diff = "", None
        for name, preset in PRESETS.items():
            diff = [
                f.name for f in fields(self) if getattr(self, f.name) != getattr(preset, f.name)
            ]
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

    def as_array(self) -> np.ndarray:
        """The int32 array the compiled kernels read (indices ``R_*`` of this module)."""
        a = np.zeros(RULES_ARRAY_SIZE, dtype=np.int32)
        a[R_DOG_OVER_WOLF] = int(self.dog_over_wolf)
        a[R_JUMP_BLOCK] = JumpBlock[self.jump_block.upper()]
        a[R_LION_JUMP] = Jump[self.lion_jump.upper()]
        a[R_TIGER_JUMP] = Jump[self.tiger_jump.upper()]
        a[R_RAT_CROSS] = int(self.rat_cross_capture)
        a[R_ELEPHANT_RAT] = int(self.elephant_captures_rat)
        a[R_TRAPPED_CAPTURE] = int(self.trapped_can_capture)
        a[R_RULE_7_3] = int(self.rule_7_3)
        a[R_RULE_17_5] = int(self.rule_17_5)
        a[R_NO_CAPTURE] = self.no_capture_plies
        for animal in Animal:
            a[R_STRENGTH + animal] = animal  # the default strength is the animal's code
        if self.dog_over_wolf:
            # the dog and the wolf exchange strengths: dog 4, wolf 3
            a[R_STRENGTH + DOG], a[R_STRENGTH + WOLF] = a[R_STRENGTH + WOLF], a[R_STRENGTH + DOG]
        return a


OPTION_NAMES = tuple(f.name for f in fields(Ruleset))
_BOOL_OPTIONS = {
    "dog_over_wolf",
    "rat_cross_capture",
    "elephant_captures_rat",
    "trapped_can_capture",
    "rule_7_3",
    "rule_17_5",
}
_CHOICE_OPTIONS = {
    "jump_block": JUMP_BLOCK_VALUES,
    "lion_jump": JUMP_VALUES,
    "tiger_jump": JUMP_VALUES,
}
MAX_NO_CAPTURE_PLIES = 1_000_000


def _check_value(name: str, value: object) -> None:
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise RulesError(f"option {name} takes true or false, not {value!r}")
    elif name in _CHOICE_OPTIONS:
        if value not in _CHOICE_OPTIONS[name]:
            allowed = ", ".join(_CHOICE_OPTIONS[name])
            raise RulesError(f"option {name} takes one of {allowed}, not {value!r}")
    elif name == "no_capture_plies":
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"option no_capture_plies takes a whole number, not {value!r}")
        if not 0 <= value <= MAX_NO_CAPTURE_PLIES:
            raise RulesError(
                f"option no_capture_plies takes 0 (no draw rule) to {MAX_NO_CAPTURE_PLIES},"
                f" not {value}"
            )


PRESETS: dict[str, Ruleset] = {
    "standard": Ruleset(),
    "yeshou": Ruleset(jump_block="enemy", rat_cross_capture=True, rule_7_3=True, rule_17_5=True),
    "datou": Ruleset(tiger_jump="horizontal", rule_17_5=True),
}


def _parse_option(part: str) -> tuple[str, object]:
    name, sep, text = part.partition("=")
    name = name.strip()
    text = text.strip()
    if name not in OPTION_NAMES:
        raise RulesError(f"unknown rules option {name!r}; options are: {', '.join(OPTION_NAMES)}")
    if name in _BOOL_OPTIONS:
        if not sep:
            return name, True
        low = text.lower()
        if low in ("true", "yes", "1", "on"):
            return name, True
        if low in ("false", "no", "0", "off"):
            return name, False
        raise RulesError(f"option {name} takes true or false, not {text!r}")
    if not sep or not text:
        raise RulesError(f"option {name} needs a value: {name}=VALUE")
    if name == "no_capture_plies":
        try:
            value: object = int(text)
        except ValueError:
            raise RulesError(
                f"option no_capture_plies takes a whole number, not {text!r}"
            ) from None
        return name, value
    return name, text


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
        raise RulesError(f"unknown rules preset {parts[0]!r}; presets are: {', '.join(PRESETS)}")
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
