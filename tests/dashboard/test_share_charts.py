"""How games end as shares with their intervals (Overview and Compare), and the Overview's
rule sets as dots with intervals beside a table shown whole (AppTest on real games)."""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np
import pytest

from dashboard.i18n import reason_name
from sim.stats import Selection, end_reasons, general_stats_by
from sim.storage.reading import open_dataset
from tests.support.apptest import run_app


def _plain(x: Any) -> Any:
    """A figure's JSON with plotly's typed arrays (``{"bdata", "dtype"}``) as lists."""
    if isinstance(x, dict):
        if set(x) >= {"bdata", "dtype"}:
            return np.frombuffer(base64.b64decode(x["bdata"]), dtype=x["dtype"]).tolist()
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x


def _chart(at, key: str) -> dict:  # noqa: ANN001
    [chart] = [c for c in at.get("plotly_chart") if c.proto.id and key in c.proto.id]
    return _plain(json.loads(chart.proto.spec))


def test_how_games_end_shows_the_reasons_that_occur_as_shares_at_the_sidebars_level(
    monkeypatch, fixture_data
):
    at = run_app(monkeypatch, fixture_data)
    at.sidebar.selectbox(key="f_confidence").set_value(90).run()
    assert not at.exception
    with open_dataset(fixture_data) as ds:
        want = end_reasons(ds.con, Selection(), confidence=0.90)
    want = want[want["games"] > 0].sort_values("games", ascending=False, kind="stable")
    traces = _chart(at, "overview_reasons")["data"]
    assert all(t.get("orientation", "h") == "h" or t["type"] == "scatter" for t in traces)
    [interval] = [t for t in traces if t["type"] == "scatter"]
    assert len(interval["y"]) == len(want) < 13  # the reasons that occur, no zero rows
    assert interval["x"] == pytest.approx(list(want["share"]))
    err = interval["error_x"]
    assert [x + e for x, e in zip(interval["x"], err["array"], strict=True)] == pytest.approx(
        list(want["high"])
    )
    assert "90%" in interval["name"]
    bars = [t for t in traces if t["type"] == "bar"]
    total = [sum(t["x"][i] for t in bars) for i in range(len(want))]
    assert total == pytest.approx(list(want["share"]))


def test_compare_shows_shares_of_each_rule_sets_games(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data, "compare")
    specs = at.multiselect(key="compare_specs").value
    traces = _chart(at, "cmp_reasons")["data"]
    assert [t["name"] for t in traces] == specs
    with open_dataset(fixture_data) as ds:
        tables = {spec: end_reasons(ds.con, Selection(rules=(spec,))) for spec in specs}
    occur = {reason_name("en", r) for tb in tables.values() for r in tb["reason"][tb["games"] > 0]}
    for t in traces:
        assert t["orientation"] == "h" and set(t["y"]) == occur  # reasons that occur, all
        got = dict(zip(t["y"], t["x"], strict=True))
        want = {
            reason_name("en", r): s
            for r, s in zip(*tables[t["name"]][["reason", "share"]].T.values, strict=True)
        }
        assert got == pytest.approx({k: want[k] for k in got})  # shares, not counts
        assert t["error_x"]["array"]


def test_by_rules_is_a_chart_of_dots_with_intervals_and_a_whole_table(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data)
    with open_dataset(fixture_data) as ds:
        by = general_stats_by(ds.con, Selection(), by="rules")
    fig = _chart(at, "overview_by_rules_chart")
    score, elo, draws = fig["data"]
    assert score["y"] == list(by["rules"]) == draws["y"]
    assert score["x"] == pytest.approx(list(by["first_score"]))
    assert draws["x"] == pytest.approx(list(by["draw_rate"]))
    lows = [x - e for x, e in zip(draws["x"], draws["error_x"]["arrayminus"], strict=True)]
    assert lows == pytest.approx(list(by["draw_low"]))
    assert elo["error_x"]["array"]
    [table] = [t for t in at.table if "min" in t.value.columns and "max" in t.value.columns]
    assert len(table.value) == len(by)
