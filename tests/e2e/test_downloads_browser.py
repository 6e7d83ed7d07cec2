"""Downloads in a real browser (Debian's Chromium, Playwright) from a real ``dsq
dashboard`` on 127.0.0.1: a click on the Games page's download hands over the selected
games, a table's CSV button its table, and the Overview draws the first-player score."""

from __future__ import annotations

import csv
import io
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pyarrow.parquet as pq
import pytest

from sim.records.gameexport import batch_dates, export_games
from sim.stats.query import Selection
from sim.storage.reading import open_dataset
from tests.support.browser import chromium, copy_sample, go, new_tab, shot, wait_idle
from tests.support.server import dashboard_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sample(tmp_path_factory.mktemp("e2e-dl") / "data")


@pytest.fixture(scope="module")
def server_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's temporary folder (where a parquet download is written)."""
    return tmp_path_factory.mktemp("e2e-dl-tmp")


@pytest.fixture(scope="module")
def server(
    data_dir: Path, server_tmp: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    log = tmp_path_factory.mktemp("e2e-dl-log") / "dashboard.log"
    with dashboard_server(data_dir, log, TMPDIR=str(server_tmp)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium for the module; each test gets a fresh context (``page``)."""
    with chromium() as b:
        yield b


@pytest.fixture
def page(server: str, browser: object) -> Iterator[object]:
    tab = new_tab(browser)
    tab.goto(server)
    wait_idle(tab)
    yield tab
    tab.context.close()


def _download(page, button_text: str, dest: Path) -> Path:  # noqa: ANN001
    """Click the download button with this text and save what the browser receives."""
    with page.expect_download() as info:
        page.locator('[data-testid="stDownloadButton"] button', has_text=button_text).first.click()
    path = dest / info.value.suggested_filename
    info.value.save_as(path)
    return path


def test_a_click_downloads_the_selected_games_and_a_table(page, data_dir, tmp_path):  # noqa: ANN001
    go(page, "Games")
    path = _download(page, "Download (CSV)", tmp_path)  # the page's table of games
    assert path.name == "games-page.csv"
    listed = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert listed[0][:3] == ["batch_id", "game_index", "rules"] and len(listed) == 1 + 200
    path = _download(page, "Download 4,620 games", tmp_path)
    whole = io.StringIO()
    with open_dataset(data_dir) as ds:
        export_games(ds.con, Selection(humans=True), "text", whole, batch_dates(ds.batches))
    assert path.read_text(encoding="utf-8") == whole.getvalue()
    page.locator('[data-testid="stSelectbox"]', has_text="Download format").click()
    page.get_by_role("option", name="Parquet (every column as stored)").click()
    wait_idle(page)
    path = _download(page, "Download 4,620 games", tmp_path)
    assert pq.read_table(path).num_rows == 4620
    shot(page, tmp_path, "games-download")


def _fetch(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read(), r.headers.get("Content-Disposition", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), ""


def test_the_games_page_links_to_the_whole_selection_streamed(page, data_dir, server_tmp):  # noqa: ANN001
    go(page, "Games")
    link = page.locator('[data-testid="stLinkButton"] a', has_text="Download all 4,620 games")
    href = urljoin(page.url, link.first.get_attribute("href"))
    assert "/dsq/games.txt?" in href
    with open_dataset(data_dir) as ds:
        for fmt, ext in (("text", "txt"), ("csv", "csv"), ("jsonl", "jsonl")):
            whole = io.StringIO()
            n = export_games(ds.con, Selection(humans=True), fmt, whole, batch_dates(ds.batches))
            status, body, disposition = _fetch(href.replace("/games.txt?", f"/games.{ext}?"))
            assert (status, disposition) == (200, f'attachment; filename="games.{ext}"')
            assert n == 4620 and body.decode("utf-8") == whole.getvalue()
        # this page's own filters travel too: only Blue's wins
        whole = io.StringIO()
        n = export_games(ds.con, Selection(humans=True), "csv", whole, winners=("blue",))
    status, body, _ = _fetch(href.replace("/games.txt?", "/games.csv?") + "&winners=blue")
    assert 0 < n < 4620 and body.decode("utf-8") == whole.getvalue()
    status, body, _ = _fetch(href.replace("/games.txt?", "/games.parquet?"))
    table = pq.read_table(io.BytesIO(body))
    assert status == 200 and table.num_rows == 4620
    assert table["game_index"].to_pylist() == export_index(data_dir)
    assert not list(server_tmp.glob("dsq-download-*"))  # the temporary file is gone


def export_index(data_dir: Path) -> list[int]:
    """The game indices of the sample's games, by batch and game index."""
    with open_dataset(data_dir) as ds:
        sql = "SELECT game_index FROM games ORDER BY batch_id, game_index"
        return [row[0] for row in ds.con.sql(sql).fetchall()]


@pytest.mark.parametrize(
    "query",
    ["games.csv?min_plies=lots", "games.zip", "games.csv?colour=green&bots=random",
     "games.csv?winners=nobody", "games.csv?data=/etc", "games.csv?rules=" + "x" * 500],
)  # fmt: skip
def test_a_bad_download_query_is_a_400_line(server, query):  # noqa: ANN001
    status, body, _ = _fetch(f"{server}/dsq/{query}")
    lines = body.decode("utf-8").splitlines()
    assert status == 400 and len(lines) == 1 and lines[0].startswith("dsq: ")
    assert "Traceback" not in lines[0]


def test_the_overview_draws_the_first_player_score_by_batch(page, tmp_path):  # noqa: ANN001
    heading = page.get_by_text("First-player score by batch or by day")
    heading.scroll_into_view_if_needed()
    chart = page.locator('[data-testid="stPlotlyChart"]').last
    chart.scroll_into_view_if_needed()
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                 .every(el => el.querySelector('.main-svg'))"""
    )
    assert chart.locator(".point").count() >= 2
    shot(page, tmp_path, "overview-trend")
