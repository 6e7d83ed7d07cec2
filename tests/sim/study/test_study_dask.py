"""A study played on a real Dask cluster (a LocalCluster of two worker processes), one of
whose workers is killed mid-study, ends with exactly the games of a clean local run."""

from __future__ import annotations

import io
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pytest

from sim.storage.reading import open_dataset
from sim.storage.records import list_batches
from sim.study.run import run_study
from sim.study.spec import load_study
from tests.support.cluster import local_cluster

WAIT = 600.0  # generous deadline for an event (only reached on failure; never a speed check)

STUDY = """
name = "dk"
seed = 17
opening_plies = 2
ply_cap = 300
[rules]
specs = ["standard", "yeshou"]
[ladder]
bots = ["random", "greedy"]
[games]
target = 0.001   # never reached: every cell plays its three rounds
cap = 3000
step = 1000
"""


def wait_for(pred: Callable[[], bool], what: str) -> None:
    """Poll ``pred`` until true; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def rows(data: Path) -> dict[str, pa.Table]:
    """Every batch's rows by game index, the timing column left out."""
    with open_dataset(data) as ds:
        t = ds.con.sql("SELECT * FROM games ORDER BY batch_id, game_index").to_arrow_table()
    t = t.drop_columns(["duration_ms"])
    ids = t.column("batch_id").to_pylist()
    return {b: t.filter(pa.compute.equal(t["batch_id"], b)) for b in sorted(set(ids))}


def test_a_worker_killed_mid_study_changes_no_game(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    f = tmp_path / "dk.toml"
    f.write_text(STUDY, encoding="utf-8")
    local, remote = tmp_path / "local", tmp_path / "dask"
    run_study(load_study(f), local, workers=1, quiet=True)

    cluster = local_cluster()
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            run = pool.submit(
                run_study, load_study(f), remote, scheduler=cluster.scheduler_address,
                stream=io.StringIO(),
            )  # fmt: skip
            first = remote / "games" / "dk-c000-r00"
            wait_for(lambda: run.done() or any(first.glob("*.parquet")), "the first games file")
            assert not run.done(), run.exception()
            with distributed.Client(cluster.scheduler_address) as client:
                pid = next(iter(client.run(os.getpid).values()))
            os.kill(pid, signal.SIGKILL)
            out = run.result(timeout=WAIT)
        assert out["batches"] == 12
        assert run_study(load_study(f), remote, scheduler=cluster.scheduler_address)["games"] == 0
    finally:
        cluster.close()

    recs = {r["batch_id"]: r for r in list_batches(remote)}
    assert len(recs) == 12
    assert all(r["status"] == "done" and r["games_done"] == 1000 for r in recs.values())
    want, got = rows(local), rows(remote)
    assert sorted(got) == sorted(recs) == sorted(want)
    for bid, table in want.items():
        assert table.num_rows == 1000
        assert table.column("game_index").to_pylist() == list(range(1000)), bid
        assert got[bid].equals(table), bid  # seeds, winners, reasons, plies, moves, ...
