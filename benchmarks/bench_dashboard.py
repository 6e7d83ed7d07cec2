"""Benchmark the dashboard's Overview page on 1,000,000 recorded games, in a real browser.

    python benchmarks/bench_dashboard.py [--games 1000000] [--data DIR] [--repeat 5]

The dataset is made from real games: ``dsq simulate`` records a few thousand random-vs-
random games under the three presets, and they are tiled (new batch ids and game
indices, 20,000-game parquet chunks like the simulator's) up to ``--games``. It is
written once to ``DIR`` (default: a folder under the system temp dir) and reused.

Then ``dsq dashboard`` serves it on 127.0.0.1 and Debian's Chromium (Playwright) loads the
Overview: the first load (cold caches) and ``--repeat`` reloads after it. A load is timed
from the request until the page's last section ("By rules") is drawn and the app is idle.
Target: <= 3 s after the first load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHUNK = 20_000
BASE_GAMES = 1_000  # per preset


def make_dataset(data: Path, games: int) -> None:
    """Record the base games and tile them up to ``games`` (skipped if already there)."""
    marker = data / f".bench-dashboard-{games}"
    if marker.exists():
        return
    import shutil

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sim.cli import main as dsq
    from sim.storage.reading import open_dataset
    from sim.storage.writing import write_games_table

    if data.exists():
        shutil.rmtree(data)
    base_dir = data.parent / (data.name + "-base")
    if base_dir.exists():
        shutil.rmtree(base_dir)
    t0 = time.perf_counter()
    code = dsq(["simulate", "--data", str(base_dir), "--rules", "standard,yeshou,datou",
                "--red", "random", "--blue", "greedy", "--games", str(BASE_GAMES), "--seed",
                "1", "--workers", "2", "--quiet"])  # fmt: skip
    if code:
        raise SystemExit(f"dsq simulate failed ({code})")
    with open_dataset(base_dir) as ds:
        base = pa.concat_tables(pq.read_table(f) for f in ds.files)
    n_base = base.num_rows
    done = 0
    batch = 0
    while done < games:
        batch_id = f"bench-{batch:04d}"
        in_batch = 0
        while in_batch < 100_000 and done < games:
            rows = min(CHUNK, games - done, 100_000 - in_batch)
            idx = pa.array([(in_batch + i) % n_base for i in range(rows)], pa.int64())
            t = base.take(idx)
            gi = pa.array(range(in_batch, in_batch + rows), pa.int32())
            t = t.set_column(t.schema.get_field_index("game_index"), "game_index", gi)
            t = t.set_column(t.schema.get_field_index("pair_id"), "pair_id", gi)
            t = t.set_column(t.schema.get_field_index("batch_id"), "batch_id",
                             pc.cast(pa.array([batch_id] * rows), pa.string()))  # fmt: skip
            folder = data / "games" / batch_id
            folder.mkdir(parents=True, exist_ok=True)
            write_games_table(folder / f"part-{in_batch:09d}-{rows}-bench.parquet", t)
            in_batch += rows
            done += rows
        batch += 1
    shutil.rmtree(base_dir)
    marker.write_text("ok")
    print(f"dataset: {games:,} games in {time.perf_counter() - t0:.1f} s at {data}")


def time_loads(data: Path, repeat: int) -> tuple[float, list[float], list[float]]:
    """Seconds for the first Overview load, each full reload after it, and each switch to
    the Overview from another page in the same session."""
    from playwright.sync_api import sync_playwright

    from tests.support.server import CHROMIUM, CHROMIUM_ARGS, dashboard_server

    def load(page, action) -> float:  # noqa: ANN001
        t0 = time.perf_counter()
        action()
        page.get_by_text("By rules").first.wait_for(timeout=600_000)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
            timeout=600_000,
        )
        return time.perf_counter() - t0

    log = Path(tempfile.gettempdir()) / "bench-dashboard.log"
    with dashboard_server(data, log) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 2000})
        first = load(page, lambda: page.goto(url))
        metric = page.locator('[data-testid="stMetric"]', has_text="Games played").first
        print("Games played shown:", metric.locator('[data-testid="stMetricValue"]').inner_text())
        again = [load(page, page.reload) for _ in range(repeat)]
        nav = page.locator('[data-testid="stSidebarNav"] a')
        switches = []
        for _ in range(repeat):
            nav.filter(has_text="Compare rules").first.click()
            page.get_by_text("Side by side").first.wait_for(timeout=600_000)
            switches.append(load(page, nav.filter(has_text="Overview").first.click))
        browser.close()
    return first, again, switches


def script_times(data: Path, repeat: int) -> list[float]:
    """Server-side time of the Overview script (AppTest, no browser), after the first run."""
    import os

    from streamlit.testing.v1 import AppTest

    os.environ["DSQ_DATA"] = str(data)
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=600)
    at.run()
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        at.run()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    """Build (or reuse) the dataset, time the Overview, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--data", type=Path,
                    default=Path(tempfile.gettempdir()) / "dsq-bench-dashboard")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    make_dataset(args.data, args.games)
    first, again, switches = time_loads(args.data, args.repeat)
    script = script_times(args.data, args.repeat)
    print(f"Overview, {args.games:,} games (target <= 3 s after the first load):")
    print(f"  first load in the browser (cold caches): {first:.2f} s")
    print(
        f"  full browser reload after it: median {statistics.median(again):.2f} s, "
        f"max {max(again):.2f} s ({len(again)} reloads)"
    )
    print(
        f"  switching to Overview from another page: median "
        f"{statistics.median(switches):.2f} s, max {max(switches):.2f} s"
    )
    print(f"  server-side script run (AppTest): median {statistics.median(script):.3f} s")


if __name__ == "__main__":
    main()
