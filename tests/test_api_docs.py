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
