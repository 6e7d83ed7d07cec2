"""A study's findings: DerSimonian-Laird pooling as by hand, the interaction test and the
verdicts, and on real games the paired effect of a rule known by construction (a short
draw rule), the same opening in both cells, repeats counted once, Markdown from the saved
report equal to the report's."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from sim.report.jsonable import jsonable
from sim.study.markdown import MARKER, report_markdown
from sim.study.pooling import interaction_p, pooled, verdict
from sim.study.report import build_report
from sim.study.run import run_study
from sim.study.spec import load_study
from tests.support.procs import dsq_here


def test_pooling_is_dersimonian_laird() -> None:
    est, se = np.array([0.1, 0.5, -0.2, 0.3]), np.array([0.1, 0.2, 0.15, 0.1])
    w = 1 / se**2
    fe = (w * est).sum() / w.sum()
    q = (w * (est - fe) ** 2).sum()
    tau2 = max(0.0, (q - 3) / (w.sum() - (w**2).sum() / w.sum()))
    wr = 1 / (se**2 + tau2)
    re_ = (wr * est).sum() / wr.sum()
    got = pooled(list(est), list(se))
    assert got["value"] == pytest.approx(re_, rel=1e-9)
    assert got["se"] == pytest.approx(1 / math.sqrt(wr.sum()), rel=1e-9)
    assert got["tau"] == pytest.approx(math.sqrt(tau2), rel=1e-9)
    assert got["i2"] == pytest.approx((q - 3) / q, rel=1e-9)
    close = pooled([0.1, 0.11], [0.1, 0.1])  # Q below its df: tau = 0, the plain pool
    assert close["tau"] == 0.0 and close["se"] == pytest.approx(0.1 / math.sqrt(2))
    same = pooled([0.2, 0.2], [0.1, 0.1])  # no heterogeneity: the fixed-effect pool
    assert same["value"] == pytest.approx(0.2) and same["tau"] == 0.0
    assert same["se"] == pytest.approx(0.1 / math.sqrt(2))


def _rows(values: dict[tuple[str, int], float], se: float = 0.05) -> list[dict]:
    return [{"bots": b, "level": lvl, "openings": "", "seed": 0, "est": v, "se": se,
             "significant": abs(v) / se > 4} for (b, lvl), v in values.items()]  # fmt: skip


def test_an_interaction_is_found_on_its_axis_only() -> None:
    # the effect grows with the level, the same for both families
    rows = _rows({("a", 0): 0.0, ("a", 1): 0.5, ("b", 0): 0.0, ("b", 1): 0.5})
    p = interaction_p(rows, "level")
    assert p is not None and p < 1e-6
    assert interaction_p(rows, "bots") == pytest.approx(1.0)
    assert interaction_p(rows, "seed") is None  # one seed set: nothing to test


def test_verdicts() -> None:
    robust = {"conditions": _rows({("a", 0): 0.4, ("a", 1): 0.5}), "interactions": {}}
    assert verdict(robust) == ("robust", [])
    mixed = {"conditions": _rows({("a", 0): 0.4, ("a", 1): -0.5}), "interactions": {}}
    assert verdict(mixed) == ("not established", [])
    dep = {"conditions": mixed["conditions"], "interactions": {"level": {"significant": True}}}
    assert verdict(dep) == ("depends on", ["level"])


STUDY = """
name = "find"
seed = 11
ply_cap = 300
[rules]
base = "standard"
design = "one_at_a_time"
[rules.grid]
no_capture_plies = [20]
[[families]]
name = "weak"
rungs = ["random", "greedy"]
[axes]
openings = ["random:4"]
seeds = [11, 12]
[[block]]
seeds = [0, 1]
[games]
per_cell = 60
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    root = tmp_path_factory.mktemp("find")
    f = root / "find.toml"
    f.write_text(STUDY, encoding="utf-8")
    run_study(load_study(f), root / "data", stream=io.StringIO(), quiet=True)
    return build_report(load_study(f), root / "data"), root


def test_a_short_draw_rule_raises_draws_robustly(report: tuple[dict, Path]) -> None:
    rep, _ = report
    f = rep["findings"]
    eff = next(x for x in f["effects"] if x["metric"] == "draw_rate")
    assert eff["rules"] == "standard+no_capture_plies=20" and eff["against"] == "standard"
    assert len(eff["conditions"]) == 4  # two rungs x two seed sets
    assert all(r["n"] == 60 for r in eff["conditions"])  # every game paired
    assert eff["pooled"]["value"] > 0.3 and eff["verdict"] == "robust"
    plies = next(x for x in f["effects"] if x["metric"] == "plies")
    assert plies["pooled"]["high"] < 0
    assert f["families"]["effects per condition"] == 3 * 4


def test_paired_effect_is_the_mean_of_per_game_differences(report: tuple[dict, Path]) -> None:
    rep, root = report
    import duckdb

    eff = next(x for x in rep["findings"]["effects"] if x["metric"] == "plies")
    row = eff["conditions"][0]
    cells = {c["cell"]: c for c in rep["cells"]}
    a, b = cells[row["cell"]], cells[row["against_cell"]]
    con = duckdb.connect()
    glob = str(root / "data" / "games" / "**" / "*.parquet")
    q = f"SELECT batch_id, game_index, plies FROM read_parquet('{glob}') WHERE batch_id = ?"
    pa = {r[1]: r[2] for r in con.execute(q, [a["batches"][0]]).fetchall()}
    pb = {r[1]: r[2] for r in con.execute(q, [b["batches"][0]]).fetchall()}
    diffs = [pa[i] - pb[i] for i in pa]
    assert row["est"] == pytest.approx(float(np.mean(diffs)), rel=1e-12)
    assert row["se"] == pytest.approx(float(np.std(diffs, ddof=1)) / math.sqrt(len(diffs)))


def test_curves_have_every_rung(report: tuple[dict, Path]) -> None:
    rep, _ = report
    curves = rep["findings"]["curves"]
    assert {(e["rules"], e["rung"]) for e in curves} == {
        (r, k) for r in ("standard", "standard+no_capture_plies=20") for k in (0, 1)
    }
    for e in curves:
        d = e["draw_rate"]
        assert 0 <= d["low"] <= d["value"] <= d["high"] <= 1 and e["games"] == 120


def test_markdown_from_the_saved_report(report: tuple[dict, Path]) -> None:
    rep, root = report
    saved = root / "find.json"
    saved.write_text(json.dumps(jsonable(rep)), encoding="utf-8")
    out = dsq_here("study", "report", "find", "--from-json", str(saved), "--markdown")
    assert out.returncode == 0, out.stderr
    assert out.stdout == report_markdown(json.loads(saved.read_text()))
    assert out.stdout.startswith(MARKER)
    assert "**robust**" in out.stdout and "the draw rate" in out.stdout
