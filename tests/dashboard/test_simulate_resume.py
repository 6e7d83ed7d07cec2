"""The Simulate page resumes a batch that stopped before its end: a real batch stopped at
its time limit, a real detached ``dsq simulate --resume`` started from the page's button."""

from __future__ import annotations

from sim.batch import RunOptions, make_spec, run_batches
from sim.storage.records import read_batch_record
from tests.support.apptest import run_app
from tests.support.procs import wait_for


def test_a_stopped_batch_offers_a_resume_that_plays_the_missing_games(monkeypatch, tmp_path):
    data = tmp_path / "data"
    spec = make_spec("standard", "random", "greedy", 3000, seed=7)
    [rec] = run_batches([spec], data, batch_id="stopped", options=RunOptions(max_seconds=0.001))
    assert rec["status"] == "cancelled" and rec["games_done"] < 3000
    at = run_app(monkeypatch, data, "simulate")
    assert not [b for b in at.button if b.key == "cancel_stopped"]
    # its help names the command line that does the same from a shell, folder included
    assert f"`dsq simulate --resume stopped --data {data}`" in at.button(key="resume_stopped").help
    at.button(key="resume_stopped").click().run()
    assert not at.error, [e.value for e in at.error]
    wait_for(lambda: read_batch_record(data, "stopped")["status"] == "done", "the resumed batch")
    rec = read_batch_record(data, "stopped")
    assert rec["games_done"] == 3000
    at.run()
    assert not [b for b in at.button if b.key == "resume_stopped"]  # nothing left to resume


def test_a_finished_batch_offers_no_resume(monkeypatch, tmp_path):
    data = tmp_path / "data"
    run_batches([make_spec("standard", "random", "greedy", 20, seed=7)], data, batch_id="whole")
    at = run_app(monkeypatch, data, "simulate")
    assert not [b for b in at.button if b.key == "resume_whole"]
