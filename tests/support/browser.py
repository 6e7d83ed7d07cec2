"""Driving the dashboard in Debian's Chromium (Playwright), for the browser tests and the
screenshot command: a copy of the bundled sample, the browser, waiting for the app, and
full-page screenshots into a folder the caller chooses."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.board import square_index
from tests.support import ROOT
from tests.support.server import CHROMIUM, CHROMIUM_ARGS

SAMPLE = ROOT / "data"
TIMEOUT = 90_000  # ms, for anything that waits on the app
VIEWPORT = {"width": 1500, "height": 2000}

# Clicks a square and waits, in the page, until the page shows ``want``: the time from
# the click to the change, in ms (-1 after 10 s).
CLICK_UNTIL = """async ([selector, want]) => {
  const t0 = performance.now();
  document.querySelector(selector).click();
  while (!document.body.innerText.includes(want)) {
    if (performance.now() - t0 > 10000) return -1;
    await new Promise(r => requestAnimationFrame(r));
  }
  return performance.now() - t0;
}"""


def copy_sample(dest: Path) -> Path:
    """A private copy of the bundled sample dataset (games and batch records) at ``dest``."""
    (dest / "batches").mkdir(parents=True)
    for folder in sorted((SAMPLE / "games").glob("sample-*")):
        shutil.copytree(folder, dest / "games" / folder.name)
    for record in sorted((SAMPLE / "batches").glob("sample-*.json")):
        shutil.copy2(record, dest / "batches" / record.name)
    return dest


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Debian Chromium (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run `bash tests/ensure-chromium.sh`")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_tab(browser: Any) -> Any:
    """A fresh tab in its own context, large enough for the wide layout."""
    context = browser.new_context(viewport=VIEWPORT)
    tab = context.new_page()
    tab.set_default_timeout(TIMEOUT)
    return tab


IDLE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]');
}"""


def wait_idle(page: Any) -> None:
    """Wait until the app has finished its script run: the app says its script is not
    running (it says "initial" until the first run starts) and shows no status widget."""
    page.wait_for_selector('[data-testid="stApp"]')
    time.sleep(0.3)  # a click's rerun request reaches the app's state a moment later
    page.wait_for_function(IDLE_JS, timeout=TIMEOUT)


def metric_value(page: Any, label: str) -> str:
    """The value shown by the metric with this label."""
    metric = page.locator('[data-testid="stMetric"]', has_text=label).first
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def go(page: Any, title: str) -> None:
    """Click a page in the sidebar navigation."""
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    wait_idle(page)


def choose_language(page: Any, name: str) -> None:
    """Pick a language (its own name, e.g. 简体中文) in the sidebar's selector."""
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name=name).click()
    wait_idle(page)


def shot(page: Any, folder: Path, name: str) -> Path:
    """A full-page screenshot ``folder/NAME.png``, once every plotly chart on the page has
    drawn (charts and tables render after the script run ends)."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                 .every(el => el.querySelector('.main-svg'))""",
        timeout=TIMEOUT,
    )
    page.wait_for_timeout(800)  # let the table canvases paint
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def click_square(page: Any, square: int, want: str) -> float:
    """Click a square of the Play page's board; ms until the page shows ``want``."""
    return float(page.evaluate(CLICK_UNTIL, [f".st-key-sq_{square} button", want]))


def start_play_game(page: Any, fen: str = "") -> None:
    """On the Play page: open the settings, set a starting FEN, start a new game, and
    close the settings again."""
    header = page.get_by_text("New game:").first
    header.click()
    box = page.locator(".st-key-play_fen input")
    box.fill(fen)
    box.press("Enter")
    wait_idle(page)
    page.locator(".st-key-play_new button").click()
    wait_idle(page)
    header.click()


def play_wolf_capture(page: Any, url: str, fen: str) -> None:
    """Open the Play page, start a game from ``fen`` (Red's wolf on c3, an enemy on d3),
    take d3 with the wolf and wait for the bot's answer."""
    page.goto(url + "/play")
    page.locator(".st-key-sq_14 button").wait_for()
    wait_idle(page)
    start_play_game(page, fen)
    click_square(page, square_index("c3"), "legal move")
    wait_idle(page)
    click_square(page, square_index("d3"), "The bot played")
    wait_idle(page)
