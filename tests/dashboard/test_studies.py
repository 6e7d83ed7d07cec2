"""The Studies page: a recorded study's heat map, effects, cells and their links."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.support import APP
from tests.support.apptest import run_app
from tests.support.dataset import play_study

STUDY = """
name = "page"
seed = 5
[rules]
base = "standard"
[rules.grid]
no_capture_plies = [50]
[ladder]
bots = ["random"]
[games]
per_cell = 40
"""


@pytest.fixture(scope="module")
def study_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_study(STUDY, tmp_path_factory.mktemp("studypage") / "data")


def test_studies_page_shows_cells_effects_and_links(monkeypatch, study_data):
    at = run_app(monkeypatch, study_data, "studies")
    [table] = [d for d in at.dataframe if len(d.value) == 2]
    assert list(table.value["Rules"]) == ["standard", "standard+no_capture_plies=50"]
    assert list(table.value["Batches"]) == [
        "games?batches=page-c000-r00",
        "games?batches=page-c001-r00",
    ]
    assert any("no_capture_plies=50" in m.value and "raises the draw rate" in m.value
               for m in at.markdown)  # fmt: skip


def test_a_cell_link_sets_the_batch_filter(monkeypatch, study_data):
    monkeypatch.setenv("DSQ_DATA", str(study_data))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["batches"] = "page-c001-r00"
    at.run()
    assert not at.exception
    assert at.sidebar.multiselect(key="f_batches").value == ["page-c001-r00"]


def test_no_study_yet(monkeypatch, tmp_path):
    at = run_app(monkeypatch, tmp_path / "empty", "studies")
    assert any("No study" in i.value for i in at.info)


def test_studies_page_shows_skill_curves_and_verdicts(monkeypatch, study_data):
    at = run_app(monkeypatch, study_data, "studies")
    assert at.selectbox(key="study_curve_rules").options == [
        "standard",
        "standard+no_capture_plies=50",
    ]
    [verdicts] = [d for d in at.dataframe if "Verdict" in d.value.columns]
    rows = verdicts.value.set_index("Finding")
    draws = rows.loc["standard+no_capture_plies=50 − standard: the draw rate"]
    assert draws["Verdict"] == "robust" and draws["Unit"] == "percentage points"
    assert float(draws["Pooled"]) > 20  # the 50-ply rule draws most random games
    at.selectbox(key="study_curve_metric").set_value("plies").run()
    assert not at.exception
