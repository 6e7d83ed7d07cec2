"""A batch's bot counts from its recorded games, for records that do not hold them.

A batch record's ``counts`` carry the wins of bot a (the ``--red`` bot of the spec) and bot
b, and the pentanomial of its colour-swapped pairs, only from the record version that
added them on: an older colour-swapped record knows the wins by colour alone, which
cannot say which bot won. The games can: each one is counted here by the same rule as
while the batch runs (:class:`sim.core.tally.Tally`: bot a plays red in game ``2k`` and
blue in game ``2k + 1``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import duckdb

from sim.core.tally import Tally

__all__ = ["batch_counts", "needs_game_counts"]


def needs_game_counts(record: dict[str, Any]) -> bool:
    """True when a record's ``counts`` cannot tell the bots' results: a colour-swapped
    batch recorded before the bots' wins were kept."""
    counts = record.get("counts") or {}
    spec = record.get("spec") or {}
    return bool(spec.get("swap")) and not ("a_wins" in counts and "b_wins" in counts)


def batch_counts(
    con: duckdb.DuckDBPyConnection, batches: Iterable[tuple[str, bool]]
) -> dict[str, dict[str, Any]]:
    """``{batch_id: counts}`` in the form of a record's ``counts`` (``red``, ``blue``,
    ``draw``, ``a_wins``, ``b_wins``, and ``pentanomial`` with swapping), counted from the
    ``games`` view for each ``(batch_id, swap)``; a batch without games is left out."""
    wanted = dict(batches)
    if not wanted:
        return {}
    rows = con.execute(
        "SELECT batch_id, game_index, winner FROM games WHERE batch_id IN "
        "(SELECT unnest(?::VARCHAR[])) ORDER BY batch_id, game_index",
        [list(wanted)],
    ).fetchall()
    tallies: dict[str, Tally] = {}
    for batch_id, index, winner in rows:
        tally = tallies.setdefault(batch_id, Tally(wanted[batch_id]))
        tally.add(int(index), str(winner))
    return {b: t.record_counts() for b, t in tallies.items()}
