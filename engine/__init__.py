"""The Dou Shou Qi rules engine of docs/rules.md: pure computation, compiled with numba.

Names are loaded on first use, so importing ``engine.errors`` or ``engine.rules`` (as the
statistics and the CLI do) does not pay for numba's start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The project's version, recorded with every game as ``engine_version`` (pyproject.toml reads
# it from here): raise it with every change of the game schema or of the rules, and say what
# changed in docs/changelog.md.
__version__ = "0.7.0"

_EXPORTS = {
    "square_index": "engine.board",
    "square_name": "engine.board",
    "DsqError": "engine.errors",
    "FenError": "engine.errors",
    "MoveError": "engine.errors",
    "RulesError": "engine.errors",
    "START_FEN": "engine.fen",
    "Position": "engine.position",
    "Result": "engine.position",
    "decode_move": "engine.position",
    "encode_move": "engine.position",
    "PRESETS": "engine.rules",
    "Ruleset": "engine.rules",
    "parse_rules": "engine.rules",
}

__all__ = [
    "DsqError",
    "FenError",
    "MoveError",
    "PRESETS",
    "Position",
    "Result",
    "RulesError",
    "Ruleset",
    "START_FEN",
    "decode_move",
    "encode_move",
    "parse_rules",
    "square_index",
    "square_name",
]

if TYPE_CHECKING:
    from engine.board import square_index, square_name
    from engine.errors import DsqError, FenError, MoveError, RulesError
    from engine.fen import START_FEN
    from engine.position import Position, Result, decode_move, encode_move
    from engine.rules import PRESETS, Ruleset, parse_rules


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
