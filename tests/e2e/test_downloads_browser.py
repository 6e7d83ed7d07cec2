"""Downloads in a real browser (Debian's Chromium, Playwright) from a real ``dsq
dashboard`` on 127.0.0.1: a click on the Games page's download hands over the selected
games, a table's CSV button its table, and the Overview draws the first-player score."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.stats.query import Selection
from sim.storage.gameexport import batch_dates, export_games
from sim.storage.reading import open_dataset
from tests.support.browser import chromium, copy_sample, go, new_tab, shot, wait_idle
from tests.support.server import dashboard_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sample(tmp_path_factory.mktemp("e2e-dl") / "data")


@pytest.fixture(scope="module")
def server(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("e2e-dl-log") / "dashboard.log"
    with dashboard_server(data_dir, log) as url:
        yield url


@pytest.fixture
def page(server: str) -> Iterator[object]:
    with chromium() as browser:
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
    assert listed[0][:3] == ["batch", "#", "rules"] and len(listed) == 1 + 200
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
