"""A view is shared by its link, in Debian's Chromium against a real ``dsq dashboard``
server on a copy of the bundled sample: the filters chosen in one tab are in its URL, and
that URL opened in a new tab shows the same view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.report import fmt
from sim.stats import general_stats
from sim.stats.query import Selection
from sim.storage.reading import open_dataset
from tests.support.browser import chromium, copy_sample, metric_value, new_tab, wait_idle
from tests.support.server import dashboard_server

pytestmark = pytest.mark.browser
SIDEBAR = '[data-testid="stSidebar"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The dashboard's URL and its data folder (a private copy of the sample)."""
    data = copy_sample(tmp_path_factory.mktemp("e2e-links") / "data")
    log = tmp_path_factory.mktemp("e2e-links-log") / "dashboard.log"
    with dashboard_server(data, log) as url:
        yield url, data


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Debian Chromium."""
    with chromium() as b:
        yield b


def shown_view(page) -> tuple[list[str], bool, str]:  # noqa: ANN001
    """The sidebar's chosen rules, whether games against people are included, and the
    Overview's count of games."""
    rules = page.locator(SIDEBAR).locator('[data-testid="stMultiSelect"]').first
    tags = rules.locator("[data-tag]")
    chips = [tags.nth(i).get_attribute("aria-label") for i in range(tags.count())]
    box = page.locator(SIDEBAR).get_by_role("checkbox", name="Include games against people")
    return chips, box.is_checked(), metric_value(page, "Games played")


def test_a_copied_link_opens_the_same_view(server, browser):
    url, data = server
    page = new_tab(browser)
    page.goto(url)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    rules = page.locator(SIDEBAR).locator('[data-testid="stMultiSelect"]').first
    rules.click()
    page.get_by_role("option", name="datou", exact=True).click()
    page.keyboard.press("Escape")
    wait_idle(page)
    page.locator(SIDEBAR).get_by_text("Include games against people").click()
    wait_idle(page)
    page.wait_for_function("() => location.search.includes('humans=1')")
    link = page.url
    assert "rules=datou" in link and "lang=en" in link
    page.locator(SIDEBAR).locator('[data-tag][aria-label="datou"]').first.wait_for()
    first = shown_view(page)
    with open_dataset(data) as ds:
        games = general_stats(ds.con, Selection(rules=("datou",), humans=True)).games
    assert first == (["datou"], True, fmt.count(games))

    other = new_tab(browser)  # a new tab, a new session: only the link carries the view
    other.goto(link)
    other.get_by_text("Games played").first.wait_for()
    wait_idle(other)
    other.locator(SIDEBAR).locator('[data-tag][aria-label="datou"]').first.wait_for()
    assert shown_view(other) == first
    assert other.url == link
    assert not other.locator('[data-testid="stException"]').count()
    for tab in (page, other):
        tab.context.close()


def shown_ply(page) -> str:  # noqa: ANN001
    """The replay's ply as its slider shows it."""
    slider = page.locator('[data-testid="stSlider"] input[type="range"]').first
    slider.wait_for(state="attached")
    return slider.input_value()


def test_a_replay_link_copied_at_ply_5_opens_at_ply_5(server, browser):
    url, _ = server
    page = new_tab(browser)
    page.goto(f"{url}/games?game=3")
    page.get_by_role("button", name="Forward").first.wait_for()
    wait_idle(page)
    assert shown_ply(page) == "0"
    for _ in range(5):
        page.get_by_role("button", name="Forward").first.click()
        wait_idle(page)
    assert shown_ply(page) == "5"
    page.wait_for_function("() => location.search.includes('ply=5')")
    link = page.url
    page.close()
    other = new_tab(browser)
    other.goto(link)
    other.get_by_role("button", name="Forward").first.wait_for()
    wait_idle(other)
    assert shown_ply(other) == "5"
    assert other.get_by_text("Ply 5 of").first.is_visible()
    other.close()
