"""How far an evaluation may reach: every score a static evaluation can give stays within
:data:`MAX_EVAL`, below the mate range of the search
(``sim.bots.search_layout.MATE_BOUND``), so a score is never taken for a won or lost game.

The bound is checked where an evaluation's numbers are read, from the largest sum its
weights can make (each side has one piece of each animal at most): the classic
evaluation's animal values (a spec's ``values=``) and a tuned evaluation's weights (an
evaluation file). No search reads a clamped score: a valid evaluation never needs one.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_EVAL = 20_000
"""The most any evaluation may reach, in evaluation units: with the largest noise a spec
may add (1,000) it stays below the mate range (``MATE_BOUND`` = 29,000)."""

CLASSIC_POSITIONAL = 150 + 12
"""The classic evaluation's largest square bonus of one piece: advance (150, beside the
enemy den) and defence (12); a test keeps it equal to ``sim.bots.evaluate``'s tables."""


def classic_reach(values: Sequence[int]) -> int:
    """The largest score the classic evaluation can give with animal ``values`` (rat..
    elephant, each at least 0): one side's pieces all on their best squares, the other's
    gone, less or plus the danger penalty (half the second piece's value and a quarter of
    the first's: at most three quarters of the largest)."""
    return sum(values) + len(values) * CLASSIC_POSITIONAL + 3 * max(values, default=0) // 4


def tuned_reach(
    material: Sequence[int],
    squares: Sequence[Sequence[int]],
    first_danger: Sequence[int],
    second_danger: Sequence[int],
    tempo: int,
) -> int:
    """The largest score, either sign, a tuned evaluation with these weights can give: for
    each animal the largest value-plus-square of the mover's piece and the largest
    negative one of the other side's (subtracted), the move bonus and both penalties."""
    total = abs(tempo)
    total += max((abs(x) for x in first_danger), default=0)
    total += max((abs(x) for x in second_danger), default=0)
    for value, row in zip(material, squares, strict=True):
        sums = [value + s for s in row]
        total += max(0, max(sums)) + max(0, -min(sums))
    return total
