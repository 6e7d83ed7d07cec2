"""run_batches, the one entry point: several rules specs, resume, failure and cancel of a
group, arguments refused before anything is written; the driver's recovery on its own."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine.errors import DsqError
from sim.batch import (
    BatchDriver,
    BatchFailed,
    RunOptions,
    create_batch,
    make_spec,
    prepare_data_dir,
    run_batches,
)
from sim.batch.backends import Backend
from sim.batch.chunks import ChunkJob, ChunkResult, play_chunk
from sim.core.tally import Tally
from sim.storage.records import read_batch_record, request_cancel

TIMING = ("duration_ms",)


def games(data: Path, batch_id: str) -> pa.Table:
    """A batch's rows sorted by game index, timing dropped."""
    files = sorted((data / "games" / batch_id).glob("*.parquet"))
    t = pa.concat_tables(pq.read_table(p) for p in files).sort_by("game_index")
    return t.drop_columns(list(TIMING))


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def boom(rules, red, blue, seed, **kw):
    """A game function that fails (to test a failing batch)."""
    raise RuntimeError("engine exploded")


def test_several_specs_one_batch_each_with_the_same_seeds(tmp_path: Path) -> None:
    specs = [make_spec(r, "greedy", "random", 24, seed=4, swap=True) for r in ("standard", "datou")]
    recs = run_batches(specs, tmp_path, batch_id="g", label="cmp", sprt="elo0=0,elo1=1")
    assert [r["batch_id"] for r in recs] == ["g-1", "g-2"]
    assert [r["spec"]["rules"] for r in recs] == ["standard", "datou"]
    assert {r["group"] for r in recs} == {"g"} and {r["label"] for r in recs} == {"cmp"}
    assert {r["sprt"] for r in recs} == {"elo0=0,elo1=1,alpha=0.05,beta=0.05"}
    for r in recs:
        assert r["status"] == "done" and r["games_done"] == 24 and r["seconds"] >= 0
        assert "stop_check" in r  # the check built from the record's sprt ran
        on_disk = read_batch_record(tmp_path, r["batch_id"])
        assert on_disk == {k: v for k, v in r.items() if k != "seconds"}
    a, b = games(tmp_path, "g-1"), games(tmp_path, "g-2")
    assert a.column("seed").equals(b.column("seed"))
    assert a.column("game_index").to_pylist() == list(range(24))


def test_one_spec_uses_the_batch_id_itself(tmp_path: Path) -> None:
    [rec] = run_batches(
        [make_spec("yeshou", "random", "random", 6, seed=1)], tmp_path, batch_id="y"
    )
    assert rec["batch_id"] == rec["group"] == "y" and rec["status"] == "done"


def test_resume_plays_exactly_the_missing_games(tmp_path: Path) -> None:
    spec = make_spec("standard", "random", "greedy", 60, seed=8, opening_plies=2)
    small = RunOptions(chunk_games=10, flush_games=20)
    [rec] = run_batches([spec], tmp_path, batch_id="r", options=small)
    assert rec["status"] == "done"
    reference = games(tmp_path, "r")
    files = sorted((tmp_path / "games" / "r").glob("*.parquet"))
    assert len(files) >= 3
    files[1].unlink()
    # Pretend the driver died: the record says running, by a process that is gone.
    path = tmp_path / "batches" / "r.json"
    record = json.loads(path.read_text())
    record.update(status="running", pid=dead_pid())
    path.write_text(json.dumps(record))

    [rec] = run_batches(data_dir=tmp_path, resume="r", options=small)
    assert rec["status"] == "done" and rec["games_done"] == 60
    assert rec["counts"] == record["counts"]  # colours and the bots' wins, recounted
    assert all(p.exists() for p in files if p != files[1])
    assert games(tmp_path, "r").equals(reference)


def test_a_failure_cancels_the_queued_batches(tmp_path: Path) -> None:
    specs = [make_spec(r, "random", "random", 10, seed=1) for r in ("standard", "yeshou")]
    with pytest.raises(BatchFailed, match="engine exploded") as info:
        run_batches(specs, tmp_path, batch_id="f", options=RunOptions(play_fn=f"{__name__}:boom"))
    assert info.value.batch_id == "f-1"
    assert [(r["batch_id"], r["status"]) for r in info.value.records] == [("f-1", "failed")]
    queued = read_batch_record(tmp_path, "f-2")
    assert queued["status"] == "cancelled" and queued["error"] == "not started"


def test_a_cancel_request_stops_the_group(tmp_path: Path) -> None:
    def cancel_soon(counts: dict) -> bool:
        if counts["games"] >= 20:
            request_cancel(tmp_path, "c-1")
        return False

    specs = [make_spec(r, "random", "random", 400, seed=3) for r in ("standard", "datou")]
    recs = run_batches(
        specs, tmp_path, batch_id="c", stop_check=cancel_soon, options=RunOptions(chunk_games=10)
    )
    assert [(r["batch_id"], r["status"]) for r in recs] == [("c-1", "cancelled")]
    assert 20 <= recs[0]["games_done"] < 400
    assert games(tmp_path, "c-1").num_rows == recs[0]["games_done"]
    assert not (tmp_path / "batches" / "c-1.cancel").exists()
    assert read_batch_record(tmp_path, "c-2")["error"] == "not started"


