"""End to end in a real browser: Debian's Chromium driven by Playwright against a real
``dsq dashboard`` server on 127.0.0.1 (a free port), on a temporary copy of the bundled
sample dataset (``data/``).

Screenshots go to a temporary folder only; ``python -m tests.e2e.screenshots`` refreshes
``docs/screenshots/``. The Play page's timings (a click's reaction, the bot's answer) are
measured here and printed (``pytest -s``) and written beside the screenshots, not asserted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.i18n import result_text
from dashboard.i18n.numbers import Numbers
from engine.board import square_index
from sim.report import fmt
from sim.storage.reading import open_dataset
from tests.support.browser import (
    TIMEOUT,
    choose_language,
    chromium,
    click_square,
    copy_sample,
    go,
    metric_value,
    new_tab,
    play_wolf_capture,
    shot,
    start_play_game,
    wait_idle,
)
from tests.support.server import dashboard_server

pytestmark = pytest.mark.browser
# The initial position with Blue's wolf moved from e7 to d3, beside Red's wolf on c3.
CAPTURE_FEN = "l5t/1d3c1/r1p3e/7/7/7/E1WwP1R/1C3D1/T5L r 0 1"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the bundled sample (the Simulate test writes into it)."""
    return copy_sample(tmp_path_factory.mktemp("e2e") / "data")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where this run's screenshots go (never the tracked docs/screenshots/)."""
    return tmp_path_factory.mktemp("e2e-shots")


