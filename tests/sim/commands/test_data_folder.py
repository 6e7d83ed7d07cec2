"""One behaviour for a data folder that does not exist: every command that reads one
refuses it (one line naming it, exit 2), and only ``dsq simulate`` creates it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.procs import dsq, one_line_error

READERS = ["stats", "batches", "dashboard"]


@pytest.mark.parametrize("command", READERS)
def test_a_reading_command_refuses_a_missing_folder(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    extra = ["--no-browser", "--port", "1"] if command == "dashboard" else []
    line = one_line_error(dsq(command, "--data", str(missing), *extra), command)
    assert f"data folder {missing} does not exist" in line
    assert not missing.exists()


@pytest.mark.parametrize("command", READERS)
def test_a_missing_folder_from_the_environment_is_named_so(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "env-nope"
    extra = ["--no-browser", "--port", "1"] if command == "dashboard" else []
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", command, *extra],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT), DSQ_DATA=str(missing)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = one_line_error(res, command)
    assert f"{missing} (from $DSQ_DATA) does not exist" in line


@pytest.mark.parametrize("command", READERS)
def test_a_file_is_not_a_data_folder(command: str, tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    extra = ["--no-browser", "--port", "1"] if command == "dashboard" else []
    line = one_line_error(dsq(command, "--data", str(file), *extra), command)
    assert "is not a folder" in line


def test_simulate_creates_the_folder_and_the_readers_then_read_it(tmp_path: Path) -> None:
    data = tmp_path / "new" / "data"
    res = dsq("simulate", "--games", "4", "--seed", "1", "--data", str(data), "--quiet")
    assert res.returncode == 0, res.stderr
    assert data.is_dir()
    listed = dsq("batches", "--data", str(data), "--json")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 1
    assert dsq("stats", "--data", str(data)).returncode == 0


def test_an_empty_folder_has_no_batches(tmp_path: Path) -> None:
    res = dsq("batches", "--data", str(tmp_path))
    assert res.returncode == 0 and res.stdout.startswith("no batches in")
