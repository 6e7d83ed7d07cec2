"""dsq study plan: every cell with its games and measured cost (real calibration games in
real processes), the cache reused, costs read from finished batches, the rough model only
without either, and bad input refused in one line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sim.study.costs import COSTS_FILE
from sim.study.plan import expected_rounds
from sim.study.run import run_study
from sim.study.spec import Games, load_study
from tests.support.procs import dsq, dsq_here, one_line_error

STUDY = """
name = "tiny"
seed = 5
opening_plies = 2
ply_cap = 200
[rules]
specs = ["standard", "yeshou"]
[ladder]
bots = ["greedy", "alphabeta:depth=1"]
pairings = "both"
[games]
target = 0.05
cap = 400
step = 100
"""


@pytest.fixture(scope="module")
def study_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    f = tmp_path_factory.mktemp("plan") / "tiny.toml"
    f.write_text(STUDY, encoding="utf-8")
    return f


def plan(*args: str) -> dict:
    res = dsq("study", "plan", *args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_calibrates_each_cell_then_reuses_the_cache(study_file: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = plan(str(study_file), "--data", str(data), "--workers", "2", "--dask-workers", "4,16")
    cells = load_study(study_file).cells
    assert [c["index"] for c in first["cells"]] == [c.index for c in cells]
    assert [(c["rules"], c["red"], c["blue"]) for c in first["cells"]] == [
        (c.rules, c.red, c.blue) for c in cells
    ]
    assert first["cells"][2]["condition"] == "greedy vs alphabeta:depth=1"
    for c in first["cells"]:
        assert c["games"] == "up to 400 in rounds of 100" and c["games_most"] == 400
        assert c["cost"]["source"] == "measured" and c["cost"]["games"] >= 4
        assert sum(c["cost"]["outcomes"].values()) == c["cost"]["games"]
        assert c["cpu_seconds_per_game"] > 0 and c["cost"]["cpu"] == first["cpu"]
        assert c["cpu_hours_most"] == pytest.approx(400 * c["cpu_seconds_per_game"] / 3600)
        assert 0 < c["cpu_hours_expected"] <= c["cpu_hours_most"]
    assert first["calibration_games"] == sum(c["cost"]["games"] for c in first["cells"])
    assert [w["workers"] for w in first["wall"]] == [2, 4, 16]
    hours = [w["hours_most"] for w in first["wall"]]
    assert hours[0] > hours[1] > hours[2] > 0
    cache = data / COSTS_FILE
    written = cache.read_bytes()
    assert len(json.loads(written)["costs"]) == 6

    again = plan(str(study_file), "--data", str(data))
    assert again["calibration_games"] == 0 and cache.read_bytes() == written
    assert all(c["cost"]["cached"] for c in again["cells"])
    assert [c["cpu_seconds_per_game"] for c in again["cells"]] == [
        c["cpu_seconds_per_game"] for c in first["cells"]
    ]
    text = dsq("study", "plan", str(study_file), "--data", str(data)).stdout
    lines = text.splitlines()
    assert lines[0] == f"study tiny: 6 cells ({study_file})"
    assert sum("measured in" in line and "(cached)" in line for line in lines) == 6
    assert any(line.startswith("total: ") and "CPU-hours at most" in line for line in lines)
    assert any(line.startswith("wall time on a Dask cluster of 32 workers:") for line in lines)


def test_costs_come_from_finished_batches(study_file: Path, tmp_path: Path) -> None:
    run_study(load_study(study_file), tmp_path, stream=io.StringIO())
    got = plan(str(study_file), "--data", str(tmp_path), "--calibrate", "0")
    for c in got["cells"]:
        assert c["cost"]["source"] == "batches" and c["cpu_seconds_per_game"] > 0
        assert f"tiny-c{c['index']:03d}-r00" in c["cost"]["batches"]
        assert c["cost"]["text"].startswith("from batch tiny-c")
    assert got["calibration_games"] == 0 and not (tmp_path / COSTS_FILE).exists()


def test_the_rough_model_only_without_measures(study_file: Path, tmp_path: Path) -> None:
    res = dsq_here("study", "plan", str(study_file), "--data", str(tmp_path), "--calibrate", "0")
    assert res.returncode == 0, res.stderr
    assert sum(line.endswith("rough model") for line in res.stdout.splitlines()) == 6
    assert "costs measured on" not in res.stdout


def test_expected_rounds_follow_the_outcomes() -> None:
    games = Games(target=0.05, cap=400, step=100)
    assert expected_rounds(games, (0, 1000, 0)) == 1  # draws only: known at once
    assert expected_rounds(games, (500, 0, 500)) == 4  # no draws: the cap
    assert expected_rounds(Games(per_cell=50), (1, 1, 1)) == 1


def test_bad_input_is_one_line(study_file: Path, tmp_path: Path) -> None:
    missing = one_line_error(dsq_here("study", "plan", str(tmp_path / "none.toml")), "study")
    assert "none.toml" in missing
    bad = tmp_path / "bad.toml"
    bad.write_text(STUDY.replace('"greedy",', '"grredy",'), encoding="utf-8")
    line = one_line_error(dsq_here("study", "plan", str(bad), "--data", str(tmp_path)), "study")
    assert "bad.toml: ladder.bots[0]: unknown bot 'grredy'" in line
    args = [str(study_file), "--data", str(tmp_path), "--dask-workers", "8,0"]
    one_line_error(dsq_here("study", "plan", *args), "study")
