"""Playing a study: its batches, the report's figures (the same as dsq stats), a changed
file refused, an effect known by construction recovered."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import DsqError
from sim.storage.records import list_batches
from sim.study.report import build_report
from sim.study.run import run_study
from sim.study.spec import load_study

STUDY = """
name = "draws"
seed = 3
ply_cap = 300
[rules]
base = "standard"
design = "one_at_a_time"
[rules.grid]
no_capture_plies = [50]
rule_17_5 = [true]
[ladder]
bots = ["random"]
[games]
per_cell = 120
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("study")
    f = root / "draws.toml"
    f.write_text(STUDY, encoding="utf-8")
    run_study(load_study(f), root / "data", stream=io.StringIO())
    return f, root / "data"


def test_each_cell_is_a_labelled_batch(played: tuple[Path, Path]) -> None:
    f, data = played
    recs = {r["batch_id"]: r for r in list_batches(data)}
    assert sorted(recs) == ["draws-c000-r00", "draws-c001-r00", "draws-c002-r00"]
    assert (
        recs["draws-c001-r00"]["label"]
        == "study draws cell 1: standard+no_capture_plies=50, random"
    )
    assert all(r["status"] == "done" and r["games_done"] == 120 for r in recs.values())


def test_report_equals_dsq_stats(played: tuple[Path, Path]) -> None:
    f, data = played
    rep = build_report(load_study(f), data)
    for cell in rep["cells"]:
        args = [sys.executable, "-m", "sim.cli", "stats", "--data", str(data), "--json"]
        for b in cell["batches"]:
            args += ["--batch", b]
        stats = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
        g = stats["general"] if "general" in stats else stats
        assert cell["games"] == g["games"]
        assert cell["draw_rate"]["value"] == pytest.approx(g["draw"]["rate"])
        assert cell["mean_plies"]["value"] == pytest.approx(g["length"]["mean"])
        assert cell["first_move_elo"]["value"] == pytest.approx(g["first_move"]["elo"])
        break  # one subprocess is enough: the figures come from the same functions


def test_effect_by_construction(played: tuple[Path, Path]) -> None:
    f, data = played
    rep = build_report(load_study(f), data)
    [e] = [
        e
        for e in rep["effects"]
        if e["term"] == "no_capture_plies=50" and e["metric"] == "draw_rate"
    ]
    assert e["significant"] and e["effect"] > 0.2 and e["low"] > 0
    assert e["sentence"].startswith("`no_capture_plies=50` raises the draw rate by")
    [s] = [
        e
        for e in rep["effects"]
        if e["term"] == "no_capture_plies=50" and e["metric"] == "mean_plies"
    ]
    assert s["effect"] < 0 and s["high"] < 0


def test_changed_file_refused_and_rerun_keeps(played: tuple[Path, Path], tmp_path: Path) -> None:
    f, data = played
    out = run_study(load_study(f), data, stream=io.StringIO())
    assert out["games"] == 0 and out["batches"] == 0
    g = tmp_path / "draws.toml"
    g.write_text(STUDY.replace("per_cell = 120", "per_cell = 140"), encoding="utf-8")
    with pytest.raises(DsqError, match=r"draws.toml: .*changed: games.per_cell: 120 -> 140"):
        run_study(load_study(g), data, stream=io.StringIO())


def test_target_stops_cells(tmp_path: Path) -> None:
    f = tmp_path / "t.toml"
    f.write_text(
        STUDY.replace("per_cell = 120", "target = 0.2\ncap = 200\nstep = 40"), encoding="utf-8"
    )
    run_study(load_study(f), tmp_path / "d", stream=io.StringIO())
    rep = build_report(load_study(f), tmp_path / "d")
    for c in rep["cells"]:
        lo, hi = c["first_player_score"]["low"], c["first_player_score"]["high"]
        assert (hi - lo) / 2 <= 0.2 or c["games"] == 200
        assert c["games"] % 40 == 0


def test_interrupted_batches_resume_to_the_same_figures(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    f, data = played
    copy = tmp_path / "data"
    shutil.copytree(data, copy)
    for bid in ("draws-c001-r00", "draws-c002-r00"):  # as a kill -9 leaves them: no games
        rec_path = copy / "batches" / f"{bid}.json"
        rec = json.loads(rec_path.read_text(encoding="utf-8"))
        rec.update(status="running", games_done=0)
        rec_path.write_text(json.dumps(rec), encoding="utf-8")
        for part in (copy / "games" / bid).glob("*.parquet"):
            part.unlink()
    out = run_study(load_study(f), copy, stream=io.StringIO())
    assert out["batches"] == 2 and out["games"] == 240
    a, b = build_report(load_study(f), data), build_report(load_study(f), copy)
    a.pop("data"), b.pop("data")
    assert same(a, b)


def same(a: object, b: object) -> bool:
    """Equal, floats to 1e-9 relative: the last bits of DuckDB's sums follow the order in
    which it scans the files, which a resumed batch writes differently."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-9, abs=1e-300)
    return a == b
