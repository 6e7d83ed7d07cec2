"""Virtual draws only when the ratings need them (Ford's condition): a pairing won in
every game is no reason when the 'took points from' graph is strongly connected."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.stats import ratings
from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk


def _ratings(tmp_path: Path, games: list[tuple[str, str, str, int]]) -> Any:
    rows: list[dict[str, Any]] = []
    for red, blue, winner, count in games:
        for _ in range(count):
            reason = "den" if winner != "draw" else "no_capture"
            rows.append(dict(red=red, blue=blue, winner=winner, reason=reason,
                             game_index=len(rows), pair_id=len(rows)))  # fmt: skip
    write_games_chunk(tmp_path, "g", rows_table(rows))
    with open_dataset(tmp_path) as ds:
        return ratings(ds.con)


def _any_sweep(games: list[tuple[str, str, str, int]]) -> bool:
    """The former rule: some pairing won (or lost) in every game."""
    pairs: dict[frozenset[str], set[str]] = {}
    for red, blue, winner, _ in games:
        took = {"red": {red}, "blue": {blue}, "draw": {red, blue}}[winner]
        pairs.setdefault(frozenset((red, blue)), set()).update(took)
    return any(len(t) == 1 for t in pairs.values())


def test_a_cycle_of_sweeps_needs_no_virtual_draws(tmp_path: Path) -> None:
    # A always beats B, B always beats C, C always beats A: each pairing a sweep, but every
    # bot took points from one that took points from the next: strongly connected.
    games = [("A", "B", "red", 6), ("B", "C", "red", 6), ("C", "A", "red", 6)]
    assert _any_sweep(games)
    r = _ratings(tmp_path, games)
    assert r.prior_draws == 0.0 and "virtual" not in r.note and r.converged
    assert np.allclose(r.table["rating"], 0.0, atol=1e-6)  # the cycle is balanced


def test_a_sweep_linked_back_by_draws_needs_none(tmp_path: Path) -> None:
    games = [("A", "B", "red", 8), ("B", "C", "draw", 4), ("C", "A", "red", 2),
             ("A", "C", "red", 3)]  # fmt: skip
    assert _any_sweep(games)
    r = _ratings(tmp_path, games)
    assert r.prior_draws == 0.0 and r.converged
    t = r.table.set_index("bot")["rating"]
    assert t["A"] > t["B"] and np.isfinite(t).all()


@pytest.mark.parametrize(
    "games",
    [
        [("A", "B", "red", 5), ("B", "C", "red", 5), ("A", "C", "red", 5)],  # a strict order
        [("A", "B", "red", 3), ("B", "A", "draw", 2), ("C", "A", "blue", 4)],  # C never scored
    ],
    ids=["order", "one-bot-scoreless"],
)
def test_no_strong_connection_adds_virtual_draws(tmp_path: Path, games: list) -> None:
    r = _ratings(tmp_path, games)
    assert r.prior_draws == 0.5 and "virtual draws" in r.note
    assert np.isfinite(r.table["rating"]).all()
