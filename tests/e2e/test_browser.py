"""End to end in a real browser: Debian's Chromium driven by Playwright against a real
``dsq dashboard`` server on 127.0.0.1 (a free port), on a temporary copy of the bundled
sample dataset (``data/``).

Saves a screenshot of every page to ``docs/screenshots/``.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from dashboard.replay import describe_result
from sim.report import fmt
from sim.storage.reading import open_dataset
from tests.support import ROOT
from tests.support.server import CHROMIUM, CHROMIUM_ARGS, dashboard_server

pytestmark = pytest.mark.browser
SHOTS = ROOT / "docs" / "screenshots"
TIMEOUT = 90_000  # ms, for anything that waits on the app


SAMPLE = ROOT / "data"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the bundled sample (the Simulate test writes into it)."""
    dest = tmp_path_factory.mktemp("e2e") / "data"
    (dest / "batches").mkdir(parents=True)
    for folder in sorted((SAMPLE / "games").glob("sample-*")):
        shutil.copytree(folder, dest / "games" / folder.name)
    for record in sorted((SAMPLE / "batches").glob("sample-*.json")):
        shutil.copy2(record, dest / "batches" / record.name)
    return dest


@pytest.fixture(scope="module")
def server(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard's URL."""
    log = tmp_path_factory.mktemp("e2e-log") / "dashboard.log"
    with dashboard_server(data_dir, log) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Debian Chromium."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash tests/ensure-chromium.sh`")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):  # noqa: ANN001, ANN201
    """A fresh browser tab, large enough for the wide layout."""
    context = browser.new_context(viewport={"width": 1500, "height": 2000})
    tab = context.new_page()
    tab.set_default_timeout(TIMEOUT)
    yield tab
    context.close()


def wait_idle(page) -> None:  # noqa: ANN001
    """Wait until the app has finished its script run (no 'running' status widget)."""
    page.wait_for_selector('[data-testid="stApp"]')
    time.sleep(0.3)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=TIMEOUT
    )


def metric_value(page, label: str) -> str:  # noqa: ANN001
    """The value shown by the metric with this label."""
    metric = page.locator('[data-testid="stMetric"]', has_text=label).first
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def go(page, title: str) -> None:  # noqa: ANN001
    """Click a page in the sidebar navigation."""
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    wait_idle(page)


def shot(page, name: str) -> None:  # noqa: ANN001
    """Save a full-page screenshot to docs/screenshots/NAME.png, once every plotly chart
    on the page has drawn (charts and tables render after the script run ends)."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                 .every(el => el.querySelector('.main-svg'))""",
        timeout=TIMEOUT,
    )
    page.wait_for_timeout(800)  # let the table canvases paint
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def games_in(data_dir: Path) -> int:
    with open_dataset(data_dir) as ds:
        return int(ds.con.execute("SELECT count(*) FROM games").fetchone()[0])


def test_overview_shows_the_games_played(server, page, data_dir):
    page.goto(server)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    assert games_in(data_dir) > 1000  # the sample's several thousand games
    assert metric_value(page, "Games played") == fmt.count(games_in(data_dir))
    shot(page, "overview")
    page.get_by_text("Show game details").first.click()
    page.get_by_text("Where captures happen").first.wait_for()
    wait_idle(page)
    page.get_by_text("Who captures whom").first.scroll_into_view_if_needed()
    wait_idle(page)
    shot(page, "overview-details")
    for title, name, marker in (
        ("Compare rules", "compare", "Side by side"),
        ("Bots", "bots", "Cross table"),
    ):
        go(page, title)
        page.get_by_text(marker).first.wait_for()
        wait_idle(page)
        assert not page.locator('[data-testid="stException"]').count()
        shot(page, name)


def test_a_game_replays_to_its_recorded_result(server, page, data_dir):
    page.goto(server + "/games")
    page.get_by_text("Replay a game").first.wait_for()
    wait_idle(page)
    with open_dataset(data_dir) as ds:
        winner, reason, plies = ds.con.execute(
            "SELECT winner, reason, plies FROM games ORDER BY batch_id, game_index LIMIT 1"
        ).fetchone()
    recorded = describe_result(winner, reason)
    assert page.get_by_text(f"Recorded result: {recorded}").count() >= 1
    board = page.locator('svg[aria-label="Dou Shou Qi board"]')
    assert board.count() == 1
    assert board.locator("g.piece").count() == 16  # the initial position
    for ply in (1, 2, 3):
        # One click at a time: wait for its rerun to show the new ply before the next one,
        # so that a click landing during a slow rerun is never merged with the previous one.
        page.get_by_role("button", name=re.compile("Forward")).click()
        page.get_by_text(f"Ply {ply} of").first.wait_for()
        wait_idle(page)
    shot(page, "games")
    page.get_by_role("button", name=re.compile("End$")).click()
    wait_idle(page)
    page.get_by_text(f"Final position: {recorded}").first.wait_for()
    assert page.get_by_text(f"Ply {plies} of {plies}").count() >= 1
    shot(page, "games-final")


def test_a_batch_launched_from_the_browser_grows_the_overview(server, page, data_dir, browser):
    before = games_in(data_dir)
    page.goto(server)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    assert metric_value(page, "Games played") == fmt.count(before)
    go(page, "Simulate")
    page.get_by_text("Launch a batch").first.wait_for()
    size = 14
    games = page.get_by_label(re.compile(r"^Games per rules"))
    games.fill(str(size))
    games.press("Enter")
    wait_idle(page)
    seed = page.get_by_label(re.compile(r"^Seed"))
    seed.fill("11")
    seed.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Launch").click()
    launched = page.get_by_text(re.compile(r"Launched 1 batch\(es\): \S+\."))
    launched.wait_for()
    batch_id = re.search(r": (\S+)\.", launched.inner_text()).group(1)
    # A second tab finds the same batch on disk.
    other = page.context.new_page()
    other.goto(server + "/simulate")
    other.get_by_text(batch_id).first.wait_for(timeout=TIMEOUT)
    other.close()
    done = page.locator('[data-testid="stMarkdownContainer"]', has_text=batch_id).filter(
        has_text="done"
    )
    done.first.wait_for(timeout=120_000)
    page.get_by_text(f"{size} / {size} games").first.wait_for()
    shot(page, "simulate")
    page.reload()  # a reload reattaches: the batch is still listed, finished
    page.get_by_text(batch_id).first.wait_for()
    go(page, "Overview")
    page.get_by_text("Games played").first.wait_for()
    expected = fmt.count(before + size)
    page.wait_for_function(
        """([want]) => [...document.querySelectorAll('[data-testid="stMetric"]')]
            .some(m => m.innerText.includes('Games played') && m.innerText.includes(want))""",
        arg=[expected],
        timeout=TIMEOUT,
    )
    assert metric_value(page, "Games played") == expected
    assert games_in(data_dir) == before + size
