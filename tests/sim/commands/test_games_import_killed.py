"""``dsq games import`` of a file of several batches killed with SIGKILL at every step:
readers never count a half-done import, and running the same import again gives exactly
the games of a clean import (a real ``dsq`` subprocess, a real ``kill -9``; the imports and
exports around it run ``dsq`` in this process: their process boundary is not the point)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sim.batch import make_spec, run_batches
from sim.storage.importing import IMPORTS_DIR
from sim.storage.reading import open_dataset
from tests.support import ROOT
from tests.support.procs import dsq_here, env, one_line_error, wait_for

BATCHES = ["kb0", "kb1", "kb2"]
GAMES = 12

# Runs `dsq games import FILE --data DATA`, stopping at STEP: says so, then waits (to be
# killed) on its standard input.
STOPPED = """
import sys
from sim.storage import importing
from sim.cli import main

def hook(name):
    if name == sys.argv[1]:
        print("at", name, flush=True)
        sys.stdin.readline()

importing.STEP_HOOK = hook
sys.exit(main(["games", "import", sys.argv[2], "--data", sys.argv[3]]))
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The text records of three real batches."""
    folder = tmp_path_factory.mktemp("import-kill")
    specs = [
        make_spec("standard", "random", "greedy", GAMES, seed=i + 1, ply_cap=120)
        for i in range(len(BATCHES))
    ]
    run_batches(specs, folder / "source", ids=BATCHES)
    res = dsq_here("games", "export", "--data", str(folder / "source"))
    assert res.returncode == 0, res.stderr
    path = folder / "games.txt"
    path.write_text(res.stdout, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def clean(records: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """What a clean import of the file exports."""
    data = tmp_path_factory.mktemp("clean")
    res = dsq_here("games", "import", str(records), "--data", str(data))
    assert res.returncode == 0, res.stderr
    return export(data)


def export(data: Path) -> str:
    res = dsq_here("games", "export", "--data", str(data), "--format", "jsonl")
    assert res.returncode == 0, res.stderr
    return res.stdout


def counted(data: Path) -> tuple[int, int]:
    """(games, batch records) a reader counts in ``data``."""
    with open_dataset(data) as ds:
        games = ds.con.execute("SELECT count(*) FROM games").fetchone()
        return int(games[0]) if games else 0, len(ds.batches)


def kill_at(step: str, records: Path, data: Path) -> tuple[int, int]:
    """Run the import until ``step``, count what readers see there, then SIGKILL it."""
    proc = subprocess.Popen(
        [sys.executable, "-c", STOPPED, step, str(records), str(data)],
        cwd=ROOT, env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.strip() == f"at {step}", (line, proc.stderr.read())  # type: ignore[union-attr]
        seen = counted(data)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    return seen


STEPS = [f"staged {BATCHES[0]}", f"staged {BATCHES[-1]}", "journal",
         f"moved {BATCHES[0]}", f"moved {BATCHES[1]}", f"moved {BATCHES[-1]}", "done"]  # fmt: skip


@pytest.mark.parametrize("step", STEPS)
def test_killed_at_a_step_counts_nothing_then_finishes(
    records: Path, clean: str, tmp_path: Path, step: str
) -> None:
    data = tmp_path / "data"
    seen = kill_at(step, records, data)
    # a reader counts nothing of an import until its last step, then all of it
    assert seen == ((len(BATCHES) * GAMES, len(BATCHES)) if step == "done" else (0, 0))
    assert counted(data) == seen  # and so after the kill
    again = dsq_here("games", "import", str(records), "--data", str(data))
    if step == "done":  # the import was whole: once more is refused, as for any batch there
        assert "already in" in one_line_error(again, "games")
    else:
        assert again.returncode == 0, again.stderr
        said = "finished the import" if "moved" in step or step == "journal" else "imported 36"
        assert again.stdout.startswith(said), again.stdout
    assert export(data) == clean
    assert [p.name for p in (data / IMPORTS_DIR).iterdir()] == [".lock"]
    assert "already in" in one_line_error(
        dsq_here("games", "import", str(records), "--data", str(data)), "games"
    )


def test_killed_when_its_first_file_appears(records: Path, clean: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "games", "import", str(records), "--data", str(data)],
        cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    imports = data / IMPORTS_DIR

    def staged() -> bool:
        return any(name.endswith(".parquet") for _, _, files in os.walk(imports) for name in files)

    try:
        wait_for(lambda: staged() or proc.poll() is not None, "a staged games file")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert counted(data) in ((0, 0), (len(BATCHES) * GAMES, len(BATCHES)))
    res = dsq_here("games", "import", str(records), "--data", str(data))
    assert res.returncode == 0 or "already in" in res.stderr, res.stderr
    assert export(data) == clean
