"""The dashboard's pages under ``streamlit.testing.v1.AppTest`` on a small real dataset:
what each page shows equals what the statistics layer computes."""

from __future__ import annotations

import json
import re
import shlex
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.i18n import result_text, text
from sim.bots.spec import short_spec
from sim.report import fmt
from sim.stats import compare_rules, general_stats, matchup_table, ratings
from sim.stats.query import Selection
from sim.stats.synthetic import synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.records import request_cancel
from sim.storage.writing import write_games_chunk
from tests.support.apptest import metrics, run_app
from tests.support.dataset import BATCH_IDS, TOTAL_GAMES
from tests.support.procs import WAIT, in_process


def expected_overview(g) -> dict[str, tuple[str, str]]:  # noqa: ANN001
    """The Overview metrics the statistics layer's figures should produce."""
    fp = g.first_player
    return {
        "Games played": (fmt.count(g.games), ""),
        "Red wins": (fmt.count(g.red.count), fmt.pct(g.red.rate)),
        "Blue wins": (fmt.count(g.blue.count), fmt.pct(g.blue.rate)),
        "Draws": (fmt.count(g.draw.count), fmt.pct(g.draw.rate)),
        "Average plies per game": (fmt.num(g.length.mean), ""),
        "Fewest plies": (fmt.count(g.length.min), ""),
        "Most plies": (fmt.count(g.length.max), ""),
        "Median plies": (fmt.num(g.length.median), ""),
        "First-player score": (fmt.pct(fp.score), ""),
        "First-move advantage": (f"{fmt.signed(g.first_move.elo)} Elo", ""),
    }


def test_overview_shows_the_statistics_layers_figures(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data)
    with open_dataset(fixture_data) as ds:
        g = general_stats(ds.con, Selection())
    assert g.games == TOTAL_GAMES
    shown = metrics(at)
    for label, value in expected_overview(g).items():
        assert shown[label][0] == value[0], label
        if value[1]:
            assert shown[label][1] == value[1], label
    text = " ".join(m.value for m in at.markdown)
    assert fmt.pct_interval(g.red.low, g.red.high) in text
    assert fmt.num_interval(g.length.low, g.length.high) in text
    fm = g.first_move
    assert fm.identifiable  # colours swapped, and random against itself
    assert f"fitted together with the bots' strengths: {fmt.signed(fm.elo)} Elo" in text
    assert fmt.p_value(fm.p_value) in text and "against 50%" not in text
    assert len(at.get("plotly_chart")) == 4  # lengths, ends, by rules, first-player score


def test_overview_does_not_test_a_first_move_it_cannot_separate(monkeypatch, tmp_path):
    table = synthetic_table(
        300, rules="datou", batch_id="u", bots=("greedy", "random"), elo={"greedy": 400},
        swap=False, moves=False,
    )  # fmt: skip
    write_games_chunk(tmp_path, "u", table)
    at = run_app(monkeypatch, tmp_path)
    assert metrics(at)["First-move advantage"][0] == "cannot be separated"
    assert any("cannot be separated from the bots' strengths" in i.value for i in at.info)
    shown = " ".join(m.value for m in at.markdown)
    assert "favoured" not in shown and "against 50%" not in shown


def test_overview_follows_the_sidebar_filters(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data)
    at.sidebar.multiselect(key="f_rules").set_value(["datou"]).run()
    with open_dataset(fixture_data) as ds:
        g = general_stats(ds.con, Selection(rules=("datou",)))
    assert metrics(at)["Games played"][0] == fmt.count(g.games) == "40"
    assert metrics(at)["Red wins"][0] == fmt.count(g.red.count)
    at.sidebar.multiselect(key="f_rules").set_value([]).run()
    at.sidebar.multiselect(key="f_batches").set_value(["fx-rr"]).run()
    assert metrics(at)["Games played"][0] == "30"
    at.sidebar.multiselect(key="f_batches").set_value([]).run()
    at.sidebar.multiselect(key="f_bots").set_value(["greedy"]).run()
    at.sidebar.radio(key="f_colour").set_value("blue").run()
    with open_dataset(fixture_data) as ds:
        g = general_stats(ds.con, Selection(bots=("greedy",), colour="blue"))
    assert metrics(at)["Games played"][0] == fmt.count(g.games) == "40"
    assert metrics(at)["Blue wins"][0] == fmt.count(g.blue.count)


def test_filters_with_no_games_give_a_message(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data)
    at.sidebar.multiselect(key="f_batches").set_value(["fx-rr"]).run()
    at.sidebar.multiselect(key="f_rules").set_value(["standard"]).run()
    assert not at.exception
    assert any("No games match" in w.value for w in at.warning)
    assert not at.metric


