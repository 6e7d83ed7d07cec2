"""The catalogues: every key in every language with the same fields, a text for every word
of the engine's and the simulator's vocabulary, the animals' names as the docs give them,
numbers per language, and no untranslated text on any page (AppTest, every page)."""

from __future__ import annotations

import re
import string
from dataclasses import fields

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.i18n import LANGUAGES, catalogue, language_from_locale, text
from dashboard.i18n.notes import translate_note
from dashboard.i18n.numbers import Numbers
from dashboard.job_list import ACTIVE
from engine import PRESETS, Ruleset
from engine.rules import JUMP_BLOCK_VALUES, JUMP_VALUES
from sim.bots.spec import BOTS
from sim.report import fmt
from sim.report.names import ANIMALS, animal_letter, animal_name, display_letter
from sim.stats.games import distinct_values
from sim.storage.reading import open_dataset
from sim.storage.records import STATUSES
from sim.storage.schema import REASONS, WINNERS
from tests.support import APP, ROOT
from tests.support.procs import WAIT
from tests.support.texts import latin_words, visible_texts

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
# Words in Latin letters that a Chinese page may show: names of methods and units, the
# language selector's own names, the letters of the pentanomial table, the stored name of
# a person; data (rules specs, bot specs, batch ids) is added from the dataset.
KEPT_WORDS = {
    "FEN", "Elo", "LOS", "MiB", "UCT", "alpha", "beta", "Bradley", "Terry", "Mann", "Whitney",
    "Kruskal", "Wallis", "Holm", "English", "Português", "LL", "LD", "DD", "WL", "WD", "WW",
    "human", "CSV", "JSON", "Parquet",
}  # fmt: skip


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_every_key_with_the_same_fields(lang):
    en, other = catalogue("en"), catalogue(lang)
    assert set(en) - set(other) == set(), f"missing in {lang}"
    assert set(other) - set(en) == set(), f"not in English ({lang})"
    for key, template in en.items():
        assert bool(other[key].strip()) == bool(template.strip()), f"{lang}: {key} is empty"
        assert _fields(other[key]) == _fields(template), f"{lang}: {key} names other fields"


def test_the_vocabulary_of_the_engine_and_the_simulator_has_texts():
    keys = set(catalogue("en"))
    wanted = {f"option.{f.name}" for f in fields(Ruleset)}
    wanted |= {f"optval.{v}" for v in (*JUMP_VALUES, *JUMP_BLOCK_VALUES)}
    wanted |= {f"rules.preset_{name}" for name in PRESETS}
    wanted |= {f"reason.{r}" for r in (*REASONS, "other")}  # resign is one of them
    wanted |= {f"side.{w}" for w in WINNERS}
    wanted |= {f"status.{s}" for s in (*STATUSES, *ACTIVE, "interrupted")}
    for kind, (_, params) in BOTS.items():
        wanted.add(f"botkind.{kind}")
        for p in params:
            wanted |= {f"botparam.{p.name}", f"bothelp.{kind}.{p.name}"}
            wanted |= {f"optval.{c}" for c in p.choices}
    wanted |= {f"nav.{page}" for page in ("overview", "compare", "bots", "games", "play",
                                          "simulate")}  # fmt: skip
    assert wanted - keys == set()


def test_animal_names_are_the_ones_the_rules_page_gives():
    rows = re.findall(r"^\| (\w+) \| (\S) \| (\S+) \| ([A-Z]) \|", (ROOT / "docs" / "rules.md")
                      .read_text(encoding="utf-8"), re.M)  # fmt: skip
    assert len(rows) == 8
    for english, chinese, portuguese, letter in rows:
        animal = english.lower()
        assert animal in ANIMALS
        assert animal_name(animal, "en") == english
        assert animal_name(animal, "zh") == chinese
        assert animal_name(animal, "pt") == portuguese
        assert animal_letter(animal) == letter
    assert [animal_name("wolf", lang, fox=True) for lang in LANGUAGES] == ["Fox", "狐", "Raposa"]
    assert animal_name("wolf", "xx") == "Wolf" and animal_name(12, "zh") == "狼"
    assert (display_letter("W", True), display_letter("w", True), display_letter("w")) == (
        "F", "f", "w",
    )  # fmt: skip
    assert display_letter("l", True) == "l" and animal_letter("elephant", True) == "E"


