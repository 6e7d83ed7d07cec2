"""Compile (or load from numba's cache) every engine kernel once."""

from __future__ import annotations

import numpy as np

from engine.fen import parse_fen
from engine.playout import random_games
from engine.position import Position
from engine.rng import seed_state
from engine.rules import PRESETS


def warm_up() -> None:
    """Run each kernel on a tiny input so later calls run compiled code."""
    for rules in PRESETS.values():
        pos = Position(rules)
        pos.perft(2)
        pos.divide(1)
        pos.legal_moves()
        ra = rules.as_array()
        out = np.zeros(5, dtype=np.int64)
        random_games(parse_fen("start", ra, 64), ra, seed_state(0), 1, 60, out)
