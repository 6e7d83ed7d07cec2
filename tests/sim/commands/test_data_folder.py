"""One behaviour for a data folder that does not exist: every command that reads one
refuses it (one line naming it, exit 2), and only ``dsq simulate`` creates it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.procs import in_process

READERS = {"stats": [], "batches": [], "dashboard": ["--no-browser", "--port", "1"]}


def _error_line(argv: list[str]) -> str:
    """The one ``dsq COMMAND: error:`` line of a command that must exit 2."""
    code, out, err = in_process(argv)
    lines = err.strip().splitlines()
    assert code == 2 and out == "", (code, out, err)
    assert len(lines) == 1 and lines[0].startswith(f"dsq {argv[0]}: error:"), err
    return lines[0]


@pytest.mark.parametrize("command", READERS)
def test_a_reading_command_refuses_a_missing_folder(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    line = _error_line([command, "--data", str(missing), *READERS[command]])
    assert f"data folder {missing} does not exist" in line
    assert not missing.exists()


@pytest.mark.parametrize("command", READERS)
def test_a_missing_folder_from_the_environment_is_named_so(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "env-nope"
    monkeypatch.setenv("DSQ_DATA", str(missing))
    line = _error_line([command, *READERS[command]])
    assert f"{missing} (from $DSQ_DATA) does not exist" in line


@pytest.mark.parametrize("command", READERS)
def test_a_file_is_not_a_data_folder(command: str, tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    assert "is not a folder" in _error_line([command, "--data", str(file), *READERS[command]])


def test_simulate_creates_the_folder_and_the_readers_then_read_it(tmp_path: Path) -> None:
    data = tmp_path / "new" / "data"
    code, _, err = in_process(["simulate", "--games", "4", "--seed", "1", "--data", str(data)])
    assert code == 0, err
    assert data.is_dir()
    code, out, _ = in_process(["batches", "--data", str(data), "--json"])
    assert code == 0 and len(json.loads(out)) == 1
    assert in_process(["stats", "--data", str(data)])[0] == 0


def test_an_empty_folder_has_no_batches(tmp_path: Path) -> None:
    code, out, _ = in_process(["batches", "--data", str(tmp_path)])
    assert code == 0 and out.startswith("no batches in")
