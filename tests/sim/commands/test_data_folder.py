"""One behaviour for a data folder that does not exist: every command that reads one
refuses it (one line naming it, exit 2), and only ``dsq simulate`` creates it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.procs import in_process

READERS = {"stats": [], "batches": [], "dashboard": ["--no-browser", "--port", "1"]}


def _error_line(argv: list[str]) -> str:
    """The one ``dsq COMMAND: error:`` line of a command that must exit 2."""
    code, out, err = in_process(argv)
    lines = err.strip().splitlines()
    assert code == 2 and out == "", (code, out, err)
    assert len(lines) == 1 and re.match(rf"dsq {argv[0]}( [a-z]+)?: error:", lines[0]), err
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


# Commands that write (games, tables, plans): without --data or $DSQ_DATA they refuse the
# bundled sample, the default folder, so a person's results never mix with it unasked.
WRITERS = {
    "simulate": ["simulate", "--games", "2"],
    "simulate --resume": ["simulate", "--resume", "sample-mcts-2"],
    "tablebase build": ["tablebase", "build", "--pieces", "2"],
    "tablebase stats": ["tablebase", "stats", "--material", "R v r"],
    "tablebase probe": ["tablebase", "probe", "--fen", "7/7/7/7/7/7/2r4/2L4/5e1 b 0 1"],
    "study run": ["study", "run", "docs/studies/example.toml", "--quick"],
    "tournament": ["tournament", "--format", "round-robin", "--players", "random", "greedy"],
    "games import": ["games", "import", "docs/examples/games.jsonl"],
    "play --save": ["play", "--red", "human", "--blue", "random", "--save"],
}


@pytest.mark.parametrize("name", WRITERS)
def test_a_writing_command_refuses_the_unnamed_sample(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sim.storage.paths import bundled_sample_dir
    from tests.test_docs_examples import sample_status

    monkeypatch.delenv("DSQ_DATA", raising=False)
    monkeypatch.chdir(ROOT)
    before = sample_status()
    line = _error_line(WRITERS[name])
    assert line.startswith(f"dsq {name.split(' --')[0]}: error: {bundled_sample_dir()} is the")
    assert "--data DIR or DSQ_DATA=DIR" in line
    assert sample_status() == before


def test_the_sample_is_written_to_when_named_and_read_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sim.storage.paths import bundled_sample_dir, sample_unnamed, writable_data_dir

    monkeypatch.delenv("DSQ_DATA", raising=False)
    assert sample_unnamed(None) and not sample_unnamed(str(bundled_sample_dir()))
    assert writable_data_dir(str(bundled_sample_dir())) == bundled_sample_dir()
    assert writable_data_dir(str(tmp_path)) == tmp_path
    monkeypatch.setenv("DSQ_DATA", str(bundled_sample_dir()))
    assert not sample_unnamed(None) and writable_data_dir(None) == bundled_sample_dir()
    monkeypatch.delenv("DSQ_DATA")
    code, out, _ = in_process(["batches", "--json"])  # reading: the sample, as before
    assert code == 0 and any(b["batch_id"] == "sample-mcts-2" for b in json.loads(out))