BAD_CALLS = [  # (with a spec, keyword arguments, error, words in the message)
    (False, dict(resume="nosuch"), DsqError, "no batch"),
    (True, dict(resume="nosuch"), DsqError, "resume"),
    (False, dict(), DsqError, "no batch to run"),
    (True, dict(sprt="elo0=5,elo1=1"), DsqError, "sprt"),
    (True, dict(batch_id="../x"), DsqError, "invalid batch id"),
    (True, dict(workers=0), DsqError, "--workers"),
    (True, dict(scheduler="http://nope"), DsqError, "scheduler"),
    (True, dict(sprt="elo0=0,elo1=5", stop_check=lambda c: False), ValueError, "not both"),
]


@pytest.mark.parametrize(("with_spec", "kwargs", "error", "needle"), BAD_CALLS)
def test_bad_arguments_write_nothing(
    tmp_path: Path, with_spec: bool, kwargs: dict, error: type[Exception], needle: str
) -> None:
    data = tmp_path / "data"
    specs = [make_spec("standard", "random", "random", 4, seed=1)] if with_spec else []
    with pytest.raises(error, match=needle):
        run_batches(specs, data, **kwargs)
    assert not data.exists()


def test_a_taken_batch_id_creates_none_of_the_group(tmp_path: Path) -> None:
    spec = make_spec("standard", "random", "random", 4, seed=1)
    run_batches([spec], tmp_path, batch_id="t-2")
    with pytest.raises(DsqError, match="already exists"):
        run_batches(
            [spec, make_spec("yeshou", "random", "random", 4, seed=1)], tmp_path, batch_id="t"
        )
    assert not (tmp_path / "batches" / "t-1.json").exists()


class LostWorker(Exception):
    """What the flaky backend's first chunk fails with."""


class FlakyBackend(Backend):
    """In-process backend whose chunks submitted before the first recovery lose their worker,
    and whose every later chunk also returns the games of the chunk before it (as Dask may
    recompute a chunk)."""

    slots = 2

    def __init__(self) -> None:
        super().__init__()
        self.recovered: list[int] = []
        self.previous: tuple[int, ...] = ()

    def submit(self, job: ChunkJob) -> Future:
        fut: Future = Future()
        if self.generation == 0:
            fut.set_exception(LostWorker("worker died"))
            return fut
        res = play_chunk(ChunkJob(**{**job.__dict__, "indices": self.previous + job.indices}))
        self.previous = job.indices
        fut.set_result(ChunkResult(job=job, table=res.table, played=job.indices))
        return fut

    def lost_worker(self, exc: BaseException) -> bool:
        return isinstance(exc, LostWorker)

    def recover(self, generation: int) -> None:
        if generation == self.generation:  # once per generation, as the pool backend
            self.recovered.append(generation)
            self.generation += 1


def test_driver_replays_a_lost_chunk_and_drops_duplicates(tmp_path: Path) -> None:
    spec = make_spec("standard", "random", "greedy", 50, seed=6)
    [clean] = run_batches([spec], tmp_path / "clean", batch_id="d")
    data = prepare_data_dir(tmp_path / "flaky")
    create_batch(data, spec, batch_id="d")
    backend = FlakyBackend()
    opts = RunOptions(chunk_games=7, flush_games=10)
    driver = BatchDriver(data, "d", backend, opts)
    rec = driver.run()
    assert driver.lost_workers == 2 and backend.recovered == [0]
    assert rec["status"] == "done" and rec["games_done"] == 50
    assert rec["counts"] == clean["counts"]
    assert games(data, "d").equals(games(tmp_path / "clean", "d"))


def test_tally_counts_by_bot_and_pairs() -> None:
    t = Tally(swap=True)
    for gi, w in enumerate(["red", "red", "blue", "draw", "draw", "draw", "red"]):
        t.add(gi, w)
    c = t.counts()
    # Bot a is red in even games: a wins games 0 and 6, loses 1 and 2, draws 3, 4 and 5.
    assert (c["games"], c["red"], c["blue"], c["draw"]) == (7, 3, 1, 3)
    assert c["wins"] == c["a_wins"] == 2 and c["losses"] == c["b_wins"] == 2
    assert c["draws"] == 3
    # Pairs (0, 1) = W+L, (2, 3) = L+D, (4, 5) = D+D; game 6 waits for its partner.
    assert c["pentanomial"] == [0, 1, 2, 0, 0]
    assert t.colours() == {"red": 3, "blue": 1, "draw": 3}
    assert "pentanomial" not in Tally(swap=False).counts()


def test_the_cli_restores_the_sigterm_handler(tmp_path: Path) -> None:
    from sim.cli import main

    before = signal.getsignal(signal.SIGTERM)
    code = main(
        ["simulate", "--rules", "standard", "--games", "4", "--data", str(tmp_path), "--quiet"]
    )
    assert code == 0
    assert signal.getsignal(signal.SIGTERM) is before
