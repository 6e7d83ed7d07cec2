"""Downloads: the selected games in bounded parts (text, CSV, JSON lines, parquet), every
table as CSV, and the Overview's first-player score by batch or day. The files are read
from Streamlit's own media storage, as a click hands them over."""

from __future__ import annotations

import csv
import io
import json
import threading
import tracemalloc

import pyarrow.parquet as pq
import pytest

from dashboard import downloads
from sim.records import gameexport
from sim.records.gameexport import export_games, export_parquet
from sim.stats import general_stats
from sim.stats.firstplayer import first_player_by_batch, first_player_by_day
from sim.stats.query import Selection
from sim.stats.synthetic import synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk
from tests.support.apptest import run_app
from tests.support.dataset import BATCH_IDS, TOTAL_GAMES
from tests.support.media import MediaRecorder
from tests.support.procs import in_process


@pytest.fixture
def media(monkeypatch: pytest.MonkeyPatch) -> MediaRecorder:
    return MediaRecorder().install(monkeypatch)


def _all_rows(data, sql="SELECT * FROM games ORDER BY batch_id, game_index"):  # noqa: ANN001, ANN202
    with open_dataset(data) as ds:
        return ds.con.sql(sql).to_arrow_table().to_pylist()


def test_games_page_downloads_the_shown_game_and_the_selection(monkeypatch, fixture_data, media):
    at = run_app(monkeypatch, fixture_data, "games")
    at.multiselect(key="games_winner").set_value(["draw"]).run()
    assert not at.exception
    with open_dataset(fixture_data) as ds:
        [(draws, first)] = ds.con.execute(
            "SELECT count(*), min(batch_id || ':' || game_index) FROM games WHERE winner = 'draw'"
        ).fetchall()
    records = media.button_file(at, "games_download").decode()
    assert records.count('[Result "1/2-1/2"]') == draws and '[Result "1-0"]' not in records
    at.selectbox(key="games_download_fmt").set_value("jsonl").run()
    lines = media.button_file(at, "games_download").decode().splitlines()
    assert [json.loads(x)["winner"] for x in lines] == ["draw"] * draws
    batch, index = first.rsplit(":", 1)
    keys = [b.key for b in at.get("download_button")]
    shown = next(k for k in keys if k.startswith("ply_") and k.endswith("_download"))
    game = media.button_file(at, shown).decode()
    assert game.startswith(f'[Batch "{batch}"]\n[Index "{index}"]')


def test_the_selection_downloads_in_parts_that_add_up_to_its_rows(monkeypatch, fixture_data, media):
    monkeypatch.setitem(downloads.PART_GAMES, "csv", 25)
    at = run_app(monkeypatch, fixture_data, "games")
    at.selectbox(key="games_download_fmt").set_value("csv").run()
    parts = downloads.part_count(TOTAL_GAMES, "csv")
    assert parts == 5
    got: list[list[str]] = []
    for part in range(1, parts + 1):
        at.number_input(key="games_download_part").set_value(part).run()
        [button] = [b for b in at.get("download_button") if b.key == "games_download"]
        first, last = (part - 1) * 25 + 1, min(TOTAL_GAMES, part * 25)
        assert button.label == f"Download games {first}–{last} of {TOTAL_GAMES}"
        rows = list(csv.reader(io.StringIO(media.button_file(at, "games_download").decode())))
        assert len(rows) == 1 + last - first + 1
        got += rows if part == 1 else rows[1:]
    whole = io.StringIO()
    with open_dataset(fixture_data) as ds:
        export_games(ds.con, Selection(humans=True), "csv", whole)
    assert got == list(csv.reader(io.StringIO(whole.getvalue())))
    command = " ".join(c.value for c in at.code)
    assert f"dsq games export --format csv --humans --data {fixture_data} > games.csv" in command
    assert any("at most 25 games" in c.value for c in at.caption)


def test_the_parquet_download_holds_the_selected_rows_as_stored(monkeypatch, fixture_data, media):
    at = run_app(monkeypatch, fixture_data, "games")
    at.multiselect(key="games_reason").set_value(["den"]).run()
    at.selectbox(key="games_download_fmt").set_value("parquet").run()
    table = pq.read_table(io.BytesIO(media.button_file(at, "games_download")))
    expected = _all_rows(
        fixture_data, "SELECT * FROM games WHERE reason = 'den' ORDER BY batch_id, game_index"
    )
    assert table.num_rows == len(expected) > 0
    assert table.to_pylist() == expected
    assert any("/games/*/*.parquet" in c.value for c in at.caption)


