"""The animal values the bots' evaluations read, adjusted to a rule set."""

from __future__ import annotations

import numpy as np

from engine.rules import Ruleset
from sim.bots.params import DEFAULT_VALUES


def values_array(
    values: tuple[int, ...] = DEFAULT_VALUES, rules: Ruleset | None = None
) -> np.ndarray:
    """Animal values rat..elephant as the int64 array the kernels read (index animal - 1).

    ``values`` are given by default strength (dog 3, wolf 4); under ``dog_over_wolf`` the
    dog's and the wolf's values are exchanged, so the stronger animal keeps the higher value.
    """
    out = np.asarray(values, dtype=np.int64).copy()
    if rules is not None and rules.dog_over_wolf:
        out[2], out[3] = out[3], out[2]
    return out