@pytest.fixture(scope="module")
def server(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard's URL."""
    log = tmp_path_factory.mktemp("e2e-log") / "dashboard.log"
    with dashboard_server(data_dir, log) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Debian Chromium."""
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):  # noqa: ANN001, ANN201
    """A fresh browser tab, large enough for the wide layout."""
    tab = new_tab(browser)
    yield tab
    tab.context.close()


def games_in(data_dir: Path, humans: bool = False) -> int:
    """Recorded games between bots (what the Overview counts by default), or with
    ``humans`` the games played against people."""
    played_by_people = "red = 'human' OR blue = 'human'"
    where = played_by_people if humans else f"NOT ({played_by_people})"
    with open_dataset(data_dir) as ds:
        return int(ds.con.execute(f"SELECT count(*) FROM games WHERE {where}").fetchone()[0])


def test_overview_shows_the_games_played(server, page, data_dir, shots):
    page.goto(server)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    assert games_in(data_dir) > 1000  # the sample's several thousand games
    assert metric_value(page, "Games played") == fmt.count(games_in(data_dir))
    shot(page, shots, "overview")
    page.get_by_text("Show game details").first.click()
    page.get_by_text("Where captures happen").first.wait_for()
    wait_idle(page)
    for title, marker in (("Compare rules", "Side by side"), ("Bots", "Cross table")):
        go(page, title)
        page.get_by_text(marker).first.wait_for()
        wait_idle(page)
        assert not page.locator('[data-testid="stException"]').count()


def test_a_game_replays_to_its_recorded_result(server, page, data_dir, shots):
    page.goto(server + "/games")
    page.get_by_text("Replay a game").first.wait_for()
    wait_idle(page)
    with open_dataset(data_dir) as ds:
        winner, reason, plies = ds.con.execute(
            "SELECT winner, reason, plies FROM games ORDER BY batch_id, game_index LIMIT 1"
        ).fetchone()
    recorded = result_text("en", winner, reason)
    page.get_by_text(f"Recorded result: {recorded}").first.wait_for()
    board = page.locator("svg.dsq-board")
    board.wait_for()
    assert board.count() == 1
    assert board.locator("g.piece").count() == 16  # the initial position
    for ply in (1, 2, 3):
        # One click at a time: wait for its rerun to show the new ply before the next one,
        # so that a click landing during a slow rerun is never merged with the previous one.
        page.get_by_role("button", name=re.compile("Forward")).click()
        page.get_by_text(f"Ply {ply} of").first.wait_for()
        wait_idle(page)
    page.get_by_role("button", name=re.compile("End$")).click()
    wait_idle(page)
    page.get_by_text(f"Final position: {recorded}").first.wait_for()
    assert page.get_by_text(f"Ply {plies} of {plies}").count() >= 1
    shot(page, shots, "games-final")


def test_play_a_short_game_until_the_bot_answers_and_a_capture_happens(server, page, shots):
    page.goto(server + "/play")
    page.locator(".st-key-sq_14 button").wait_for()
    wait_idle(page)
    start_play_game(page, CAPTURE_FEN)
    wolf, target = square_index("c3"), square_index("d3")
    timings: dict[str, list[float]] = {"select_ms": [], "capture_and_answer_ms": []}
    # Select and deselect a few times: each click shows (or clears) the legal destinations.
    for _ in range(3):
        timings["select_ms"].append(click_square(page, wolf, "legal move"))
        wait_idle(page)
        click_square(page, wolf, "click one of your animals.")
        wait_idle(page)
    timings["select_ms"].append(click_square(page, wolf, "legal move"))
    wait_idle(page)
    # The capture; the page then shows the bot's answer (alpha-beta at its defaults).
    timings["capture_and_answer_ms"].append(click_square(page, target, "The bot played"))
    wait_idle(page)
    page.get_by_text("Red captured the Blue Wolf on d3.").first.wait_for()
    answer = page.get_by_text(re.compile(r"The bot played [a-g]\d[a-g]\d in \d+ ms")).first
    bot_ms = int(re.search(r"in (\d+) ms", answer.inner_text()).group(1))
    timings["bot_think_ms"] = [bot_ms]
    assert page.locator(".st-key-play_undo button").is_enabled()
    assert not page.locator('[data-testid="stException"]').count()
    shot(page, shots, "play")
    (shots / "play-timings.json").write_text(json.dumps(timings, indent=2), encoding="utf-8")
    print("Play page timings (ms):", json.dumps(timings))
    assert all(v >= 0 for values in timings.values() for v in values), timings


def test_a_resigned_game_from_a_fen_is_saved_and_replayed(server, page, data_dir):
    before = games_in(data_dir, humans=True)
    play_wolf_capture(page, server, CAPTURE_FEN)
    page.locator(".st-key-play_resign button").click()
    page.locator(".st-key-play_save button").wait_for(timeout=TIMEOUT)
    wait_idle(page)
    page.locator(".st-key-play_save button").click()
    page.locator(".st-key-play_open_saved button").wait_for(timeout=TIMEOUT)
    assert games_in(data_dir, humans=True) == before + 1
    with open_dataset(data_dir) as ds:
        row = ds.con.execute(
            "SELECT reason, winner, start_fen, plies FROM games WHERE red = 'human'"
            " OR blue = 'human' ORDER BY batch_id DESC LIMIT 1"
        ).fetchone()
    assert row[0] == "resign" and row[1] == "blue" and row[2] == CAPTURE_FEN and row[3] == 2
    wait_idle(page)
    page.locator(".st-key-play_open_saved button").click()
    page.get_by_text(CAPTURE_FEN).first.wait_for(timeout=TIMEOUT)
    assert not page.locator('[data-testid="stException"]').count()


def test_the_dashboard_speaks_chinese_and_portuguese(server, page, data_dir, shots):
    page.goto(server)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    choose_language(page, "简体中文")
    page.get_by_text("对局数").first.wait_for()
    assert metric_value(page, "对局数") == Numbers("zh").count(games_in(data_dir))
    assert "lang=zh" in page.url
    shot(page, shots, "overview-zh")
    go(page, "对局")
    board = page.locator("svg.dsq-board")
    board.wait_for()
    assert board.locator("text.name", has_text="象").count() == 2  # both elephants
    page.get_by_role("button", name=re.compile("前进")).click()
    page.get_by_text("第 1 步（共").first.wait_for()
    wait_idle(page)
    go(page, "总览")
    choose_language(page, "Português")
    page.get_by_text("Partidas jogadas").first.wait_for()
    assert re.search("partidas jogadas", page.locator("body").inner_text(), re.I)
    assert metric_value(page, "Partidas jogadas") == Numbers("pt").count(games_in(data_dir))
    assert "lang=pt" in page.url
    page.reload()  # a link keeps the language
    page.get_by_text("Partidas jogadas").first.wait_for()


def test_the_browsers_language_is_the_default(server, browser):
    context = browser.new_context(locale="zh-CN", viewport={"width": 1500, "height": 1200})
    try:
        tab = context.new_page()
        tab.goto(server)  # no ?lang= in the URL
        tab.get_by_text("对局数").first.wait_for(timeout=TIMEOUT)
        assert tab.locator("h1").first.inner_text() == "总览"
    finally:
        context.close()


def test_a_batch_launched_from_the_browser_grows_the_overview(server, page, data_dir, shots):
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
    launched = page.get_by_text(re.compile(r"Launched 1 batch: \S+\."))
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
