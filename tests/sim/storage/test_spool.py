"""Files a worker writes and the driver commits: invisible until committed, verified once,
the verdict kept for the committed file, duplicates never recorded twice."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sim.batch.chunks import ChunkJob, play_chunk
from sim.batch.recorder import GameRecorder
from sim.core.batchspec import BatchSpec
from sim.core.tally import Tally
from sim.storage.reading import open_dataset
from sim.storage.spool import commit_spooled
from sim.storage.verify import CACHE_NAME


def job(folder: Path, indices: range) -> ChunkJob:
    return ChunkJob(
        batch_id="s",
        spec=BatchSpec(
            "standard", "random", "greedy", 10**6, 5, swap=True, opening_plies=2, ply_cap=300
        ),
        indices=tuple(indices),
        spool=str(folder),
    )


def count(data: Path) -> int:
    with open_dataset(data) as ds:
        return ds.con.execute("SELECT count(*) FROM games").fetchone()[0]


def test_a_spooled_file_is_hidden_until_committed(tmp_path: Path) -> None:
    folder = tmp_path / "games" / "s"
    res = play_chunk(job(folder, range(10)))
    assert res.table is None and res.played == tuple(range(10))
    spooled = res.file
    assert spooled.game_index.tolist() == list(range(10))
    # Hidden and not a parquet name: no reader looks at it.
    assert [p.name for p in folder.iterdir()] == [spooled.temp_name]
    assert spooled.temp_name.startswith(".") and not spooled.temp_name.endswith(".parquet")
    assert count(tmp_path) == 0
    dest = commit_spooled(spooled)
    assert dest.name == spooled.name and not spooled.temp_path.exists()
    # The worker's verdict is cached for the committed file's identity.
    st = os.stat(dest)
    entries = json.loads((folder / CACHE_NAME).read_text())["files"]
    # (identity, verdict, games held, seal)
    assert entries[dest.name][:5] == [
        st.st_size,
        st.st_mtime_ns,
        st.st_ctime_ns,
        None,
        ["s", 0, 9, 10],
    ]
    assert count(tmp_path) == 10


def test_a_file_changed_after_its_check_is_not_committed(tmp_path: Path) -> None:
    spooled = play_chunk(job(tmp_path, range(4))).file
    with open(spooled.temp_path, "ab") as fh:
        fh.write(b"tampered")
    with pytest.raises(OSError, match="changed after it was verified"):
        commit_spooled(spooled)
    assert not spooled.path.exists()


def test_games_already_held_are_not_recorded_twice(tmp_path: Path) -> None:
    folder = tmp_path / "games" / "s"
    first = play_chunk(job(folder, range(6))).file
    again = play_chunk(job(folder, range(3, 9))).file  # a chunk recomputed in part
    recorded: list[int] = []
    rec = GameRecorder(tmp_path, "s", [], Tally(True), lambda f: recorded.append(f["games_done"]))
    try:
        assert [i for i, _ in rec.commit(first)] == list(range(6))
        assert [i for i, _ in rec.commit(again)] == [6, 7, 8]
        rec.flush()
    finally:
        rec.close()
    assert rec.recorded == set(range(9)) and recorded[-1] == 9
    assert not [p for p in folder.iterdir() if ".tmp-" in p.name]
    with open_dataset(tmp_path) as ds:
        got = ds.con.execute("SELECT game_index FROM games ORDER BY 1").fetchall()
    assert [g for (g,) in got] == list(range(9))
