"""Bot filters as people write them: a kind alone names every parameter set of it, a spec
its canonical form; one rule for the SQL selection, the per-bot tables and the ratings
anchor; an empty selection names what the data holds. Real parquet files, real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from sim.bots import parse_bot
from sim.cli import main
from sim.stats.query import Selection, bot_filter, bot_matches, canonical_selection
from sim.stats.synthetic import synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk
from tests.support.procs import dsq_here

AB2 = parse_bot("alphabeta:depth=2").canonical
AB3 = parse_bot("alphabeta:depth=3").canonical
MC = parse_bot("mcts:playouts=200").canonical


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bot-filter-data")
    for bid, bots, n in (("ab2", (AB2, "greedy"), 200), ("ab3", (AB3, "greedy"), 100),
                         ("mc", (MC, "random"), 60)):  # fmt: skip
        write_games_chunk(d, bid, synthetic_table(n, seed=len(bid) + n, batch_id=bid, bots=bots))
    return d


def stats(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[int, str, str]:
    code = main(["stats", "--data", str(data), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def games(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> int:
    code, out, err = stats(capsys, data, "--json", *args)
    assert code == 0, err
    return int(json.loads(out)["general"]["games"])


def test_a_kind_alone_names_every_parameter_set(
    capsys: pytest.CaptureFixture[str], data: Path
) -> None:
    assert games(capsys, data, "--bot", "alphabeta") == 300
    assert games(capsys, data, "--bot", "mcts") == 60
    assert games(capsys, data, "--bot", "alphabeta", "--bot", "mcts") == 360
    assert games(capsys, data, "--bot", "alphabeta", "--colour", "red") == 150
    assert games(capsys, data, "--bot", "alphabeta", "--bot", "greedy", "--between") == 300


def test_a_spec_names_its_canonical_form(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    assert games(capsys, data, "--bot", "alphabeta:depth=2") == 200
    assert games(capsys, data, "--bot", AB2) == 200
    assert games(capsys, data, "--bot", " ALPHABETA:depth=3 ") == 100
    assert games(capsys, data, "--bot", "alphabeta:depth=2", "--bot", "mcts:playouts=200") == 260


def test_per_bot_tables_follow_the_same_rule(
    capsys: pytest.CaptureFixture[str], data: Path
) -> None:
    code, out, err = stats(capsys, data, "--json", "--bot", "alphabeta", "--by", "bot")
    assert code == 0, err
    assert sorted(r["bot"] for r in json.loads(out)["by"]["rows"]) == [AB2, AB3]


def test_sql_and_python_agree(data: Path) -> None:
    """The SQL condition and ``Selection.names`` are one rule: the players the selection
    keeps in SQL are exactly those ``names`` accepts."""
    with open_dataset(data) as ds:
        players = ds.read(
            lambda: sorted(
                {p for row in ds.con.execute("SELECT red, blue FROM games").fetchall() for p in row}
            )  # fmt: skip
        )
        for written in ("alphabeta", "alphabeta:depth=3", "mcts", "greedy", "random"):
            sel = canonical_selection(Selection(bots=(written,), colour="red"))
            cond, params = sel.where()
            got = ds.read(
                lambda c=cond, p=params: {
                    r[0] for r in ds.con.execute(f"SELECT red FROM games WHERE {c}", p).fetchall()
                }
            )
            assert got == {p for p in players if sel.names(p)}, written
            assert got == {p for p in players if bot_matches(bot_filter(written), p)}


def test_kind_values_reach_sql_only_as_parameters() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE t (red VARCHAR)")
    con.execute("INSERT INTO t VALUES ('x'' OR 1=1 --'), ('greedy')")
    sel = Selection(bots=("greedy",), colour="red", humans=True, voids=True)  # t: no plies
    cond, params = sel.where()
    assert "greedy" not in cond
    assert con.execute(f"SELECT red FROM t WHERE {cond}", params).fetchall() == [("greedy",)]


def test_an_empty_selection_names_what_exists(
    capsys: pytest.CaptureFixture[str], data: Path
) -> None:
    code, out, err = stats(capsys, data, "--bot", "alphabeta:depth=4")
    assert code == 2 and out == ""
    assert err.strip() == (
        f"dsq stats: error: no games in {data} match the selection (rules: all; bots: "
        "alphabeta (default parameters)); bots in this data: alphabeta:depth=2, "
        "alphabeta:depth=3, greedy, mcts:playouts=200, random; rules in this data: standard"
    )
    code, out, err = stats(capsys, data, "--rules", "yeshou", "--batch", "ab2")
    assert code == 2 and out == ""
    assert "rules: yeshou" in err and "rules in this data: standard" in err
    assert "batches in this data: ab2, ab3, mc" in err
    code, out, err = stats(capsys, data, "--json", "--bot", "mcts:playouts=999")
    assert code == 2 and out == "" and "no games in" in err


def test_an_unknown_bot_is_one_error_line(data: Path) -> None:
    for bad in ("nosuch", "alphabeta:deepth=2", "mcts:playouts=x"):
        r = dsq_here("stats", "--data", str(data), "--bot", bad)  # in this process
        assert r.returncode == 2, bad
        assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert r.stderr.startswith("dsq stats: error: ")


def test_the_anchor_is_named_as_a_filter(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    code, out, err = stats(capsys, data, "--json", "--ratings", "--anchor", "mcts")
    assert code == 0, err
    assert json.loads(out)["ratings"]["anchor"] == MC
    code, out, err = stats(capsys, data, "--json", "--ratings", "--anchor", "alphabeta:depth=3")
    assert code == 0, err
    assert json.loads(out)["ratings"]["anchor"] == AB3
    code, out, err = stats(capsys, data, "--ratings", "--anchor", "alphabeta")
    assert code == 2
    assert "names several rated bots (alphabeta:depth=2, alphabeta:depth=3): name one" in err
    code, out, err = stats(capsys, data, "--ratings", "--anchor", "alphabeta:depth=4")
    assert code == 2
    assert "has no games in the selection; rated bots: alphabeta:depth=2" in err