def test_numbers_are_written_for_each_language():
    en, zh, pt = Numbers("en"), Numbers("zh"), Numbers("pt")
    for n in (en, zh):
        assert n.count(1234567) == fmt.count(1234567) == "1,234,567"
        assert n.pct_interval(0.481, 0.523).endswith(fmt.interval(0.481, 0.523))
    assert en.pct_interval(0.481, 0.523) == fmt.pct_interval(0.481, 0.523)
    assert en.p_value(0.0004) == fmt.p_value(0.0004)
    assert (pt.count(1234567), pt.num(1234.5), pt.pct(0.5234)) == ("1.234.567", "1.234,5", "52,3%")
    assert pt.pct_interval(0.481, 0.523) == "IC 95% [48,1%; 52,3%]"
    assert zh.pct_interval(0.481, 0.523) == "95%置信区间 [48.1%, 52.3%]"
    assert pt.p_value(0.031) == "p = 0,031" and pt.p_value(None) == "p = -"
    assert pt.wdl(1079, 90, 31) == "1.079 / 90 / 31" and pt.signed(-1234.25, 2) == "-1.234,25"
    assert pt.pts(0.032) == "+3,2 p.p." and en.pts(0.032) == "+3.2 pts"
    assert pt.interval(-12, 40, "signed", 0) == "[-12; +40]" and pt.count(None) == "-"
    assert (pt.plotly_separators, en.plotly_separators) == (",.", ".,")


def test_notes_and_results_in_each_language():
    assert translate_note("zh", "no games for: datou") == "以下规则没有对局：datou。"
    note = "the bots form 2 groups that never met; ratings compare only within a group; " \
        "the fit did not converge"  # fmt: skip
    assert translate_note("pt", note) == (
        "Os bots formam 2 grupos que nunca se defrontaram; as classificações só se comparam "
        "dentro de cada grupo. O ajuste não convergiu."
    )
    assert translate_note("en", "something new") == "something new"
    assert text("zh", "result.win", side="红方", reason="走入兽穴") == "红方胜（走入兽穴）"


def test_the_language_comes_from_the_browser_when_the_url_has_none():
    assert [language_from_locale(x) for x in ("zh-CN", "pt_BR", "pt", "fr-FR", None, "")] == [
        "zh", "pt", "pt", "en", "en", "en",
    ]  # fmt: skip


def _every_page_texts(at: AppTest) -> list[str]:
    """The texts of every page, in the states where more appear (details, a replay at a
    capture, a Play game with a selection and a move, both kinds of searching bots)."""
    texts = visible_texts(at)
    at.toggle(key="overview_details").set_value(True).run()
    texts += visible_texts(at)
    for page in ("compare", "bots", "games", "play", "simulate"):
        at.switch_page(f"views/{page}.py").run()
        assert not at.exception, (page, [e.value for e in at.exception])
        texts += visible_texts(at)
        if page == "games":
            end = next(b for b in at.button if b.key and b.key.endswith("_end"))
            end.click().run()
            texts += visible_texts(at)
        elif page == "play":
            for square in ("sq_14", "sq_21", "sq_20"):
                at.button(key=square).click().run()
            texts += visible_texts(at)
            at.button(key="play_resign").click().run()
            texts += visible_texts(at)
        elif page == "simulate":
            at.selectbox(key="sim_red_bot").set_value("alphabeta").run()
            at.selectbox(key="sim_blue_bot").set_value("mcts").run()
            at.number_input(key="sim_games").set_value(3).run()
            at.checkbox(key="sim_swap").check().run()
            at.button(key="sim_launch").click().run()  # refused: odd games with a swap
            texts += visible_texts(at)
    return texts


def _run(monkeypatch: pytest.MonkeyPatch, data, lang: str) -> AppTest:  # noqa: ANN001
    monkeypatch.setenv("DSQ_DATA", str(data))
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    return at


def test_no_page_shows_an_untranslated_text_in_chinese(monkeypatch, fixture_data):
    at = _run(monkeypatch, fixture_data, "zh")
    assert at.sidebar.selectbox(key="lang").value == "zh"
    texts = _every_page_texts(at)
    assert any("对局数" in t for t in texts) and any("象" in t for t in texts)
    with open_dataset(fixture_data) as ds:
        data = distinct_values(ds.con)
    words = set(KEPT_WORDS) | set(PRESETS) | set(BOTS)
    for value in (*data["rules"], *data["bots"], *data["batches"]):
        words |= set(re.findall(r"[A-Za-z_]+", value))
    assert latin_words(texts, words) == {}


def test_no_page_shows_an_english_text_in_portuguese(monkeypatch, fixture_data):
    at = _run(monkeypatch, fixture_data, "pt")
    texts = "\n".join(_every_page_texts(at))
    assert "Partidas jogadas" in texts and "Elefante" in texts
    en, pt = catalogue("en"), catalogue("pt")
    leaks = [
        value for key, value in en.items()
        if value != pt[key] and not _fields(value) and len(value) > 12 and value in texts
    ]  # fmt: skip
    assert leaks == []
