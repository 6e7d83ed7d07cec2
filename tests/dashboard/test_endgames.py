"""The Endgames page and the tables in the Games replay, under AppTest on real tables and
a real adjudicated batch; and the page's pure helpers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dashboard.endgames import board_fen, edit_board, heat_grid, shares_table, text, value_text
from dashboard.i18n import side_name
from dashboard.i18n import text as i18n_text
from engine import Position
from engine.errors import DsqError
from sim.batch import make_spec, run_batch
from sim.report.names import animal_name
from sim.storage.reading import open_dataset
from sim.tablebase.analysis import square_heatmap, table_stats
from sim.tablebase.build import build_tables
from sim.tablebase.material import all_materials, parse_material
from sim.tablebase.probe import probe_fen
from sim.tablebase.store import tables_root
from tests.support.apptest import run_app


@pytest.fixture(scope="module")
def tb_dash(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with standard's two-piece tables, LR v e (and its twin), and a batch
    of random games adjudicated by them."""
    data = tmp_path_factory.mktemp("eg") / "data"
    three = [parse_material(m) for m in ("LR v e", "LR v t", "E v cr", "WD v d")]
    build_tables(
        "standard", all_materials(2) + three + [m.swapped() for m in three], tables_root(data)
    )
    spec = make_spec("standard", "random", "random", 400, seed=3, adjudicate="tablebase")
    run_batch(spec, data, batch_id="adj")
    return data


def test_helpers(tb_dash: Path) -> None:
    root = tables_root(tb_dash)
    m = parse_material("L v e")
    counts = square_heatmap("standard", m, 0, 0, root)
    grid = heat_grid(counts, 0, 0)
    assert grid.shape == (9, 7)
    assert np.isnan(grid[0, 3]) and np.isnan(grid[8, 3])  # the dens (d9 on top, d1 below)
    assert np.isnan(grid[4, 1])  # b5: water, no lion there
    assert np.nanmin(grid) >= 0 and np.nanmax(grid) <= 1
    shares = shares_table(table_stats("standard", m, root))
    assert list(shares["to_move"]) == ["red", "blue"]
    assert np.allclose(shares[["red_share", "draw_share", "blue_share"]].sum(axis=1), 1.0)
    fen = "7/7/7/7/7/7/2r4/2L4/5e1 b 0 1"
    assert board_fen(Position(None, fen).board(), "blue") == fen
    moved = edit_board(fen, 0, "L")  # the lion moves to a1 (one of each animal)
    assert moved == "7/7/7/7/7/7/2r4/7/L4e1 b 0 1"
    with pytest.raises(DsqError):
        edit_board(fen, 22, "L")  # b4 is water
    assert value_text("win", 7, "red") == "Red to move wins in 7 plies."
    assert value_text("draw", None, "blue") == text("value_draw")


def test_endgames_page(monkeypatch: pytest.MonkeyPatch, tb_dash: Path) -> None:
    at = run_app(monkeypatch, tb_dash, "endgames")
    assert [t.value for t in at.title] == ["Endgames"]
    at.selectbox(key="eg_material").set_value("LR v e").run()
    assert not at.error, [e.value for e in at.error]
    shown = {m.label: m.value for m in at.metric}
    assert shown["Red to move"].startswith("138,768")
    stats = table_stats("standard", "LR v e", tables_root(tb_dash))
    assert f"**{stats['red_to_move']['longest_win']} plies**" in " ".join(
        x.value for x in at.markdown
    )
    fen = at.text_input(key="eg_fen").value
    answer = probe_fen("standard", fen, tables_root(tb_dash))
    texts = " ".join(x.value for x in at.markdown)
    assert value_text(answer.value, answer.plies, "red") in texts
    assert answer.value == "win" and answer.plies == stats["red_to_move"]["longest_win"]
    at.selectbox(key="eg_place").set_value("R").run()
    at.button(key="eg_sq_30").click().run()  # the rat to c5 (water)
    assert at.text_input(key="eg_fen").value != fen
    assert "R" == Position(None, at.text_input(key="eg_fen").value).piece_at("c5")
    at.radio(key="eg_side").set_value("blue").run()
    assert at.text_input(key="eg_fen").value.split()[1] == "b"
    at.selectbox(key="eg_place").set_value("L").run()
    at.button(key="eg_sq_22").click().run()  # a lion into the water: refused
    assert any("only a rat" in e.value for e in at.error)
    at.text_input(key="eg_rules").set_value("nonsense").run()
    assert any("nonsense" in e.value for e in at.error)
    at.text_input(key="eg_rules").set_value("datou").run()
    [info] = [i.value for i in at.info if "No tables" in i.value]
    assert f"`dsq tablebase build --rules datou --pieces 3 --data {tb_dash}`" in info
    at.text_input(key="eg_build").set_value("R v r").run()
    at.button(key="eg_build_go").click().run()
    assert any("Built 1 table (" in s.value for s in at.success)
    assert {m.label: m.value for m in at.metric}["Red to move"].startswith("3,660")


def test_games_replay_shows_the_tables(monkeypatch: pytest.MonkeyPatch, tb_dash: Path) -> None:
    with open_dataset(tb_dash) as ds:
        n = ds.con.sql("select count(*) from games where reason = 'tablebase'").fetchall()[0][0]
    assert n > 0
    at = run_app(monkeypatch, tb_dash, "games")
    at.multiselect(key="games_reason").set_value(["tablebase"]).run()
    assert any("they agree" in s.value for s in at.success), [s.value for s in at.success]
    slider = next(s for s in at.slider if s.key.startswith("ply_"))
    slider.set_value(slider.max).run()
    assert any("Tables: " in x.value for x in at.markdown)


@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_the_board_and_the_pickers_speak_the_page_s_language(
    monkeypatch: pytest.MonkeyPatch, tb_dash: Path, lang: str
) -> None:
    at = run_app(monkeypatch, tb_dash, "endgames")
    at.selectbox(key="eg_material").set_value("LR v e").run()
    # (the last run: AppTest formats a picker's value in English outside the page)
    at.sidebar.selectbox(key="lang").set_value(lang).run()
    svg = next(m.value for m in at.markdown if m.value.startswith("<svg"))
    lion = animal_name("lion", lang)
    assert f">{i18n_text(lang, 'board.den')}<" in svg and f">{lion}<" in svg
    assert ">DEN<" not in svg and ">trap<" not in svg and ">Lion<" not in svg
    red_lion = i18n_text(lang, "board.piece", side=side_name(lang, "red"), animal=lion)
    assert f"L · {red_lion}" in at.selectbox(key="eg_place").options
    assert red_lion in at.selectbox(key="eg_piece").options


def test_build_shows_the_new_tables_at_once_under_the_rules_as_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    at = run_app(monkeypatch, tmp_path / "data", "endgames")
    caption = " ".join(c.value for c in at.caption)
    assert "Tables of `standard` in" in caption and ": 0 materials." in caption
    assert "no_capture_plies" not in caption
    at.text_input(key="eg_build").set_value("R v r").run()
    at.button(key="eg_build_go").click().run()
    assert any("Built 1 table (" in s.value for s in at.success)
    caption = " ".join(c.value for c in at.caption)
    assert ": 1 material." in caption and "0 materials" not in caption  # at once
    assert at.selectbox(key="eg_material").value == "R v r"
    assert {m.label: m.value for m in at.metric}["Red to move"].startswith("3,660")
