"""A batch is owned by exactly one live driver: concurrent resumes and concurrent creations
of one batch id never duplicate a game, and a dead driver (any host, any pid) holds nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sim.batch import BatchSpec, prepare_data_dir
from sim.batch.run import create_batch
from sim.storage.locks import BatchLock
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record, write_batch_record
from tests.support import ROOT
from tests.support.procs import (
    AWAIT_RELEASE,
    WAIT,
    dsq,
    env,
    one_line_error,
    popen_dsq,
    release_together,
)

SPEC = BatchSpec(rules="standard", red="random", blue="random", games=20_000, seed=5)


def indices(data: Path, batch_id: str) -> list[int]:
    with open_dataset(data) as ds:
        rows = ds.con.execute(
            "SELECT game_index FROM games WHERE batch_id = ? ORDER BY game_index", [batch_id]
        ).fetchall()
    return [r[0] for r in rows]


def test_two_resumes_started_at_once_record_every_game_once(tmp_path: Path) -> None:
    data = prepare_data_dir(tmp_path)
    rec = create_batch(data, SPEC, batch_id="race")
    rec.update(status="cancelled")  # resumable: nothing holds it
    write_batch_record(data, rec)
    procs = [popen_dsq("simulate", "--resume", "race", "--data", str(data), "--quiet")]
    procs.append(popen_dsq("simulate", "--resume", "race", "--data", str(data), "--quiet"))
    results = [(p.wait(timeout=300), p.communicate()[1]) for p in procs]
    for code, err in results:
        assert "Traceback" not in err
        assert code == 0 or (code == 2 and "still running" in err), (code, err)
    assert any(code == 0 for code, _ in results)
    got = indices(data, "race")
    assert got == list(range(SPEC.games)), f"{len(got)} rows for {SPEC.games} games"
    final = read_batch_record(data, "race")
    assert final["status"] == "done" and final["games_done"] == len(got)


def test_a_resume_while_another_process_owns_the_batch_is_refused(tmp_path: Path) -> None:
    data = prepare_data_dir(tmp_path)
    rec = create_batch(data, SPEC, batch_id="held")
    rec.update(status="cancelled")
    write_batch_record(data, rec)
    with BatchLock(data, "held"):  # this test process plays the live driver
        res = dsq("simulate", "--resume", "held", "--data", str(data))
    assert "still running" in one_line_error(res, "simulate")
    assert not list((data / "games" / "held").glob("*.parquet"))


CREATE = f"""
import sys
from pathlib import Path
from engine.errors import DsqError
from sim.batch import BatchSpec
from sim.batch.run import create_batch
{AWAIT_RELEASE}
try:
    create_batch(Path(sys.argv[1]), BatchSpec("standard", "random", "random", 10, 1),
                 label=sys.argv[2], batch_id="same")
    print("created")
except DsqError:
    print("refused")
"""


def test_processes_creating_one_batch_id_at_once_create_it_once(tmp_path: Path) -> None:
    data = prepare_data_dir(tmp_path)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CREATE, str(data), f"p{k}"],
            cwd=ROOT,
            env=env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for k in range(6)
    ]
    release_together(procs)
    outs = [p.communicate(timeout=WAIT)[0].strip() for p in procs]
    assert sorted(outs) == ["created"] + ["refused"] * 5
    winner = f"p{outs.index('created')}"
    assert read_batch_record(data, "same")["label"] == winner
    assert not [p for p in data.rglob("*") if ".tmp-" in p.name]


def test_simulate_with_one_batch_id_twice_at_once_records_one_batch(tmp_path: Path) -> None:
    args = ["simulate", "--rules", "standard", "--games", "200", "--seed", "3"]
    args += ["--batch-id", "twin", "--data", str(tmp_path), "--quiet"]
    procs = [popen_dsq(*args) for _ in range(2)]
    results = [(p.wait(timeout=300), p.communicate()[1]) for p in procs]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results
    assert "already exists" in next(err for code, err in results if code == 2)
    assert indices(tmp_path, "twin") == list(range(200))


def test_a_record_naming_another_host_or_a_reused_pid_is_resumable(tmp_path: Path) -> None:
    data = prepare_data_dir(tmp_path)
    small = BatchSpec(rules="standard", red="random", blue="random", games=50, seed=2)
    for bid, host, pid in (("elsewhere", "vm-far-away", 1), ("reused", None, 1)):
        rec = create_batch(data, small, batch_id=bid)
        # The driver died; pid 1 (alive: init) stands for a pid the system has reused.
        rec.update(status="running", host=host or rec["host"], pid=pid)
        write_batch_record(data, rec)
        listing = json.loads(dsq("batches", "--data", str(data), "--json").stdout)
        assert {r["batch_id"]: r["effective_status"] for r in listing}[bid] == "interrupted"
        res = dsq("simulate", "--resume", bid, "--data", str(data), "--quiet")
        assert res.returncode == 0, res.stderr
        assert read_batch_record(data, bid)["status"] == "done"
        assert indices(data, bid) == list(range(50))
