"""A study with an opening suite: its batches carry the suite, its games start from it, and
a changed suite file is refused like a changed study file."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine.errors import DsqError
from sim.storage.reading import open_dataset
from sim.storage.records import list_batches
from sim.study.run import run_study
from sim.study.spec import StudyError, load_study

STUDY = """
name = "suited"
seed = 2
ply_cap = 200
openings = "lines/suite.txt"
openings_order = "random"
[rules]
specs = ["standard", "yeshou"]
[ladder]
bots = ["random", "greedy"]
pairings = "mixed"
[games]
per_cell = 4
"""
SUITE = "startpos a3a4\tedge\nstartpos g3g4 g7g6\n"


def write(root: Path, study: str = STUDY, suite: str = SUITE) -> Path:
    (root / "lines").mkdir(exist_ok=True)
    (root / "lines" / "suite.txt").write_text(suite, encoding="utf-8")
    path = root / "suited.toml"
    path.write_text(study, encoding="utf-8")
    return path


def test_a_study_with_openings_runs_and_refuses_a_changed_suite(tmp_path: Path) -> None:
    path = write(tmp_path)
    study = load_study(path)
    assert study.openings == SUITE and study.openings_order == "random"
    run_study(study, tmp_path / "data", stream=io.StringIO())
    records = list_batches(tmp_path / "data")
    assert len(records) == 2 and all(r["status"] == "done" for r in records)
    assert all(r["spec"]["openings"] == SUITE for r in records)
    with open_dataset(tmp_path / "data") as ds:
        firsts = ds.con.sql("SELECT DISTINCT moves[1] FROM games").fetchall()
    assert sorted(m for (m,) in firsts) == sorted([14 * 64 + 21, 20 * 64 + 27])  # a3a4, g3g4
    write(tmp_path, suite=SUITE + "startpos a3a4 a7a6\n")
    with pytest.raises(DsqError, match=r"suited.toml: .*changed: openings"):
        run_study(load_study(path), tmp_path / "data", stream=io.StringIO())


@pytest.mark.parametrize(
    ("edit", "what"),
    [
        ('openings = "lines/missing.txt"', "openings: .*missing.txt: cannot read"),
        ('openings = "lines/suite.txt"\nply_cap = 2', "ply_cap"),
        ('openings_order = "shuffled"', "openings_order: must be one of"),
    ],
)
def test_bad_openings_keys(tmp_path: Path, edit: str, what: str) -> None:
    study = STUDY.replace('openings = "lines/suite.txt"\nopenings_order = "random"\n', "")
    study = study.replace("ply_cap = 200\n", "" if "ply_cap" in edit else "ply_cap = 200\n")
    path = write(tmp_path, edit + "\n" + study)
    with pytest.raises(StudyError, match=what):
        load_study(path)


def test_a_bad_suite_line_names_the_suite_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, suite="startpos a3a4\nstartpos a3a5\n")
    with pytest.raises(StudyError, match=r"suited.toml: openings: .*suite.txt:2: move 1"):
        load_study(path)
