"""Benchmark what a download of the selected games holds: peak memory and time.

    python benchmarks/bench_downloads.py [--games 100000] [--data DIR]

The dataset is synthetic games (``sim.stats.synthetic``: 300 plies a game on average, with
search scores) in batches of 20,000, written once to ``DIR`` (default: a folder under the
system temp dir) and reused. Each measurement runs in a fresh process, its peak resident
memory (``VmHWM``, reset before it) its own: the Games page's download of one part (CSV
and parquet, ``dashboard.downloads.part_bytes``) and the whole selection as CSV
(``dsq games export``'s ``export_games``, written to a file). Printed, not asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHUNK = 20_000


def make_dataset(data: Path, games: int) -> None:
    """Write ``games`` synthetic games to ``data`` (skipped if already there)."""
    marker = data / f".bench-downloads-{games}"
    if marker.exists():
        return
    from sim.stats.synthetic import synthetic_table
    from sim.storage.writing import write_games_chunk

    for i in range((games + CHUNK - 1) // CHUNK):
        n = min(CHUNK, games - i * CHUNK)
        table = synthetic_table(n, batch_id=f"bench-{i}", seed=i, mean_plies=300, ply_cap=1000)
        write_games_chunk(data, f"bench-{i}", table)
    marker.touch()


def memory(field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (the peak since the last reset) of this process, MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def reset_peak() -> float:
    """Reset this process's peak resident memory to its current one (Linux), returned."""
    Path("/proc/self/clear_refs").write_text("5")
    return memory("VmRSS")


def measure(data: Path, what: str) -> None:
    """One measurement in this process: print the file's size, the peak memory over the
    opened dataset's, and the time."""
    from dashboard.downloads import part_bytes
    from dashboard.loaders import Loaded
    from sim.records.gameexport import export_games
    from sim.stats.query import Selection
    from sim.storage.reading import open_dataset

    ds = open_dataset(data)
    ds.con.execute("SELECT count(*) FROM games").fetchall()
    base = reset_peak()
    start = time.perf_counter()
    if what == "whole-csv":
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "games.csv"
            with open(path, "w", encoding="utf-8", newline="") as out:
                export_games(ds.con, Selection(), "csv", out)
            size = path.stat().st_size
    else:
        fmt = what.split("-", 1)[1]
        size = len(part_bytes(Loaded(ds, threading.Lock()), Selection(), (), (), fmt, 1))
    took = time.perf_counter() - start
    peak = memory("VmHWM")
    print(f"{what:13s} {size / 2**20:7.1f} MiB file  peak +{peak - base:5.0f} MiB over "
          f"{base:.0f} MiB  {took:6.1f} s")  # fmt: skip


def main() -> None:
    """Make the dataset, then measure each download in its own process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = args.data or Path(tempfile.gettempdir()) / f"dsq-bench-downloads-{args.games}"
    if args.measure:
        measure(data, args.measure)
        return
    make_dataset(data, args.games)
    from sim.storage.reading import open_dataset

    open_dataset(data).close()  # verify the files once: the measurements read cached verdicts
    print(f"{args.games:,} games in {data}")
    for what in ("part-csv", "part-parquet", "whole-csv"):
        subprocess.run(
            [sys.executable, __file__, "--data", str(data), "--games", str(args.games),
             "--measure", what],
            check=True,
        )  # fmt: skip


if __name__ == "__main__":
    main()
