"""docs/atlas.md below its preface is the Markdown of the committed report of the atlas
run (docs/studies/atlas.report.json), and the report is of the committed study file."""

from __future__ import annotations

import json
from pathlib import Path

from sim.study.markdown import MARKER, report_markdown
from sim.study.spec import load_study

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "atlas.md"
REPORT = ROOT / "docs" / "studies" / "atlas.report.json"
STUDY = ROOT / "docs" / "studies" / "atlas-local.toml"


def test_the_page_is_the_reports_markdown() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1
    generated = text[text.index(MARKER) :]
    rep = json.loads(REPORT.read_text(encoding="utf-8"))
    assert generated == report_markdown(rep)


def test_the_report_is_of_the_committed_study() -> None:
    rep = json.loads(REPORT.read_text(encoding="utf-8"))
    study = load_study(STUDY)
    assert rep["study"] == study.name
    played = [(c["rules"], c["played"]) for c in rep["cells"]]
    assert played == [(c.rules, list(study.pinned(c))) for c in study.cells]
    assert all(c["games"] == study.games_for(cell).most()
               for c, cell in zip(rep["cells"], study.cells, strict=True))  # fmt: skip
    assert all("eval=auto" not in spec for _, specs in played for spec in specs)