@pytest.mark.parametrize("page", ["overview", "compare", "bots", "games", "simulate", "studies"])
def test_empty_data_folder_gives_a_clear_empty_state(monkeypatch, tmp_path, page):
    folder = tmp_path / "nothing here"
    at = run_app(monkeypatch, folder, page)
    assert not at.exception
    if page == "simulate":
        assert any("No batches yet" in i.value for i in at.info)
        return
    [info] = [i.value for i in at.info if "No games recorded yet" in i.value or "dsq " in i.value]
    # The command it suggests names the folder, quoted, though $DSQ_DATA names it for the
    # dashboard: it is pasted into another shell.
    command = re.search(r"`(dsq [^`]*)`", info)
    assert command and command.group(1).endswith(f" --data '{folder}'"), info
    named = [w for w in shlex.split(command.group(1)) if w.endswith(".toml")]
    assert all(Path(w).is_absolute() and Path(w).is_file() for w in named), info


def test_corrupt_and_foreign_files_are_reported_not_fatal(monkeypatch, data_copy):
    (data_copy / "games" / "fx-rr" / "part-broken.parquet").write_bytes(b"not parquet at all")
    (data_copy / "batches" / "broken.json").write_text("{ nope", encoding="utf-8")
    at = run_app(monkeypatch, data_copy)
    warnings = " ".join(w.value for w in at.warning)
    assert "part-broken.parquet" in warnings and "broken.json" in warnings
    assert metrics(at)["Games played"][0] == fmt.count(TOTAL_GAMES)
    for page in ("compare", "bots", "games", "simulate"):
        at.switch_page(f"views/{page}.py").run()
        assert not at.exception, page


def test_compare_rules_shows_the_comparison(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data, "compare")
    specs = at.multiselect(key="compare_specs").value
    assert specs == ["datou", "standard", "yeshou"]
    at.multiselect(key="compare_specs").set_value(["datou", "standard"]).run()
    with open_dataset(fixture_data) as ds:
        cmp = compare_rules(ds.con, ["datou", "standard"], Selection())
    # Side by side and the differences are shown transposed: one column per rule set (pair).
    per = next(d.value for d in at.table if "first-player score" in d.value.index).T
    per = per.rename_axis("rules").reset_index()
    for row, want in zip(per.to_dict("records"), cmp.per_rules.to_dict("records"), strict=True):
        assert row["rules"] == want["rules"]
        assert row["games"] == fmt.count(want["games"])
        assert row["first-player score"] == fmt.pct(want["first_score"])
        assert row["score 95% CI"] == fmt.pct_interval(want["first_low"], want["first_high"])
        assert row["mean plies"] == fmt.num(want["mean_plies"])
        assert row["first-move Elo"] == fmt.signed(want["first_move_elo"])
        assert row["first-move p"] == fmt.p_value(want["first_move_p"])
    pairs = next(d.value for d in at.table if d.value.index.name == "A vs B").T
    pairs = pairs.rename_axis("A vs B").reset_index()
    want = cmp.pairs.iloc[0]
    assert pairs.iloc[0]["A vs B"] == f"{want['rules_a']} vs {want['rules_b']}"
    assert pairs.iloc[0]["first-move p (Holm)"] == fmt.p_value(want["first_move_diff_p_holm"])
    assert pairs.iloc[0]["first-move Elo A−B"] == fmt.signed(want["first_move_diff"])
    assert pairs.iloc[0]["length p (Mann–Whitney, Holm)"] == fmt.p_value(want["length_p_holm"])
    design = next(d.value for d in at.table if "balance" in d.value.columns)
    assert list(design["balance"]) == [fmt.pct(v) for v in cmp.per_rules["balance"]]
    assert len(at.get("plotly_chart")) == 2


def test_compare_needs_two_rule_sets(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data)
    at.sidebar.multiselect(key="f_rules").set_value(["yeshou"]).run()
    at.switch_page("views/compare.py").run()
    assert any("at least two rule specs" in i.value for i in at.info)


