"""The batch record never counts fewer (or more) games than the files in place hold.

The recorder's writer thread is held at chosen points by jobs that wait on events, so every
intermediate state of a commit (announced, put in place, counted, closed out) is checked
deterministically, from a reader's side (``read_batch_record``, ``list_batches``) and as a
crash would leave it (the files and the record on disk are all a reader or a resume sees).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from sim.batch.chunks import ChunkJob, play_chunk
from sim.batch.recorder import GameRecorder
from sim.batch.run import create_batch
from sim.batch.spec import make_spec
from sim.core.batchspec import BatchSpec
from sim.core.tally import Tally
from sim.storage.paths import batch_path, games_dir
from sim.storage.records import (
    list_batches,
    read_batch_record,
    recorded_games,
    write_batch_record,
)
from tests.support.procs import WAIT

BID = "w"


def chunk(data: Path, indices: range) -> Any:
    """A chunk of games a worker wrote under a temporary name (not yet committed)."""
    return play_chunk(
        ChunkJob(
            batch_id=BID,
            spec=BatchSpec(
                "standard", "random", "greedy", 10**6, 5, swap=True, opening_plies=2, ply_cap=300
            ),
            indices=tuple(indices),
            spool=str(games_dir(data, BID)),
        )  # fmt: skip
    )


def start(data: Path, tally: Tally | None = None) -> tuple[GameRecorder, dict[str, Any]]:
    """A recorder writing the batch record as the driver does."""
    record = create_batch(
        data, make_spec("standard", "random", "greedy", 40, 5, swap=True), batch_id=BID
    )

    def write(fields: dict[str, Any]) -> None:
        record.update(fields)
        write_batch_record(data, record)

    return GameRecorder(data, BID, [], tally or Tally(True), write), record


def on_disk(data: Path) -> tuple[int, dict[str, Any]]:
    """Games in the files in place and their record counts, recounted from the files."""
    games = recorded_games(data, BID)
    tally = Tally(True)
    for gi in sorted(games):
        tally.add(gi, games[gi])
    return len(games), tally.record_counts()


def assert_record_matches_files(data: Path) -> None:
    """What every reader of the record gets equals what the files hold."""
    done, counts = on_disk(data)
    for rec in (read_batch_record(data, BID), *list_batches(data)):
        assert (rec["games_done"], rec["counts"]) == (done, counts)
        assert rec.get("committing", []) == []


def hold_writer(rec: GameRecorder) -> tuple[threading.Event, threading.Event]:
    """Queue a job that holds the writer thread: (reached, release)."""
    reached, release = threading.Event(), threading.Event()

    def hold() -> None:
        reached.set()
        assert release.wait(WAIT)

    rec._writer.submit(hold)  # the writer runs its jobs in order
    return reached, release


def drain(rec: GameRecorder) -> None:
    rec._writer.submit(lambda: None).result(timeout=WAIT)


def test_every_state_of_two_commits(tmp_path: Path) -> None:
    rec, _ = start(tmp_path)
    first, second = chunk(tmp_path, range(0, 10)).file, chunk(tmp_path, range(10, 16)).file
    try:
        assert_record_matches_files(tmp_path)
        _, release_first = hold_writer(rec)
        rec.commit(first)
        between, release_second = hold_writer(rec)
        rec.commit(second)
        # Both announced, neither in place: the record names them, readers count neither.
        raw = json.loads(batch_path(tmp_path, BID).read_text())
        assert [e["file"] for e in raw["committing"]] == [first.name, second.name]
        assert [e["games_done"] for e in raw["committing"]] == [10, 16]
        assert not first.path.exists() and not second.path.exists()
        assert_record_matches_files(tmp_path)
        release_first.set()
        assert between.wait(WAIT)
        # The first in place, the second not yet: readers count the first only.
        assert first.path.exists() and not second.path.exists()
        assert on_disk(tmp_path)[0] == 10
        assert_record_matches_files(tmp_path)
        release_second.set()
        drain(rec)
        # Both in place, neither counted by the recorder yet: readers count both.
        assert rec.recorded == set()
        assert_record_matches_files(tmp_path)
        rec.settle(block=False)
        assert rec.recorded == set(range(16))
        assert_record_matches_files(tmp_path)
        rec.flush()
    finally:
        rec.close()
    raw = json.loads(batch_path(tmp_path, BID).read_text())
    assert raw["games_done"] == 16 and raw["committing"] == []
    assert_record_matches_files(tmp_path)


def test_a_buffered_write_is_announced_before_it_is_in_place(tmp_path: Path) -> None:
    rec, _ = start(tmp_path)
    try:
        spooled = chunk(tmp_path, range(0, 8)).file  # read back as a table (as from Dask)
        rec.add(pq.read_table(spooled.temp_path))
        spooled.temp_path.unlink()
        _, release = hold_writer(rec)
        rec.flush(wait=False)
        raw = json.loads(batch_path(tmp_path, BID).read_text())
        assert [e["games_done"] for e in raw["committing"]] == [8]
        assert on_disk(tmp_path)[0] == 0
        assert_record_matches_files(tmp_path)
        release.set()
        drain(rec)
        assert on_disk(tmp_path)[0] == 8
        assert_record_matches_files(tmp_path)
        rec.flush()
    finally:
        rec.close()
    assert_record_matches_files(tmp_path)


class InterruptedTally(Tally):
    """A tally whose next ``add`` raises KeyboardInterrupt once armed: Ctrl-C landing in the
    middle of the recorder's bookkeeping."""

    armed = False

    def add(self, game_index: int, winner: str) -> None:
        if InterruptedTally.armed:
            InterruptedTally.armed = False
            raise KeyboardInterrupt
        super().add(game_index, winner)


def test_ctrl_c_while_a_write_is_counted_leaves_the_record_right(tmp_path: Path) -> None:
    rec, _ = start(tmp_path, InterruptedTally(True))
    try:
        rec.commit(chunk(tmp_path, range(0, 10)).file)
        drain(rec)
        InterruptedTally.armed = True
        with pytest.raises(KeyboardInterrupt):
            rec.settle(block=True)  # the file is in place, the count is cut short
        assert_record_matches_files(tmp_path)
        rec.flush()  # what the driver does on Ctrl-C: the totals are recounted
    finally:
        InterruptedTally.armed = False
        rec.close()
    raw = json.loads(batch_path(tmp_path, BID).read_text())
    assert raw["games_done"] == 10 and raw["committing"] == []
    assert_record_matches_files(tmp_path)


def test_ctrl_c_after_the_announcement_counts_no_file_that_is_not_there(tmp_path: Path) -> None:
    data = tmp_path
    record = create_batch(
        data, make_spec("standard", "random", "greedy", 40, 5, swap=True), batch_id=BID
    )
    calls = []

    def write(fields: dict[str, Any]) -> None:
        record.update(fields)
        write_batch_record(data, record)
        calls.append(1)
        if len(calls) == 2:  # after announcing the second file, before handing it over
            raise KeyboardInterrupt

    rec = GameRecorder(data, BID, [], Tally(True), write)
    second = chunk(data, range(10, 16)).file
    try:
        rec.commit(chunk(data, range(0, 10)).file)
        with pytest.raises(KeyboardInterrupt):
            rec.commit(second)
        drain(rec)
        assert not second.path.exists()
        assert_record_matches_files(data)
        rec.flush()
    finally:
        rec.close()
    assert on_disk(data)[0] == 10
    assert_record_matches_files(data)
