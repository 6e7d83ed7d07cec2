"""Benchmark the first render and the reload of every dashboard page, in Chromium.

    python benchmarks/bench_pages.py [--data DIR ...] [--rounds 3] [--langs en zh pt]
                                     [--pages overview compare ...] [--json FILE]

For each data folder (default: a private copy of the bundled sample), ``dsq dashboard``
serves it on 127.0.0.1 and Debian's Chromium (Playwright) visits every page in every
language, each visit in a fresh browser context (a new visitor: a new session, an empty
browser cache): the *first render*; then it reloads the page: the *reload*. The server is
started once per folder and first visited once per page (the *cold* row: a server that
has not drawn that page yet, the statistics not cached), then the rounds follow, the
order of the pages rotated from one round to the next so no page always comes first.

The *browser work* of a first render is the seconds the page's main thread spent on
tasks until it was drawn (Chrome's ``TaskDuration``): on a loaded machine the wall times
grow with the load, that work much less.

A time is measured in the page, from the navigation's start (``performance.now()`` of
the new document) until the page is drawn and stays so for 0.5 s: its title is there, no
element is a placeholder, every chart has drawn its figure and every grid in view its
canvas, and the app's script has finished its run (``stApp``'s ``data-test-script-state``).
The machine may be shared: run before and after a
change in turns, and compare ranges, not single runs.

``--data`` may name a large folder: ``benchmarks/bench_stats.py`` makes folders of 1 M to
100 M outcome-only games (summaries in the files' footers) that this benchmark reuses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGES = ("overview", "compare", "bots", "games", "endgames", "play", "simulate", "studies")
SETTLE_MS = 500
# Resolves, once the page has been drawn and idle for SETTLE_MS, with the time (ms since
# the navigation started) at which it became so; with -1 after the deadline.
DRAWN_JS = """async ([settle, deadline]) => {
  const drawn = () =>
    document.querySelector('h1')
    && document.querySelector('[data-testid="stApp"]')
         ?.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid^="stSkeleton"], [data-testid="stAppSkeleton"]')
    && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
         .every(el => el.querySelector('.main-svg'))
    && [...document.querySelectorAll('[data-testid="stDataFrame"]')]
         .every(el => !el.checkVisibility() || el.querySelector('canvas'));
  let since = null;
  while (performance.now() < deadline) {
    if (drawn()) {
      if (since === null) since = performance.now();
      if (performance.now() - since >= settle) return since;
    } else {
      since = null;
    }
    await new Promise(r => setTimeout(r, 20));
  }
  return -1;
}"""


def url_of(base: str, page: str, lang: str) -> str:
    """The address of ``page`` (the Overview is the app's root) in ``lang``."""
    return f"{base}/{'' if page == 'overview' else page}?lang={lang}"


def drawn_at(tab: Any, timeout_s: float) -> float:
    """Seconds from the navigation's start until the page was drawn and idle."""
    ms = tab.evaluate(DRAWN_JS, [SETTLE_MS, timeout_s * 1000.0])
    if ms < 0:
        raise RuntimeError(f"{tab.url} was not drawn within {timeout_s:.0f} s")
    if tab.locator('[data-testid="stException"]').count():
        raise RuntimeError(f"{tab.url} shows an exception")
    return float(ms) / 1000.0


def busy(cdp: Any) -> float:
    """Seconds the page's main thread has spent on tasks (scripts, style, layout, paint)
    so far: its work, whatever else the machine runs (Chrome's ``TaskDuration``)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def visit(browser: Any, url: str, timeout_s: float) -> tuple[float, float, float]:
    """(first render, reload) seconds of ``url`` in a fresh context, and the seconds of
    main-thread work the browser did for the first render."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        tab = context.new_page()
        tab.set_default_timeout(timeout_s * 1000.0)
        cdp = context.new_cdp_session(tab)
        cdp.send("Performance.enable")
        tab.goto(url, wait_until="commit")
        first = drawn_at(tab, timeout_s)
        work = busy(cdp)
        tab.reload(wait_until="commit")
        again = drawn_at(tab, timeout_s)
        return first, again, work
    finally:
        context.close()


def measure(data: Path, pages: list[str], langs: list[str], rounds: int,
            timeout_s: float) -> dict[str, Any]:  # fmt: skip
    """Every page's cold first render, then ``rounds`` rounds of first renders and
    reloads in every language, on a dashboard serving ``data``."""
    from playwright.sync_api import sync_playwright

    from tests.support.server import CHROMIUM, CHROMIUM_ARGS, dashboard_server

    out: dict[str, Any] = {"cold": {}}
    for kind in ("first", "reload", "work"):
        out[kind] = {p: [] for p in pages}
    log = Path(tempfile.gettempdir()) / "bench-pages.log"
    with dashboard_server(data, log) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for page in pages:
                out["cold"][page] = visit(browser, url_of(base, page, langs[0]), timeout_s)[0]
                print(f"  cold {page}: {out['cold'][page]:.2f} s", flush=True)
            for r in range(rounds):
                order = pages[r % len(pages) :] + pages[: r % len(pages)]
                for lang in langs:
                    for page in order:
                        first, again, work = visit(browser, url_of(base, page, lang), timeout_s)
                        out["first"][page].append(first)
                        out["reload"][page].append(again)
                        out["work"][page].append(work)
                print(f"  round {r + 1} of {rounds} done", flush=True)
        finally:
            browser.close()
    return out


def spread(values: list[float]) -> str:
    """``median [min–max]`` in seconds."""
    return f"{statistics.median(values):5.2f} [{min(values):.2f}–{max(values):.2f}]"


def report(name: str, result: dict[str, Any]) -> None:
    """One row per page: cold first render, first render and reload (median [range])."""
    print(f"\n{name}: seconds from navigation to the page drawn and idle")
    print(f"{'page':10s} {'cold':>6s} {'first render':>22s} {'reload':>22s} "
          f"{'browser work':>22s}")  # fmt: skip
    for page, firsts in result["first"].items():
        again, work = spread(result["reload"][page]), spread(result["work"][page])
        print(f"{page:10s} {result['cold'][page]:6.2f} {spread(firsts):>22s} {again:>22s} "
              f"{work:>22s}")  # fmt: skip
    medians = {p: statistics.median(v) for p, v in result["first"].items()}
    fastest = min(medians, key=medians.__getitem__)
    slowest = max(medians, key=medians.__getitem__)
    print(f"fastest first render: {fastest} {medians[fastest]:.2f} s; slowest: {slowest} "
          f"{medians[slowest]:.2f} s (+{medians[slowest] - medians[fastest]:.2f} s)")  # fmt: skip


def sample_copy() -> Path:
    """A private copy of the bundled sample (the dashboard writes caches beside games)."""
    from tests.support.browser import copy_sample

    return copy_sample(Path(tempfile.mkdtemp(prefix="bench-pages-")) / "data")


def main() -> None:
    """Measure every page on each data folder and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="*", default=None,
                    help="data folders (default: a copy of the bundled sample)")  # fmt: skip
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--langs", nargs="+", default=["en", "zh", "pt"])
    ap.add_argument("--pages", nargs="+", default=list(PAGES), choices=PAGES)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a page may take")
    ap.add_argument("--json", type=Path, default=None, help="also write the times here")
    args = ap.parse_args()
    folders = args.data or [sample_copy()]
    results = {}
    for data in folders:
        print(f"{data}:", flush=True)
        t0 = time.perf_counter()
        results[str(data)] = measure(data, args.pages, args.langs, args.rounds, args.timeout)
        print(f"  ({time.perf_counter() - t0:.0f} s)")
    for name, result in results.items():
        report(name, result)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
