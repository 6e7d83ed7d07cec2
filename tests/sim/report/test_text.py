"""The text and JSON renderings of ``dsq stats`` on a small real dataset (synthetic games
written as parquet, read through DuckDB): every figure shown is the statistics layer's
value written by :mod:`sim.report.fmt`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sim.stats as st
from engine.errors import DsqError
from sim.bots.spec import short_spec
from sim.commands.stats import collect, parse_request
from sim.report import fmt
from sim.report.bots_text import bot_text, matchup_text, ratings_text
from sim.report.jsonable import jsonable, stats_json
from sim.report.text import by_text, compare_text, details_text, general_text, stats_text
from sim.stats.query import Selection
from sim.stats.synthetic import rows_table, synthetic_table
from sim.storage.reading import Dataset, open_dataset
from sim.storage.writing import write_games_chunk

BOTS = ("alphabeta:depth=2", "random")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("report-data")
    write_games_chunk(d, "std", synthetic_table(400, rules="standard", seed=3, batch_id="std",
                                                bots=BOTS))  # fmt: skip
    write_games_chunk(d, "yes", synthetic_table(300, rules="yeshou", seed=4, batch_id="yes",
                                                bots=BOTS, first_player_elo=60))  # fmt: skip
    return d


@pytest.fixture(scope="module")
def ds(data: Path) -> Iterator[Dataset]:
    with open_dataset(data) as opened:
        yield opened


def lines_starting(text: str, first_cell: str) -> list[list[str]]:
    """The rows of a table whose first cell is ``first_cell``, split on two spaces."""
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().split("  ") if c.strip()]
        if cells and cells[0] == first_cell:
            out.append(cells)
    return out


def test_general_text_shows_the_statistics_layers_figures(ds: Dataset) -> None:
    g = st.general_stats(ds.con, Selection())
    reasons = st.end_reasons(ds.con, Selection())
    text = general_text(g, reasons, 0.95)
    assert text.splitlines()[0].split() == ["result", "games", "share", "95%", "CI"]
    red = text.splitlines()[1]
    for part in (fmt.count(g.red.count), fmt.pct(g.red.rate), fmt.interval(g.red.low, g.red.high)):
        assert part in red
    fp = g.first_player
    assert (
        f"first-player score  {fmt.num(fp.score, 3)} {fmt.interval(fp.low, fp.high, fmt.num, 3)}"
        in text
    )
    fm = g.first_move
    (line,) = [x for x in text.splitlines() if x.startswith("first-move advantage")]
    assert line.startswith(
        f"first-move advantage {fmt.signed(fm.elo, 1)} "
        f"{fmt.interval(fm.elo_low, fm.elo_high, fmt.signed, 1)} Elo"
    )
    assert f"z = {fmt.num(fm.z, 2)}, {fmt.p_value(fm.p_value)}" in line
    assert "favoured" not in text.replace(line, "")  # the raw score carries no verdict
    assert (
        f"mean {fmt.num(g.length.mean)} {fmt.interval(g.length.low, g.length.high, fmt.num)}"
        in text
    )
    every = general_text(g, reasons, 0.95, every_reason=True)
    for r in reasons.to_dict("records"):
        rows = lines_starting(text, r["reason"])
        assert len(rows) == (1 if r["games"] else 0)  # the reasons that occur; all with details
        (row,) = lines_starting(every, r["reason"])
        assert row[1:4] == [fmt.count(r["games"]), fmt.pct(r["share"]),
                            fmt.interval(r["low"], r["high"])]  # fmt: skip
    assert "99% CI" in general_text(st.general_stats(ds.con, Selection(), 0.99), reasons, 0.99)


def test_by_rules_and_compare(ds: Dataset) -> None:
    by = st.general_stats_by(ds.con, Selection(), "rules")
    text = by_text(by, "rules")
    for r in by.to_dict("records"):
        (row,) = lines_starting(text, r["rules"])
        assert row[1] == fmt.count(r["games"]) and fmt.p_text(r["first_move_p"]) in row
    c = st.compare_rules(ds.con, ["standard", "yeshou"], Selection())
    text = compare_text(c)
    pair = c.pairs.iloc[0]
    (row,) = lines_starting(text, "standard - yeshou")
    assert row[1] == (
        f"{fmt.signed(pair['first_diff'], 3)} "
        f"{fmt.interval(pair['first_diff_low'], pair['first_diff_high'], fmt.signed, 3)}"
    )
    lo, hi = pair["first_move_diff_low"], pair["first_move_diff_high"]
    assert row[2:4] == [
        f"{fmt.signed(pair['first_move_diff'], 1)} {fmt.interval(lo, hi, fmt.signed, 1)}",
        fmt.p_text(pair["first_move_diff_p"]),
    ]
    assert row[4] == (
        f"{fmt.pts(pair['draw_diff'], 1, ' pts')} "
        f"{fmt.interval(pair['draw_diff_low'], pair['draw_diff_high'], fmt.pts)}"
    )
    assert "Kruskal-Wallis" in text and fmt.p_value(c.omnibus["length_kruskal"]["p"]) in text


def test_bot_tables(ds: Dataset) -> None:
    m = st.matchup_table(ds.con, Selection())
    text = matchup_text(m)
    for r in m.to_dict("records"):
        (row,) = lines_starting(text, short_spec(r["bot"]))
        assert row[2:6] == [
            fmt.count(r["games"]),
            fmt.wdl(r["wins"], r["draws"], r["losses"]),
            fmt.num(r["score"], 3),
            fmt.elo(r["elo"], r["elo_error"], r["elo_low"], r["elo_high"]),
        ]
    assert "logistic Elo" in text and "normalized Elo" in text and "inf" not in text
    b = st.bot_table(ds.con, Selection())
    rnd = b.set_index("bot").loc["random"]
    assert lines_starting(bot_text(b), "random")[0][5] == fmt.elo(
        rnd["elo"], rnd["elo_error"], rnd["elo_low"], rnd["elo_high"]
    )
    r = st.ratings(ds.con, Selection(), anchor="random")
    text = ratings_text(r)
    assert text.startswith(
        "Bradley-Terry ratings (logistic Elo scale, anchor random = 0, 95% intervals"
    )
    assert " ± " in text and "+-" not in text
    best = r.table.iloc[0]
    (row,) = lines_starting(text, "1")
    assert row[1:3] == [short_spec(best["bot"]), fmt.signed(best["rating"])]


def test_details(ds: Dataset) -> None:
    den = st.den_animals(ds.con, Selection())
    text = details_text(den, st.capture_matrix(ds.con, Selection()),
                        st.capture_squares(ds.con, Selection()))  # fmt: skip
    assert text.splitlines()[0] == "den entered by (winner's animal)"
    first = den.iloc[0]
    (row,) = lines_starting(text, first["animal"])[:1]
    assert row[1:] == [fmt.count(first["red"]), fmt.count(first["blue"]),
                       fmt.count(first["total"]), fmt.pct(first["share"])]  # fmt: skip
    assert "captures by square (rank 9 at the top)" in text


def request(data: Path, *args: str) -> Any:
    from sim.cli import build_parser

    return parse_request(build_parser("stats").parse_args(["stats", "--data", str(data), *args]))


def test_the_whole_report_is_plain_ascii_with_every_section(data: Path) -> None:
    out = collect(request(data, "--by", "matchup", "--ratings", "--details",
                          "--compare", "standard,yeshou"))  # fmt: skip
    text = stats_text(out)
    assert text.replace("±", "").isascii()  # plain ASCII but for the ± of an error
    assert "+-" not in text
    assert text.startswith("rule sets compared: standard, yeshou (")  # no pooled overview
    assert "first-player score" not in text
    sections = text.split("\n\n")
    assert any(s.startswith("by matchup:") for s in sections)
    assert any(s.startswith("rule sets compared:") for s in sections)
    assert any(s.startswith("Bradley-Terry") for s in sections)
    assert "nan" not in text.lower()
    overview = stats_text(collect(request(data, "--by", "matchup")))
    assert overview.startswith(f"{fmt.count(out['general'].games)} games in {data}  (")
    assert "first-player score" in overview


def test_no_games_for_the_selection(data: Path) -> None:
    with pytest.raises(DsqError) as caught:
        collect(request(data, "--rules", "datou"))
    assert str(caught.value) == (
        f"no games in {data} match the selection (rules: datou; bots: all); "
        "bots in this data: alphabeta:depth=2, random; rules in this data: standard, yeshou"
    )


def test_json_is_plain_and_strict(data: Path) -> None:
    out = collect(request(data, "--json", "--by", "rules", "--details"))
    obj = stats_json(out)
    text = json.dumps(obj, allow_nan=False)  # NaN and infinities became null
    back = json.loads(text)
    general = back["general"]  # yeshou's games within 10 rounds are void, counted apart
    assert general["games"] + general["void"] == 700 and general["void"] > 0
    assert back["by"]["key"] == "rules"
    assert [r["rules"] for r in back["by"]["rows"]] == ["standard", "yeshou"]
    assert len(back["details"]["capture_matrix"]["animals"]) == 8


def test_jsonable_values() -> None:
    import numpy as np
    import pandas as pd

    assert jsonable({"a": np.int64(3), 1: [np.float32(0.5), float("nan"), float("-inf")]}) == {
        "a": 3, "1": [0.5, None, None]
    }  # fmt: skip
    assert jsonable(pd.DataFrame({"x": [1, 2]})) == [{"x": 1}, {"x": 2}]
    assert jsonable((pd.NA, np.array([1, 2]))) == [None, [1, 2]]
    assert jsonable(Selection(rules=("standard",)))["rules"] == ["standard"]


def test_a_sweep_is_written_and_exported_without_inf(tmp_path: Path) -> None:
    # greedy beats random in every game, both colours: 60 pairs won twice
    rows = [{"batch_id": "sw", "game_index": i, "pair_id": i // 2, "winner": w,
             "red": r, "blue": b}
            for i in range(120)
            for r, b, w in [("greedy", "random", "red") if i % 2 == 0
                            else ("random", "greedy", "blue")]]  # fmt: skip
    write_games_chunk(tmp_path, "sw", rows_table(rows))
    with open_dataset(tmp_path) as opened:
        m = st.matchup_table(opened.con, Selection())
        b = st.bot_table(opened.con, Selection())
    text = matchup_text(m) + "\n" + bot_text(b)
    assert "inf" not in text and "+-" not in text
    (row,) = lines_starting(text, "greedy")[:1]
    assert row[3:6] == ["120-0-0", "1.000", "> +597.9"]
    assert "logistic Elo > +477.5" in text  # the 60 pairs' Wilson bound
    out = json.dumps(jsonable(m), allow_nan=False)  # raises on NaN or inf
    greedy = next(r for r in json.loads(out) if r["bot"] == "greedy")
    assert greedy["elo"] is None and greedy["elo_high"] is None and greedy["elo_low"] > 597
