"""How soon a batch shows progress: its first chunk is small, its first file is written at
once, and its driver writes the run's rate into the record (real batches, real parquet
files)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from sim.batch import make_spec, run_batches
from sim.batch.progress import FIRST_CHUNK, chunk_rate, first_small, flush_wait
from sim.core.timecontrol import clock_text


def test_the_first_chunk_is_small_and_files_wait_longer_each_time():
    assert [first_small(2500, k) for k in range(3)] == [FIRST_CHUNK, 2500, 2500]
    assert first_small(5, 0) == 5 and first_small(0, 3) == 1
    assert first_small(20, 0) == 20  # a small chunk size is kept for the first chunk too
    assert [flush_wait(k, 10.0) for k in range(6)] == [0.0, 1.0, 2.0, 4.0, 8.0, 10.0]
    assert chunk_rate(16, 0.5, 2) == 64.0  # one of two workers: 32 games/s each
    assert chunk_rate(0, 0.5, 1) is None and chunk_rate(16, 0.0, 1) is None


def test_clock_text_reads_as_a_clock():
    assert clock_text(557_886) == "9:17"
    assert clock_text(600_000) == "10:00" and clock_text(999) == "0:00"
    assert clock_text(-5) == "0:00" and clock_text(3_725_000) == "1:02:05"


def test_a_fast_batch_s_first_file_is_small_and_its_record_has_a_rate(tmp_path: Path):
    spec = make_spec("standard", "random", "greedy", 400, seed=5)
    [rec] = run_batches([spec], tmp_path, batch_id="fast")
    assert rec["status"] == "done" and rec["games_done"] == 400
    files = sorted((tmp_path / "games" / "fast").glob("*.parquet"))
    first = pq.read_table(files[0], columns=["game_index"]).column("game_index").to_pylist()
    assert first == list(range(FIRST_CHUNK))  # was one file of all 400 games
    assert len(files) >= 2 and isinstance(rec.get("rate"), float) and rec["rate"] > 0


def test_a_slow_batch_s_first_games_are_on_disk_at_once(tmp_path: Path):
    # Games the driver writes (not fast bots): its first file does not wait flush_seconds.
    spec = make_spec("standard", "alphabeta:depth=1", "greedy", 40, seed=5, ply_cap=60)
    [rec] = run_batches([spec], tmp_path, batch_id="slow")
    assert rec["status"] == "done"
    files = sorted((tmp_path / "games" / "slow").glob("*.parquet"))
    first = pq.read_table(files[0], columns=["game_index"]).num_rows
    assert first <= FIRST_CHUNK and len(files) >= 2