def test_bots_page_shows_ratings_and_matchups(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data, "bots")
    with open_dataset(fixture_data) as ds:
        r = ratings(ds.con, Selection())
        m = matchup_table(ds.con, Selection())
    table = next(d.value for d in at.table if "rating (logistic Elo)" in d.value.columns)
    assert list(table["bot"]) == [short_spec(b) for b in r.table["bot"]]
    assert list(table["rating (logistic Elo)"]) == [fmt.signed(v, 0) for v in r.table["rating"]]
    assert list(table["± 95%"]) == [fmt.num(v, 0) for v in r.table["error"]]
    results = next(d.value for d in at.table if "LOS" in d.value.columns)
    by_pairs = next(d.value for d in at.table if "pairs" in d.value.columns)
    matchups = results.join(by_pairs.drop(columns=["bot", "opponent"]))
    assert list(matchups["score"]) == [fmt.pct(v) for v in m["score"]]
    cols = (m["elo"], m["elo_error"], m["elo_low"], m["elo_high"])
    assert list(matchups["logistic Elo (95%)"]) == [fmt.elo(*v, 1) for v in zip(*cols, strict=True)]
    nelo = (m["nelo"], m["nelo_low"], m["nelo_high"])
    assert list(matchups["normalized Elo (nElo, 95%)"]) == [
        fmt.elo(e, None, lo, hi, 1) for e, lo, hi in zip(*nelo, strict=True)
    ]
    assert not any("inf" in c for c in matchups["logistic Elo (95%)"])
    assert list(matchups["pairs"]) == [fmt.count(v) for v in m["pairs"]]
    cross = next(d.value for d in at.table if d.value.index.name == "bot \\ opponent")
    row = m[m["bot"] == "greedy"].iloc[0]
    assert cross.loc["greedy", "random"] == f"{fmt.pct(row['score'])} ({fmt.count(row['games'])})"


def test_games_page_replays_a_game_to_its_recorded_result(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data, "games")
    with open_dataset(fixture_data) as ds:
        first = ds.con.execute(
            "SELECT winner, reason, plies FROM games ORDER BY batch_id, game_index LIMIT 1"
        ).fetchone()
    recorded = result_text("en", first[0], first[1])
    assert any(f"Recorded result: {recorded}" in s.value and "agree" in s.value
               for s in at.success)  # fmt: skip
    slider = at.slider[0]
    assert slider.value == 0 and slider.max == first[2]
    fwd = next(b for b in at.button if b.key.endswith("_fwd"))
    fwd.click().run()
    assert at.slider[0].value == 1
    end = next(b for b in at.button if b.key.endswith("_end"))
    end.click().run()
    assert at.slider[0].value == first[2]
    status = [m.value for m in at.markdown if "Final position" in m.value]
    assert status and status[0].endswith(f"Final position: {recorded}**")
    back = next(b for b in at.button if b.key.endswith("_back"))
    back.click().run()
    assert at.slider[0].value == first[2] - 1
    boards = [m.value for m in at.markdown if m.value.startswith("<svg")]
    assert len(boards) == 1 and boards[0].count('class="piece') >= 2
    # The page gives the command that replays this game from the data folder: it agrees.
    command = next(c.value for c in at.code if c.value.startswith("dsq replay --game "))
    code, out, err = in_process(shlex.split(command)[1:])
    assert code == 0 and json.loads(out)["agrees"] is True, err
    assert json.loads(out)["recorded"]["plies"] == first[2]


def test_games_page_filters_by_result(monkeypatch, fixture_data):
    at = run_app(monkeypatch, fixture_data, "games")
    at.multiselect(key="games_winner").set_value(["draw"]).run()
    with open_dataset(fixture_data) as ds:
        draws = ds.con.execute("SELECT count(*) FROM games WHERE winner = 'draw'").fetchone()[0]
    assert any(c.value.startswith(f"{fmt.count(draws)} games") for c in at.caption)
    assert draws > 0
    table = next(d.value for d in at.dataframe if "winner" in d.value.columns)
    assert set(table["winner"]) == {text("en", "side.draw")} and len(table) == draws


def test_simulate_refuses_launches_above_the_limits(monkeypatch, data_copy):
    at = run_app(monkeypatch, data_copy, "simulate", DSQ_DASHBOARD_MAX_DEPTH="3")
    before = sorted(p.name for p in (data_copy / "batches").iterdir())
    at.number_input(key="sim_games").set_value(10).run()
    at.checkbox(key="sim_swap").check().run()
    at.number_input(key="sim_games").set_value(9).run()
    at.button(key="sim_launch").click().run()
    assert any("even" in e.value for e in at.error)
    at.selectbox(key="sim_red_bot").set_value("alphabeta").run()
    depth = at.number_input(key="sim_red_alphabeta_depth")
    assert depth.max == 3
    at.checkbox(key="sim_swap").uncheck().run()
    at.text_input(key="sim_red_alphabeta_values").input("1/2/3").run()
    at.button(key="sim_launch").click().run()
    assert any("values takes 8 whole numbers" in e.value for e in at.error), at.error
    assert sorted(p.name for p in (data_copy / "batches").iterdir()) == before
    assert not (data_copy / ".dashboard").exists()


