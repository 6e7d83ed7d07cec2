"""The Studies page at the level of ``dsq study report``: the heat map centred on no
first-move edge with its marked cells, the forest plot's pairings side by side, "no data"
where a figure has none, the skill depth, the effects' p-values and Holm's tally, and the
report's sentences and pairings in Chinese and Portuguese."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dashboard.i18n import text
from dashboard.i18n.numbers import Numbers
from engine import PRESETS
from sim.stats.games import distinct_values
from sim.storage.reading import open_dataset
from sim.study.report import build_report
from sim.study.run import recorded_study
from tests.dashboard.test_i18n import KEPT_WORDS
from tests.support.apptest import run_app
from tests.support.dataset import MIXED_STUDY, play_study
from tests.support.texts import latin_words, visible_texts


@pytest.fixture(scope="module")
def study_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("studyreport")
    return play_study(MIXED_STUDY.format(name="both"), root / "data")


@pytest.fixture(scope="module")
def report(study_data: Path) -> dict:
    return build_report(recorded_study(study_data, "both"), study_data)


def _chart(at, key: str) -> dict:  # noqa: ANN001
    [chart] = [c for c in at.get("plotly_chart") if c.proto.id and key in c.proto.id]
    return json.loads(chart.proto.spec)


def test_the_heat_map_diverges_from_no_edge_and_marks_cells_off_it(monkeypatch, study_data,
                                                                   report):  # fmt: skip
    at = run_app(monkeypatch, study_data, "studies")
    [heat] = _chart(at, "study_heat")["data"]
    assert heat["zmid"] == 0 and heat["zmin"] == -heat["zmax"]
    assert heat["colorscale"][0][1] != heat["colorscale"][-1][1]  # two hues about white
    far = max(abs(c["first_move_elo"]["value"]) for c in report["cells"])
    assert heat["zmax"] == pytest.approx(far)
    words = [w for row in heat["text"] for w in row if w]
    assert words and not [w for w in words if re.search(r"\.\d{2,}", w)]  # no bare decimals
    for c in report["cells"]:
        fm = c["first_move_elo"]
        marked = fm["low"] > 0 or fm["high"] < 0
        shown = [w for row in heat["text"] for w in row if w.startswith(f"{fm['value']:+.0f}")]
        assert shown and all(w.endswith(" *") == marked for w in shown)
    hovers = [h for row in heat["customdata"] for h in row]
    assert all("[" in h and "games" in h for h in hovers)  # each figure with its interval
    assert any("excludes 0" in c.value for c in at.caption)


def test_the_forest_plot_sets_the_pairings_side_by_side(monkeypatch, study_data):
    at = run_app(monkeypatch, study_data, "studies")
    traces = _chart(at, "study_forest")["data"]
    assert [t["name"] for t in traces] == ["random", "greedy", "random vs greedy"]
    ys = [t["y"][0] for t in traces]  # the one option's row
    assert len(set(ys)) == 3 and max(ys) - min(ys) < 1


def test_a_figure_without_data_says_so(monkeypatch, study_data):
    at = run_app(monkeypatch, study_data, "studies")
    at.selectbox(key="study_metric").set_value("lead_change").run()  # no search scores
    assert not at.exception
    assert text("en", "charts.no_data") in [i.value for i in at.info]
    assert not [c for c in at.get("plotly_chart") if "study_heat" in c.proto.id]


def test_the_page_has_the_reports_figures(monkeypatch, study_data, report):
    at = run_app(monkeypatch, study_data, "studies")
    n = Numbers("en")
    depth = {e["rules"]: e for e in report["ladder"] if e.get("value") is not None}
    assert set(depth) == {"standard", "standard+no_capture_plies=50"}
    [table] = [t for t in at.table if "Elo above the weakest" in t.value.columns]
    rows = table.value.set_index("Rules")
    for rules, e in depth.items():
        assert rows.loc[rules, "Elo above the weakest"] == n.signed(e["value"], 0)
        assert rows.loc[rules, "95% interval"] == n.interval(e["low_ci"], e["high_ci"], "signed", 0)
    k, total = sum(e["significant"] for e in report["effects"]), len(report["effects"])
    assert (k, total) == (9, 12)
    assert any(f"**{k} of {total}** effects significant after Holm" in m.value for m in at.markdown)
    [effects] = [d for d in at.dataframe if "Option" in d.value.columns]
    assert len(effects.value) == total
    assert list(effects.value["p (Holm)"]) == [n.p_text(e["p_holm"]) for e in report["effects"]]
    sentences = [m.value for m in at.markdown if "percentage points" in m.value]
    assert sentences and "(p < 0.001, Holm)" in sentences[0]
    assert any("Families of tests" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_sentences_and_pairings_are_translated(monkeypatch, study_data, lang):
    at = run_app(monkeypatch, study_data, "studies", DSQ_LANG=lang)
    at.query_params["lang"] = lang
    at.session_state["lang"] = lang
    at.run()
    texts = visible_texts(at)
    vs = text(lang, "study.vs", red="random", blue="greedy")
    assert any(vs in x for x in texts)
    if lang == "zh":
        with open_dataset(study_data) as ds:
            data = distinct_values(ds.con)
        # names, the link to a cell's games, and the line breaks of hover texts
        words = KEPT_WORDS | set(PRESETS) | {"Holm", "both", "games", "batches", "br"}
        for value in (*data["rules"], *data["bots"], *data["batches"]):
            words |= set(re.findall(r"[A-Za-z_]+", value))
        assert latin_words(texts, words) == {}
    else:
        joined = "\n".join(texts)
        for english in ("raises", "lowers", "shortens", "percentage points", " vs ",
                        "significant after", "Skill depth", "the draw rate"):  # fmt: skip
            assert english not in joined, english
        assert "efeitos significativos após a correção de Holm" in joined


def test_the_hint_without_a_study_runs_as_pasted(monkeypatch, tmp_path):
    data = tmp_path / "my data"
    at = run_app(monkeypatch, data, "studies")
    [hint] = [i.value for i in at.info if "dsq study run" in i.value]
    assert f"--data '{data}'" in hint
