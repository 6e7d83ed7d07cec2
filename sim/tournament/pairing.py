"""Who meets whom: every pair (round robin), the first player against each other
(gauntlet), and the Swiss rule (docs/tournaments.md).

Swiss, for round ``k`` given the results of the rounds before it:

1. Standing: players sorted by points (most first), ties by their order on the command
   line.
2. Bye (an odd number of players): the lowest-standing player who has had no bye yet and
   whose absence leaves the others pairable without rematches (if none, the
   lowest-standing player without a bye). A bye scores the pairing's full points.
3. The first round folds the standing (1 v m/2+1, 2 v m/2+2, ...: top half against bottom
   half); later rounds pair neighbours (the highest unpaired player against the next one).
   Each choice is the first in that order that meets no earlier opponent and leaves the
   rest pairable without rematches (a search with backtracking); when no pairing avoids
   every rematch, the same order is used allowing rematches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The most steps the rematch-free search takes before allowing rematches.
SEARCH_STEPS = 200_000


@dataclass(frozen=True)
class Round:
    """One round's pairings (player indices, the first named plays red in the first
    game) and the player with a bye (None: none)."""

    pairings: tuple[tuple[int, int], ...]
    bye: int | None = None

    def to_dict(self) -> dict[str, object]:
        """As stored in the tournament file."""
        return {"pairings": [list(p) for p in self.pairings], "bye": self.bye}


def round_robin(n: int) -> Round:
    """Every pair of ``n`` players once."""
    return Round(tuple((i, j) for i in range(n) for j in range(i + 1, n)))


def gauntlet(n: int) -> Round:
    """Player 0 against each of the others."""
    return Round(tuple((0, j) for j in range(1, n)))


def standing(points: Sequence[float]) -> list[int]:
    """Players by points, most first; ties by their index."""
    return sorted(range(len(points)), key=lambda p: (-points[p], p))


def _candidates(rest: list[int], fold: bool) -> list[int]:
    """The order in which ``rest[0]`` tries its opponents (positions in ``rest``)."""
    m = len(rest)
    if fold:
        half = m // 2
        return [*range(half, m), *range(half - 1, 0, -1)]
    return list(range(1, m))


class _Search:
    def __init__(self, met: set[frozenset[int]], fold: bool, rematches: bool) -> None:
        self.met, self.fold, self.rematches = met, fold, rematches
        self.steps = 0

    def pair(self, rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        for c in _candidates(rest, self.fold):
            self.steps += 1
            if self.steps > SEARCH_STEPS:
                return None
            a, b = rest[0], rest[c]
            if not self.rematches and frozenset((a, b)) in self.met:
                continue
            tail = self.pair([p for k, p in enumerate(rest) if k not in (0, c)])
            if tail is not None:
                return [(a, b), *tail]
        return None


def _pair(ranked: list[int], met: set[frozenset[int]], fold: bool) -> list[tuple[int, int]]:
    found = _Search(met, fold, rematches=False).pair(ranked)
    if found is None:
        found = _Search(met, fold, rematches=True).pair(ranked)
    assert found is not None  # with rematches allowed the first candidate always works
    return found


def swiss(
    k: int,
    points: Sequence[float],
    met: set[frozenset[int]],
    byes: set[int],
) -> Round:
    """Round ``k`` (0-based) of a Swiss: ``points`` of each player after the rounds
    before, ``met`` the pairs that played, ``byes`` the players who had a bye."""
    ranked = standing(points)
    bye = None
    if len(ranked) % 2:
        free = [p for p in reversed(ranked) if p not in byes] or list(reversed(ranked))
        bye = free[0]
        for p in free:
            if _Search(met, k == 0, rematches=False).pair([q for q in ranked if q != p]):
                bye = p
                break
        ranked = [p for p in ranked if p != bye]
    pairs = _pair(ranked, met, fold=k == 0)
    # Colours of the first game alternate along the boards; each pair is colour-swapped.
    ordered = tuple((a, b) if n % 2 == 0 else (b, a) for n, (a, b) in enumerate(pairs))
    return Round(ordered, bye)
