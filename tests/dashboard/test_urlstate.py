"""The view in the URL (dashboard.urlstate) under AppTest on the real fixture dataset: a
link's parameters restore the sidebar filters, the confidence level and the page settings;
the values chosen are written back; values not valid any more are dropped without an
error; the temporary batch filter the Play page sets is shown and cleared on leaving the
Games page."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.i18n import text
from dashboard.i18n.numbers import Numbers
from dashboard.urlstate import MAX_CHARS, Kept
from engine.board import square_index
from sim.report import fmt
from sim.stats import general_stats
from sim.stats.query import Selection
from sim.storage.reading import open_dataset
from tests.support import APP
from tests.support.apptest import metrics
from tests.support.dataset import TOTAL_GAMES
from tests.support.procs import WAIT


def open_link(monkeypatch: pytest.MonkeyPatch, data, view: str | None = None,  # noqa: ANN001
              **params: str | list[str]) -> AppTest:  # fmt: skip
    """The app as a new browser tab opening a link to ``view`` with these query parameters."""
    monkeypatch.setenv("DSQ_DATA", str(data))
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    for name, value in params.items():
        at.query_params[name] = value
    if view:
        at.switch_page(f"views/{view}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def url(at: AppTest) -> dict[str, list[str]]:
    """The app's query parameters after its last run (each as its list of values)."""
    return {k: [v] if isinstance(v, str) else list(v) for k, v in at.query_params.items()}


def test_a_link_restores_the_sidebar_filters_and_the_confidence(monkeypatch, fixture_data):
    at = open_link(
        monkeypatch, fixture_data, rules="datou", bots=["random", "greedy"], between="1",
        colour="red", humans="1", min_plies="1", no_adjudicated="yes", confidence="90",
    )  # fmt: skip
    sb = at.sidebar
    assert sb.multiselect(key="f_rules").value == ["datou"]
    assert sb.multiselect(key="f_bots").value == ["random", "greedy"]
    assert sb.checkbox(key="f_between").value and sb.radio(key="f_colour").value == "red"
    assert sb.checkbox(key="f_humans").value and sb.checkbox(key="f_min_plies").value
    assert sb.checkbox(key="f_no_adjudicated").value
    assert sb.selectbox(key="f_confidence").value == 90
    sel = Selection(rules=("datou",), bots=("random", "greedy"), between=True, colour="red",
                    min_plies=20, humans=True, adjudicated=False)  # fmt: skip
    with open_dataset(fixture_data) as ds:
        g = general_stats(ds.con, sel, confidence=0.90)
    assert metrics(at)["Games played"][0] == fmt.count(g.games)
    shown = " ".join(m.value for m in at.markdown)
    assert Numbers("en", 0.90).pct_interval(g.red.low, g.red.high) in shown
    assert "90% CI" in shown and "95% CI" not in shown
    assert "with 90% intervals" in at.caption[0].value
    # The URL names what the sidebar shows, and nothing at its default.
    assert url(at) == {
        "lang": ["en"], "rules": ["datou"], "bots": ["random", "greedy"], "between": ["1"],
        "colour": ["red"], "humans": ["1"], "min_plies": ["1"], "no_adjudicated": ["1"],
        "confidence": ["90"],
    }  # fmt: skip


def test_choices_are_written_back_and_a_copied_link_opens_the_same_view(monkeypatch, fixture_data):
    at = open_link(monkeypatch, fixture_data, view="compare")
    at.sidebar.checkbox(key="f_humans").check().run()
    at.sidebar.selectbox(key="f_confidence").set_value(99).run()
    at.multiselect(key="compare_specs").set_value(["datou", "yeshou"]).run()
    assert not at.exception
    link = url(at)
    assert link["humans"] == ["1"] and link["confidence"] == ["99"]
    assert link["compare"] == ["datou", "yeshou"]
    again = open_link(monkeypatch, fixture_data, "compare", **link)
    assert again.sidebar.checkbox(key="f_humans").value
    assert again.sidebar.selectbox(key="f_confidence").value == 99
    assert again.multiselect(key="compare_specs").value == ["datou", "yeshou"]
    assert url(again) == link
    assert text("en", "compare.col_score_ci", level="99%") in again.table[0].value.index
    # Leaving the page drops its settings from the URL; the sidebar's stay.
    again.switch_page("views/overview.py").run()
    assert "compare" not in url(again) and url(again)["confidence"] == ["99"]


def test_the_games_page_settings_are_kept(monkeypatch, fixture_data):
    at = open_link(monkeypatch, fixture_data, view="games")
    at.multiselect(key="games_winner").set_value(["red"]).run()
    at.selectbox(key="games_pick").set_value(2).run()
    link = url(at)
    assert link["winner"] == ["red"] and link["game"] == ["2"]
    again = open_link(monkeypatch, fixture_data, "games", **link)
    assert again.multiselect(key="games_winner").value == ["red"]
    assert again.selectbox(key="games_pick").value == 2