@pytest.mark.parametrize("page", ["overview", "games", "bots", "compare"])
def test_every_table_on_a_page_has_its_csv_button(monkeypatch, fixture_data, page):
    at = run_app(monkeypatch, fixture_data, None if page == "overview" else page)
    tables = len(at.dataframe) + len(at.table)  # grids, and figures drawn whole
    if page == "compare" and not tables:
        pytest.skip("no rules picked")
    keys = {b.key for b in at.get("download_button")}
    split = 1 if page == "bots" else 0  # the matchups: two tables side by side, one file
    assert tables and sum(k.endswith("_csv") for k in keys if k) >= tables - split


def test_first_player_score_by_batch_equals_dsq_stats_by_batch(fixture_data):
    code, out, err = in_process(
        ["stats", "--by", "batch", "--json", "--confidence", "0.9", "--data", str(fixture_data)]
    )
    assert code == 0, err
    cli = {r["batch"]: r for r in json.loads(out)["by"]["rows"]}
    with open_dataset(fixture_data) as ds:
        ours = first_player_by_batch(ds.con, Selection(), 0.9)
        g = general_stats(ds.con, Selection(), 0.9)
        day = first_player_by_day(ds.con, Selection(), {b: "2026-12-01" for b in BATCH_IDS}, 0.9)
    assert sorted(ours["batch"]) == sorted(cli) == sorted(BATCH_IDS)
    for r in ours.to_dict("records"):
        c = cli[r["batch"]]
        assert r["games"] == c["games"]
        assert (r["score"], r["low"], r["high"]) == pytest.approx(
            (c["first_score"], c["first_low"], c["first_high"])
        )
    [pooled] = day.to_dict("records")  # every batch on one day: the whole selection
    fp = g.first_player
    assert (pooled["games"], pooled["wins"], pooled["draws"], pooled["losses"]) == (
        g.games, fp.wins, fp.draws, fp.losses,
    )  # fmt: skip
    assert (pooled["score"], pooled["low"], pooled["high"]) == pytest.approx(
        (fp.score, fp.low, fp.high)
    )


def test_the_overview_draws_the_first_player_score_at_the_sidebars_confidence(
    monkeypatch, fixture_data
):
    at = run_app(monkeypatch, fixture_data)
    at.sidebar.selectbox(key="f_confidence").set_value(90).run()
    with open_dataset(fixture_data) as ds:
        expected = first_player_by_batch(ds.con, Selection(), 0.9).set_index("batch")
        created = {r["batch_id"]: r["created_at"] for r in ds.batches}
    [chart] = [c for c in at.get("plotly_chart") if c.proto.id and "overview_trend" in c.proto.id]
    [trace] = json.loads(chart.proto.spec)["data"]
    assert trace["x"] == sorted(expected.index, key=lambda b: (created[b], b))
    assert trace["y"] == pytest.approx([expected.loc[b, "score"] for b in trace["x"]])
    low = [expected.loc[b, "score"] - expected.loc[b, "low"] for b in trace["x"]]
    assert trace["error_y"]["arrayminus"] == pytest.approx(low)
    assert json.loads(chart.proto.spec)["layout"]["yaxis"]["title"]["text"].endswith("(90% CI)")
    assert any("90% CI" in c.value and "not controlled for the bots" in c.value for c in at.caption)


def test_the_streamed_export_holds_a_batch_of_rows_not_the_file(tmp_path, monkeypatch):
    """On a real parquet dataset of 8,000 games: what the Python heap holds at most while
    the CSV is written does not grow with the rows written (one batch of rows), and the
    parquet file is written a page of rows at a time (one row group each, in order)."""
    n = 8_000
    write_games_chunk(tmp_path / "data", "big", synthetic_table(n, batch_id="big", seed=3))
    out = tmp_path / "games.csv"
    with open_dataset(tmp_path / "data") as ds:
        export_games(ds.con, Selection(), "csv", io.StringIO(), limit=10)  # warm the caches
        peaks = {}
        for limit in (n // 4, None):
            tracemalloc.start()
            with open(out, "w", encoding="utf-8", newline="") as f:
                assert export_games(ds.con, Selection(), "csv", f, limit=limit) == (limit or n)
            peaks[limit] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        # four times the rows, not four times the memory: one batch of rows at a time
        assert peaks[None] < 1.5 * peaks[n // 4], peaks
        monkeypatch.setattr(gameexport, "PAGE_ROWS", 1_000)
        assert export_parquet(ds.con, Selection(), tmp_path / "games.parquet") == n
        meta = pq.ParquetFile(tmp_path / "games.parquet").metadata
        assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [1_000] * 8
        written = pq.read_table(tmp_path / "games.parquet", columns=["game_index"])
        assert written["game_index"].to_pylist() == list(range(n))
        # one download part holds at most PART_GAMES games, in order
        loaded = downloads.Loaded(ds, threading.Lock())
        part = downloads.part_bytes(loaded, Selection(), (), (), "parquet", 1)
        assert pq.read_table(io.BytesIO(part)).num_rows == min(n, downloads.PART_GAMES["parquet"])
