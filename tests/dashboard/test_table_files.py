"""What the tables say and what their files hold: every table's CSV is its figures (raw
numbers, headers and data the same in every language), the Compare page's tests follow the
sidebar's level and are corrected for multiplicity, and the Overview speaks of plies."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.i18n import text
from dashboard.tables import literal, plain, raw_csv
from sim.stats import compare_rules, general_stats_by
from sim.stats.query import Selection
from sim.storage.reading import open_dataset
from tests.support import APP
from tests.support.dataset import TOTAL_GAMES
from tests.support.media import MediaRecorder
from tests.support.procs import WAIT

LANGS = ("en", "zh", "pt")


@pytest.fixture
def media(monkeypatch: pytest.MonkeyPatch) -> MediaRecorder:
    return MediaRecorder().install(monkeypatch)


def page(monkeypatch: pytest.MonkeyPatch, data: Path, name: str, lang: str, **state) -> AppTest:  # noqa: ANN003
    """The dashboard on ``data`` in ``lang``, on page ``name``, with sidebar settings."""
    monkeypatch.setenv("DSQ_DATA", str(data))
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    at.query_params["lang"] = lang
    at.run()
    for key, value in state.items():
        at.sidebar.selectbox(key=key).set_value(value).run()
    if name != "overview":
        at.switch_page(f"views/{name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_files(at: AppTest, media: MediaRecorder) -> dict[str, pd.DataFrame]:
    """Every table's CSV on the page, read back by pandas."""
    keys = [b.key for b in at.get("download_button") if (b.key or "").endswith("_csv")]
    return {k: pd.read_csv(io.BytesIO(media.button_file(at, k))) for k in keys}


@pytest.mark.parametrize("name", ["overview", "compare", "bots", "games"])
def test_every_tables_csv_holds_the_same_figures_in_every_language(
    monkeypatch, fixture_data, media, name
):
    files = {lang: table_files(page(monkeypatch, fixture_data, name, lang), media)
             for lang in LANGS}  # fmt: skip
    assert files["en"], "no table file on the page"
    for lang in ("zh", "pt"):
        assert files[lang].keys() == files["en"].keys()
        for key, frame in files["en"].items():
            pd.testing.assert_frame_equal(files[lang][key], frame, obj=f"{lang} {key}")
    for key, frame in files["en"].items():
        for col in frame.columns:
            if frame[col].dtype == object:  # texts: specs, codes; never a formatted figure
                cells = " ".join(frame[col].dropna().astype(str))
                assert "%" not in cells and "CI" not in cells, (key, col, cells[:200])
        bounds = [c for c in frame.columns if c.endswith(("_low", "_high")) or c in ("low", "high")]
        for col in bounds:
            assert pd.api.types.is_float_dtype(frame[col]), (key, col)
        if bounds:
            assert set(frame["level"]) == {0.95}, key


def test_the_by_rules_file_is_the_statistics_layers_figures(monkeypatch, fixture_data, media):
    at = page(monkeypatch, fixture_data, "overview", "pt", f_confidence=90)
    got = table_files(at, media)["overview_by_rules_csv"]
    with open_dataset(fixture_data) as ds:
        want = general_stats_by(ds.con, Selection(), by="rules", confidence=0.9)
    assert got["games"].dtype == "int64" and got["games"].sum() == TOTAL_GAMES
    assert list(got["rules"]) == list(want["rules"])
    for col in ("first_score", "first_low", "first_high", "mean_plies", "mean_low", "first_move_p"):
        assert list(got[col]) == list(want[col]), col  # plain notation reads back exactly
    assert set(got["level"]) == {0.9}


def test_a_file_writes_numbers_in_plain_notation():
    frame = pd.DataFrame({"p": [1.2e-12, float("nan"), 0.5], "high": [float("inf"), 2.0, 3.25],
                          "games": [2000, 1, 0], "spec": ["a,b", "-", "> +77.5"]})  # fmt: skip
    written = raw_csv(frame).decode()
    assert "e-" not in written and "0.0000000000012" in written
    back = pd.read_csv(io.StringIO(written))
    assert back["p"][0] == 1.2e-12 and back["high"][0] == float("inf") and back["games"][0] == 2000
    assert list(back["spec"]) == ["a,b", "-", "> +77.5"]
    assert (plain(True), plain(3), plain(float("-inf"))) == (True, 3, "-inf")


def test_literal_escapes_markdown_and_leaves_figures_alone():
    figures = ("+77.5", "-12", "1,043", "[48.1%, 52.3%]", "52,3% (IC 95% [48,0%; 52,1%])")
    texts = ("alphabeta:depth=3,eval=material", "ply_cap", "p < 0.001", "0:16", "—")
    for same in (*figures, *texts):
        assert literal(same) == same
    assert literal("> +77.5") == "\\> +77.5"
    assert literal("-") == "\\-" and literal("1. random") == "1\\. random"
    assert literal(":red[x] *y* $z$") == "\\:red[x] \\*y\\* \\$z\\$"
    assert "\u200b" not in literal("1,043, 2,000: x,y")


def test_compare_tests_follow_the_level_and_are_corrected_by_holm(monkeypatch, fixture_data):
    at = page(monkeypatch, fixture_data, "compare", "en", f_confidence=99)
    specs = at.multiselect(key="compare_specs").value
    with open_dataset(fixture_data) as ds:
        cmp = compare_rules(ds.con, specs, Selection(), confidence=0.99)
    header = text("en", "compare.col_significant", alpha="1%")
    pairs = next(d.value for d in at.table if d.value.index.name == "A vs B")
    assert header in pairs.index
    words = {"first_move_diff": "first-move advantage", "draw_diff": "draw rate",
             "length": "length", "reasons": "end reasons"}  # fmt: skip
    for (_, row), col in zip(cmp.pairs.iterrows(), pairs.columns, strict=True):
        want = [w for k, w in words.items() if row[f"{k}_significant"]] or ["none"]
        assert pairs.loc[header, col] == ", ".join(want)
    caption = text("en", "multiplicity.compare_caption", tests=str(cmp.tests), alpha="1%",
                   level="99%")  # fmt: skip
    assert caption in [c.value for c in at.caption]
    assert cmp.tests == 4 * len(cmp.pairs)


@pytest.mark.parametrize("lang", LANGS)
def test_the_overview_counts_plies_as_its_chart_and_compare_do(monkeypatch, fixture_data, lang):
    at = page(monkeypatch, fixture_data, "overview", lang)
    ply = {"en": "plies", "zh": "步", "pt": "jogadas"}[lang]
    labels = [m.label for m in at.metric]
    length_labels = [text(lang, f"overview.{k}") for k in ("avg_moves", "fewest", "most", "median")]
    assert all(x in labels and ply in x.lower() for x in length_labels)
    assert ply in text(lang, "charts.plies") and ply in text(lang, "compare.col_mean")
    moves = {"en": "move", "zh": "着", "pt": "moviment"}[lang]  # the other word, gone
    assert not [x for x in (*length_labels, text(lang, "overview.caption")) if moves in x.lower()]
    # every game began with red to move: the first player's wins are red's, said once
    assert text(lang, "overview.red_wins") in labels
    assert text(lang, "overview.first_wins") not in labels
