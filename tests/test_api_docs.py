"""The Python examples of the documentation run as written and print what they show:
docs/api.md's worked example (a doctest), and data/README.md's code, run on a copy of the
bundled sample. Neither writes into the project folder."""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import ROOT

API_DOC = ROOT / "docs" / "api.md"
DATA_README = ROOT / "data" / "README.md"


def _status() -> str:
    """What git sees of the project folder's docs and sample data, ignored files included."""
    out = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--", "docs", "data/batches", "README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return out.stdout


def test_the_api_page_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DSQ_DATA", raising=False)
    monkeypatch.chdir(ROOT)  # the study file is named from the project folder
    before = _status()
    result = doctest.testfile(str(API_DOC), module_relative=False, report=True, verbose=False)
    assert result.attempted > 30 and result.failed == 0, result
    assert _status() == before


def python_blocks(path: Path) -> list[str]:
    """The ``python`` code blocks of a Markdown file."""
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def test_the_data_readme_code_runs_on_the_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [code] = python_blocks(DATA_README)
    for part in ("games", "batches"):  # the sample as a folder named data, beside the code
        shutil.copytree(ROOT / "data" / part, tmp_path / "data" / part)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DSQ_DATA", raising=False)
    names: dict[str, object] = {}
    exec(compile(code, str(DATA_README), "exec"), names)
    ds = names["ds"]
    assert len(ds.batches) == 12 and not ds.skipped  # type: ignore[attr-defined]
    sim = names["sim"]
    by_rules = sim.statistics("data", by="rules")  # type: ignore[attr-defined]
    assert list(by_rules["rules"]) == ["datou", "standard", "yeshou"]
    assert by_rules["games"].sum() == 4620


def test_the_data_readme_commands_make_the_sample(tmp_path: Path) -> None:
    """Each command that made the bundled sample, run as written but on ``standard`` alone,
    two games, into a temporary folder: the same two games as the sample's first batch (the
    bots named as the sample recorded them, not by today's defaults)."""
    import shlex

    import duckdb

    from tests.support.procs import in_process

    text = DATA_README.read_text(encoding="utf-8")
    block = re.search(r"made with\s+these commands.*?```sh\n(.*?)```", text, re.S)
    assert block
    commands = [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 4
    for words in commands:
        batch = words[words.index("--batch-id") + 1]
        words[words.index("--data") + 1] = str(tmp_path)
        words[words.index("--rules") + 1] = "standard"
        words[words.index("--games") + 1] = "2"
        code, _, err = in_process([*words[1:], "--workers", "1"])
        assert code == 0, (words, err)
        query = "select moves from read_parquet('{}/*.parquet') order by game_index limit 2"
        sample = duckdb.sql(query.format(ROOT / "data" / "games" / f"{batch}-1")).fetchall()
        made = duckdb.sql(query.format(tmp_path / "games" / batch)).fetchall()
        assert made == sample, batch
