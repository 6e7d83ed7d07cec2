"""How many games a study cell plays: a fixed number, or rounds until the first player's
score is known to a target half-width (key ``[games]`` of a study file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.study.errors import err as _err

GAMES_KEYS = {"per_cell", "target", "cap", "step", "mixed_per_cell"}


def _int(path: str, key: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (StudyError otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _err(path, key, f"must be an integer from {low:,} to {high:,}, got {value!r}")
    return value


def _unknown(path: str, prefix: str, table: Any, allowed: set[str]) -> dict[str, Any]:
    """``table`` if it is a table whose keys are all ``allowed`` (StudyError otherwise)."""
    if not isinstance(table, dict):
        raise _err(path, prefix, "must be a table")
    for key in table:
        if key not in allowed:
            where = f"{prefix}.{key}" if prefix else key
            raise _err(path, where, f"unknown key (known: {', '.join(sorted(allowed))})")
    return table


@dataclass(frozen=True)
class Games:
    """How many games a cell plays: ``per_cell``, or rounds of ``step`` games until the
    first player's score interval is at most ``±target`` wide or ``cap`` games are played."""

    per_cell: int | None = None
    target: float | None = None
    cap: int | None = None
    step: int | None = None
    mixed_per_cell: int | None = None  # the games of a mixed pairing, when not the above

    def rounds(self) -> int:
        """The most batches a cell can take."""
        if self.target is None:
            return 1
        assert self.cap is not None and self.step is not None
        return -(-self.cap // self.step)

    def round_games(self, k: int) -> int:
        """The games of round ``k`` (0-based)."""
        if self.target is None:
            assert self.per_cell is not None
            return self.per_cell
        assert self.cap is not None and self.step is not None
        return min(self.step, self.cap - k * self.step)

    def most(self) -> int:
        """The most games a cell can play."""
        return self.per_cell if self.target is None else int(self.cap or 0)  # type: ignore[return-value]


def read_games(path: str, table: Any, prefix: str = "games") -> Games:
    # lazy: start-up time (the batch package)
    from sim.batch.spec import MAX_GAMES

    g = dict(_unknown(path, prefix, table, GAMES_KEYS))
    mixed = g.pop("mixed_per_cell", None)
    if mixed is not None:
        mixed = _int(path, f"{prefix}.mixed_per_cell", mixed, 2, MAX_GAMES)
        if mixed % 2:
            raise _err(path, f"{prefix}.mixed_per_cell", "mixed pairings swap colours: even")
        inner = read_games(path, g, prefix)
        return Games(inner.per_cell, inner.target, inner.cap, inner.step, mixed)
    if "per_cell" in g:
        if {"target", "cap", "step"} & set(g):
            raise _err(path, prefix, "give per_cell, or target with cap and step, not both")
        return Games(per_cell=_int(path, f"{prefix}.per_cell", g["per_cell"], 2, MAX_GAMES))
    if "target" not in g:
        raise _err(path, prefix, "give per_cell, or target (with cap and step)")
    target = g["target"]
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 0.5:
        raise _err(
            path, f"{prefix}.target", f"must be a half-width between 0 and 0.5, got {target!r}"
        )
    cap = _int(path, f"{prefix}.cap", g.get("cap"), 2, MAX_GAMES)
    step = _int(path, f"{prefix}.step", g.get("step", min(cap, 200)), 2, cap)
    return Games(target=float(target), cap=cap, step=step)
