"""The bundled sample dataset replays identically: every stored game of every sample
batch, played again from its batch's spec and seed by today's engine, bots and referee,
gives the same moves, captures, result and counts."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.batch.chunks import ChunkJob, play_chunk
from sim.core.batchspec import BatchSpec

DATA = Path(__file__).resolve().parents[3] / "data"
BATCHES = sorted(p.stem for p in (DATA / "batches").glob("sample-*.json"))
# Columns that depend on the machine or on the version that wrote the file.
UNSTABLE = {"duration_ms", "engine_version", "schema_version"}


def stored_games(batch_id: str) -> pa.Table:
    """The batch's recorded games, in game order."""
    files = sorted((DATA / "games" / batch_id).glob("*.parquet"))
    table = pa.concat_tables([pq.read_table(f) for f in files])
    return table.sort_by("game_index")


def replayed_games(batch_id: str) -> pa.Table:
    """The batch's games played again from its record's spec."""
    spec = json.loads((DATA / "batches" / f"{batch_id}.json").read_text())["spec"]
    job = ChunkJob(
        batch_id=batch_id,
        spec=BatchSpec.from_dict(spec),
        indices=tuple(range(spec["games"])),
        max_seconds=1e9,
    )
    result = play_chunk(job)
    assert result.table is not None and len(result.played) == spec["games"]
    return result.table.sort_by("game_index")


def test_every_sample_batch_is_checked() -> None:
    kinds = {b.split("-")[1] for b in BATCHES}
    assert kinds == {"random", "greedy", "ab2", "mcts"} and len(BATCHES) == 12


@pytest.mark.parametrize("batch_id", BATCHES)
def test_sample_batch_replays_identically(batch_id: str) -> None:
    stored = stored_games(batch_id)
    again = replayed_games(batch_id)
    assert again.num_rows == stored.num_rows > 0
    columns = [c for c in stored.column_names if c not in UNSTABLE]
    for name in columns:
        assert again.column(name).to_pylist() == stored.column(name).to_pylist(), name