def test_simulate_launches_a_detached_batch_and_overview_grows(monkeypatch, data_copy):
    at = run_app(monkeypatch, data_copy, "simulate")
    at.selectbox(key="sim_preset").set_value("datou").run()
    at.toggle(key="sim_opt_datou_dog_over_wolf").set_value(True).run()
    assert any("`datou+dog_over_wolf`" in m.value for m in at.markdown)
    at.number_input(key="sim_games").set_value(12).run()
    at.number_input(key="sim_seed").set_value(7).run()
    at.button(key="sim_launch").click().run()
    assert not at.error, [e.value for e in at.error]
    assert any("Launched 1 batch" in s.value for s in at.success)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        at.run()
        texts = [m.value for m in at.markdown]
        if any("**done**" in t and "datou+dog_over_wolf" in t for t in texts):
            break
        time.sleep(0.5)
    else:
        pytest.fail("the launched batch did not finish")
    progress = [p for p in at.get("progress")]
    assert progress
    at.switch_page("views/overview.py").run()
    assert metrics(at)["Games played"][0] == fmt.count(TOTAL_GAMES + 12)
    with open_dataset(data_copy) as ds:
        rows = ds.con.execute(
            "SELECT count(*), min(rules), min(seed) FROM games WHERE rules = 'datou+dog_over_wolf'"
        ).fetchone()
    assert rows[0] == 12
    assert set(BATCH_IDS) <= {b["batch_id"] for b in open_dataset(data_copy).batches}


def _wait_for(at: AppTest, predicate, seconds: float = WAIT) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        at.run()
        if predicate([m.value for m in at.markdown]):
            return
        time.sleep(0.5)
    pytest.fail("the batch list never showed the expected state")


def test_a_running_batch_can_be_cancelled_and_a_new_session_sees_it(monkeypatch, data_copy):
    at = run_app(monkeypatch, data_copy, "simulate")
    # Alpha-beta at depth 2 plays about 50 games a CPU second: the page's most, 20,000 games
    # (400 CPU s), outlast its clicks however loaded the machine (2,000 finished before the
    # cancel once, on two cores running three other searches).
    games = 20_000
    at.selectbox(key="sim_red_bot").set_value("alphabeta").run()
    at.number_input(key="sim_red_alphabeta_depth").set_value(2).run()
    at.number_input(key="sim_games").set_value(games).run()
    at.button(key="sim_launch").click().run()
    launched = next(s.value for s in at.success if "Launched 1 batch" in s.value)
    batch_id = launched.split(": ")[1].split(".")[0]
    try:
        _wait_for(at, lambda texts: any("**running**" in t and batch_id in t for t in texts))
        other = run_app(monkeypatch, data_copy, "simulate")  # a second session finds it
        assert any(batch_id in m.value for m in other.markdown)
        at.button(key=f"cancel_{batch_id}").click().run()
        _wait_for(at, lambda texts: any("**cancelled**" in t and batch_id in t for t in texts))
    finally:
        request_cancel(data_copy, batch_id)  # never leave the batch running after a failure
    with open_dataset(data_copy) as ds:
        rec = next(b for b in ds.batches if b["batch_id"] == batch_id)
        n = ds.con.execute("SELECT count(*) FROM games WHERE batch_id = ?", [batch_id]).fetchone()
    assert rec["status"] == "cancelled" and rec["games_done"] == n[0] < games


def _values(v):  # noqa: ANN001, ANN202
    """A plotly array from a figure spec (plain list or base64 'bdata')."""
    if isinstance(v, dict) and "bdata" in v:
        import base64

        import numpy as np

        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def test_overview_charts_plot_the_statistics_layers_tables(monkeypatch, fixture_data):
    import json

    from dashboard.charts import length_bins
    from sim.stats import den_animals, end_reasons, general_stats, length_histogram

    at = run_app(monkeypatch, fixture_data)
    at.toggle(key="overview_details").set_value(True).run()
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert len(specs) == 7  # lengths, ends, by rules, dens, captures, squares, trend
    with open_dataset(fixture_data) as ds:
        g = general_stats(ds.con, Selection())
        edges = length_bins(g.length.min, g.length.max)
        hist = length_histogram(ds.con, Selection(), bins=edges)
        reasons = end_reasons(ds.con, Selection())
        den = den_animals(ds.con, Selection())
    assert _values(specs[0]["data"][0]["y"]) == hist["games"].tolist()
    # How games end: each reason that occurs, most frequent first, as shares of the games
    by_name = {d["name"]: d for d in specs[1]["data"]}
    shown = reasons[reasons["games"] > 0].sort_values("games", ascending=False, kind="stable")
    total = int(reasons["games"].sum())
    for winner in ("red", "blue", "draw"):
        bars = by_name[text("en", f"side.{winner}")]
        assert _values(bars["x"]) == pytest.approx((shown[winner] / total).tolist())
        assert bars["orientation"] == "h"
    den_spec = {d["name"]: d for d in specs[3]["data"]}
    assert _values(den_spec[text("en", "side.red")]["y"]) == den["red"].tolist()
    assert _values(den_spec[text("en", "side.blue")]["y"]) == den["blue"].tolist()
