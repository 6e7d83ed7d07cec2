"""A batch record that follows the record schema, for tests that write records by hand."""

from __future__ import annotations

from typing import Any


def valid_record(batch_id: str, games: int = 10, **fields: Any) -> dict[str, Any]:
    """A complete, valid record of a ``random`` vs ``random`` batch; ``fields`` override."""
    rec: dict[str, Any] = {
        "batch_id": batch_id,
        "group": batch_id,
        "label": None,
        "spec": {
            "rules": "standard",
            "red": "random",
            "blue": "random",
            "games": games,
            "seed": 1,
            "swap": False,
            "opening_plies": 0,
            "ply_cap": 1000,
        },
        "status": "queued",
        "games_planned": games,
        "games_done": 0,
        "counts": {"red": 0, "blue": 0, "draw": 0},
        "created_at": "2026-01-01T00:00:00+00:00",
        "started_at": None,
        "finished_at": None,
        "host": "test",
        "pid": None,
        "engine_version": "test",
        "schema_version": 1,
        "error": None,
        "sprt": None,
    }
    rec.update(fields)
    return rec
