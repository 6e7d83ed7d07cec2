"""Refresh docs/screenshots/ (the dashboard's screenshots): ``python -m tests.e2e.screenshots``.

Runs the real dashboard on a temporary copy of the bundled sample, drives it in Debian's
Chromium and writes one full-page PNG per view: every page in English, the Play page
during a game, the Endgames page on a small table, and the Overview in each language. The
browser tests never write there (they keep their screenshots in a temporary folder).
``--out DIR`` writes elsewhere.
Chinese text needs a CJK font in the system (Debian: ``apt-get install fonts-wqy-microhei``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.board import square_index
from tests.support import ROOT
from tests.support.browser import (
    choose_language,
    chromium,
    click_square,
    copy_sample,
    go,
    new_tab,
    play_wolf_capture,
    shot,
    wait_idle,
)
from tests.support.server import dashboard_server

OUT = ROOT / "docs" / "screenshots"
# The initial position with Blue's wolf moved from e7 to d3, beside Red's wolf on c3.
PLAY_FEN = "l5t/1d3c1/r1p3e/7/7/7/E1WwP1R/1C3D1/T5L r 0 1"


def english_pages(page: Any, url: str, out: Path) -> None:
    """Overview (with and without details), Compare rules, Bots, Games (a few plies in and
    at the end of the game)."""
    page.goto(url)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    shot(page, out, "overview")
    page.get_by_text("Show game details").first.click()
    page.get_by_text("Where captures happen").first.wait_for()
    wait_idle(page)
    shot(page, out, "overview-details")
    for title, name, marker in (
        ("Compare rules", "compare", "Side by side"),
        ("Bots", "bots", "Cross table"),
    ):
        go(page, title)
        page.get_by_text(marker).first.wait_for()
        wait_idle(page)
        shot(page, out, name)
    go(page, "Games")
    page.get_by_text("Replay a game").first.wait_for()
    wait_idle(page)
    for ply in (1, 2, 3):
        page.get_by_role("button", name=re.compile("Forward")).click()
        page.get_by_text(f"Ply {ply} of").first.wait_for()
        wait_idle(page)
    shot(page, out, "games")
    page.get_by_role("button", name=re.compile("End$")).click()
    page.get_by_text("Final position").first.wait_for()
    wait_idle(page)
    shot(page, out, "games-final")


def play_page(page: Any, url: str, out: Path) -> None:
    """A game on the Play page: a capture, the bot's answer, then a piece selected."""
    play_wolf_capture(page, url, PLAY_FEN)
    click_square(page, square_index("e3"), "legal move")
    wait_idle(page)
    shot(page, out, "play")


def languages(page: Any, url: str, out: Path) -> None:
    """The Overview in Chinese and in Portuguese, and a replayed board in Chinese."""
    page.goto(url)
    page.get_by_text("Games played").first.wait_for()
    wait_idle(page)
    choose_language(page, "简体中文")
    page.get_by_text("对局数").first.wait_for()
    wait_idle(page)
    shot(page, out, "overview-zh")
    go(page, "对局")
    page.locator("svg.dsq-board").wait_for()
    wait_idle(page)
    shot(page, out, "games-zh")
    go(page, "总览")
    choose_language(page, "Português")
    page.get_by_text("Partidas jogadas").first.wait_for()
    wait_idle(page)
    shot(page, out, "overview-pt")


def simulate_page(page: Any, url: str, out: Path) -> None:
    """A small batch launched from the Simulate page, once it has finished."""
    page.goto(url + "/simulate")
    page.get_by_text("Launch a batch").first.wait_for()
    wait_idle(page)
    games = page.get_by_label(re.compile(r"^Games per rules"))
    games.fill("14")
    games.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Launch").click()
    page.get_by_text(re.compile(r"Launched 1 batch")).wait_for()
    page.get_by_text("14 / 14 games").first.wait_for(timeout=120_000)
    wait_idle(page)
    shot(page, out, "simulate")


def endgames_page(page: Any, url: str, out: Path) -> None:
    """The Endgames page on the tables of ``LR v e`` (built before the server started)."""
    page.goto(url + "/endgames")
    page.get_by_text("Results by side to move").first.wait_for()
    wait_idle(page)
    shot(page, out, "endgames")


def build_tables(data: Path) -> None:
    """The endgame tables the Endgames screenshot shows (a few seconds)."""
    from sim.tablebase.build import build_tables as build
    from sim.tablebase.material import parse_material
    from sim.tablebase.store import tables_root

    build("standard", [parse_material("LR v e")], tables_root(data))


def has_cjk_font() -> bool:
    """Whether fontconfig knows a font with Chinese glyphs."""
    try:
        found = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
    except OSError:
        return False
    return bool(found.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    """Write every screenshot; returns the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    args = parser.parse_args(argv)
    if not has_cjk_font():
        print("no font with Chinese glyphs: install one (Debian: apt-get install "
              "fonts-wqy-microhei) for readable Chinese screenshots", file=sys.stderr)  # fmt: skip
        return 2
    with tempfile.TemporaryDirectory(prefix="dsq-shots-") as tmp:
        data = copy_sample(Path(tmp) / "data")
        build_tables(data)
        with dashboard_server(data, Path(tmp) / "dashboard.log") as url, chromium() as browser:
            for step in (english_pages, play_page, languages, simulate_page, endgames_page):
                page = new_tab(browser)
                try:
                    step(page, url, args.out)
                finally:
                    page.context.close()
    for path in sorted(args.out.glob("*.png")):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
