"""The Dou Shou Qi rules engine of RULES.md: pure computation, compiled with numba."""

from engine.board import square_index, square_name
from engine.errors import DsqError, FenError, MoveError, RulesError
from engine.fen import START_FEN
from engine.position import Position, Result, decode_move, encode_move
from engine.rules import PRESETS, Ruleset, parse_rules

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "START_FEN",
    "DsqError",
    "FenError",
    "MoveError",
    "Position",
    "Result",
    "Ruleset",
    "RulesError",
    "decode_move",
    "encode_move",
    "parse_rules",
    "square_index",
    "square_name",
]