def test_values_not_valid_any_more_are_dropped_without_an_error(monkeypatch, fixture_data):
    at = open_link(
        monkeypatch, fixture_data, rules=["datou", "no-such-rules"], bots="x" * 100_000,
        batches="fx-swap-2,gone", confidence="42", colour="purple", humans="maybe",
        compare="standard", page="-3", game="9999", study="nope",
    )  # fmt: skip
    sb = at.sidebar
    assert sb.multiselect(key="f_rules").value == ["datou"]
    assert sb.multiselect(key="f_bots").value == []
    assert sb.multiselect(key="f_batches").value == ["fx-swap-2"]
    assert sb.selectbox(key="f_confidence").value == 95
    assert not sb.checkbox(key="f_humans").value
    assert not at.error and not at.warning
    assert url(at) == {"lang": ["en"], "rules": ["datou"], "batches": ["fx-swap-2"]}


def test_a_many_valued_hostile_link_is_bounded(monkeypatch, fixture_data):
    many = [f"b{i}" for i in range(5000)] + ["fx-rr"]
    at = open_link(monkeypatch, fixture_data, batches=",".join(many), rules=["y" * MAX_CHARS * 3])
    assert at.sidebar.multiselect(key="f_batches").value == []  # too long: not read at all
    assert at.sidebar.multiselect(key="f_rules").value == []
    assert metrics(at)["Games played"][0] == fmt.count(TOTAL_GAMES)


def test_the_encoding_round_trips():
    kinds = [
        (Kept("k", "p", "list", options=("a", "b,c")), ["b,c", "a"]),
        (Kept("k", "p", "list", options=("x", "y"), comma=True), ["y", "x"]),
        (Kept("k", "p", "bool", default=False), True),
        (Kept("k", "p", "int", default=1, low=1, high=9), 7),
        (Kept("k", "p", "choice", default=0, options=range(4)), 3),
        (Kept("k", "p", "str", default="standard"), "datou+tiger_jump=none"),
    ]
    for kept, value in kinds:
        assert kept.decode(kept.encode(value)) == (True, value), kept
        assert kept.encode(kept.default) is None
    assert Kept("k", "p", "int", low=1, high=9).decode(["10"]) == (False, None)
    assert Kept("k", "p", "str", valid=int).decode(["x"]) == (False, None)


def test_the_play_pages_batch_filter_is_shown_and_cleared_on_leaving(monkeypatch, data_copy):
    at = open_link(monkeypatch, data_copy, batches="fx-rr")  # the person's own filter
    at.switch_page("views/play.py").run()
    at.text_input(key="play_fen").input("6t/3L3/7/7/7/7/7/7/l6 r 0 1").run()
    at.button(key="play_new").click().run()
    for square in ("d8", "d9"):
        at.button(key=f"sq_{square_index(square)}").click().run()
    at.button(key="play_save").click().run()
    batch_id = next(s.value for s in at.success if "Saved as batch" in s.value).split("`")[1]
    at.button(key="play_open_saved").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Games"
    assert at.sidebar.multiselect(key="f_batches").value == [batch_id]
    note = text("en", "filters.temporary", batches=batch_id, why=text("en", "play.temporary_why"))
    assert [i.value for i in at.sidebar.info] == [note]
    assert url(at)["batches"] == [batch_id]
    at.switch_page("views/overview.py").run()  # leaving the Games page clears it
    assert at.sidebar.multiselect(key="f_batches").value == ["fx-rr"]
    assert not at.sidebar.info and url(at)["batches"] == ["fx-rr"]
    assert metrics(at)["Games played"][0] != fmt.count(0)


def test_the_temporary_filter_can_be_cleared_by_hand(monkeypatch, data_copy):
    at = open_link(monkeypatch, data_copy, view="play")
    at.text_input(key="play_fen").input("6t/3L3/7/7/7/7/7/7/l6 r 0 1").run()
    at.button(key="play_new").click().run()
    for square in ("d8", "d9"):
        at.button(key=f"sq_{square_index(square)}").click().run()
    at.button(key="play_save").click().run()
    at.button(key="play_open_saved").click().run()
    at.sidebar.button(key="f_temporary_clear").click().run()
    assert at.sidebar.multiselect(key="f_batches").value == []
    assert not at.sidebar.info and "batches" not in url(at)


def test_the_launch_forms_settings_are_kept(monkeypatch, tmp_path):
    at = open_link(monkeypatch, tmp_path / "data", view="simulate")
    at.selectbox(key="sim_preset").set_value("datou").run()
    at.selectbox(key="sim_red_bot").set_value("alphabeta").run()
    at.number_input(key="sim_red_alphabeta_depth").set_value(3).run()
    at.number_input(key="sim_games").set_value(50).run()
    at.checkbox(key="sim_swap").check().run()
    link = url(at)
    assert link["sim_preset"] == ["datou"] and link["sim_games"] == ["50"]
    again = open_link(monkeypatch, tmp_path / "data", "simulate", **link)
    assert again.selectbox(key="sim_preset").value == "datou"
    assert again.selectbox(key="sim_red_bot").value == "alphabeta"
    assert again.number_input(key="sim_red_alphabeta_depth").value == 3
    assert again.number_input(key="sim_games").value == 50
    assert again.checkbox(key="sim_swap").value
    assert url(again) == link
