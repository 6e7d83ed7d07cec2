"""``dsq study run`` stopped by SIGTERM: exit 130 with one line, no traceback, and a run
that resumes to the end. Each signal is sent once the run has printed a progress line
(read from its stderr), never after a guessed sleep."""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import InvalidStateError, ProcessPoolExecutor
from pathlib import Path

from sim.commands.study import _without_pool_race
from sim.storage.records import read_batch_record
from tests.support import ROOT
from tests.support.procs import WAIT, env

EXAMPLE = ROOT / "docs" / "studies" / "example.toml"


class Run:
    """A ``dsq study run`` in its own process group, its stderr read line by line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sim.cli", "study", "run", *args],
            cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, start_new_session=True,
        )  # fmt: skip
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.seen.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def progress_line(self, name: str) -> str:
        """Wait for the first progress line of the study ``name``."""
        end = time.monotonic() + WAIT
        while True:
            line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            assert line is not None, "the run ended before a progress line"
            if line.startswith(f"study {name}: cells"):
                return line

    def stderr(self) -> str:
        """Everything the run wrote on stderr, once it has ended."""
        self.proc.wait(timeout=WAIT)
        self.reader.join(timeout=WAIT)
        return "".join(self.seen)


def test_sigterm_stops_a_study_in_one_line_and_it_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run = Run(str(EXAMPLE), "--data", str(data))
    run.progress_line("example")
    run.proc.send_signal(signal.SIGTERM)
    err = run.stderr()
    assert run.proc.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert err.splitlines()[-1] == "dsq study run: interrupted"
    assert all(x.startswith("study example: cells") for x in err.splitlines()[:-1]), err
    again = subprocess.run(
        [sys.executable, "-m", "sim.cli", "study", "run", str(EXAMPLE), "--data", str(data),
         "--quiet"],
        cwd=ROOT, env=env(), capture_output=True, text=True, timeout=WAIT,
    )  # fmt: skip
    assert again.returncode == 0 and not again.stderr, again.stderr
    recs = [read_batch_record(data, f"example-c{c:03d}-r00") for c in range(12)]
    assert [(r["status"], r["games_done"]) for r in recs] == [("done", 200)] * 12


def test_sigterm_to_the_process_group_with_workers(tmp_path: Path) -> None:
    # a service manager's stop: the workers get the signal too; batches of several chunks,
    # so the driver holds queued chunks to cancel while the pool breaks
    study = tmp_path / "big.toml"
    text = EXAMPLE.read_text().replace('name = "example"', 'name = "big"')
    study.write_text(text.replace("per_cell = 200\n", "per_cell = 6000\n", 1))
    data = tmp_path / "data"
    run = Run(str(study), "--data", str(data), "--workers", "2")
    run.progress_line("big")
    os.killpg(run.proc.pid, signal.SIGTERM)
    err = run.stderr()
    assert run.proc.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert err.splitlines()[-1] == "dsq study run: interrupted"
    assert read_batch_record(data, "big-c000-r00")["status"] == "interrupted"


def _pool_race(hook: object) -> None:
    """A pool whose worker dies while a queued chunk is cancelled, with ``hook`` as
    ``threading.excepthook``: Python 3.11's manager thread then fails the cancelled future
    too, and dies of InvalidStateError."""
    previous = threading.excepthook
    threading.excepthook = hook  # type: ignore[assignment]
    try:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            pid = pool.submit(os.getpid).result(timeout=WAIT)
            running = pool.submit(time.sleep, 60)
            queued = [pool.submit(time.sleep, 0) for _ in range(3)]  # the last stays queued
            assert queued[-1].cancel()
            os.kill(pid, signal.SIGKILL)
            assert running.exception(timeout=WAIT) is not None  # the pool is broken
            pool.shutdown(wait=True)
    finally:
        threading.excepthook = previous


def test_the_pool_race_is_dropped_and_nothing_else() -> None:
    reported: list[type[BaseException]] = []

    def record(args: threading.ExceptHookArgs) -> None:
        reported.append(args.exc_type)

    _pool_race(record)
    if sys.version_info < (3, 12):
        assert reported == [InvalidStateError]  # the race, as the run printed it
    reported.clear()
    hook = _without_pool_race(record)
    assert _without_pool_race(hook) is hook  # installed once, however often run
    _pool_race(hook)
    assert reported == []
    boom = threading.Thread(target=lambda: 1 / 0)
    previous = threading.excepthook
    threading.excepthook = hook
    try:
        boom.start()
        boom.join()
    finally:
        threading.excepthook = previous
    assert reported == [ZeroDivisionError]  # any other thread's error still reported
