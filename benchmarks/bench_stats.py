"""Benchmark ``dsq stats`` on 1,000,000 synthetic recorded games: wall time and peak RSS.

    python benchmarks/bench_stats.py [--games 1000000] [--data DIR] [--repeat 3]

The dataset (storage layout, 20,000-game chunks like the simulator's flushes, with moves
and capture events) is written once to ``DIR`` (default: a folder under the system temp
dir) and reused on later runs. Each ``dsq stats`` variant runs as its own process; the
figures are the best and median wall time of ``--repeat`` runs, the least CPU time
(user + system, all threads) and the largest peak RSS (from ``wait4``), including the
interpreter start-up and imports. Target: <= 2 s, <= 1 GB for the plain ``dsq stats``.

Every file is verified (read in full, page checksums checked) before it is counted, and the
verdict cached beside it: the first row is ``dsq stats`` with those caches removed (cold:
every file verified), the others run warm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VARIANTS = [
    ("dsq stats", []),
    ("dsq stats --json", ["--json"]),
    ("dsq stats --min-plies 20 --by rules", ["--min-plies", "20", "--by", "rules"]),
    ("dsq stats --by matchup", ["--by", "matchup"]),
    ("dsq stats --by bot", ["--by", "bot"]),
    ("dsq stats --compare standard,yeshou,datou", ["--compare", "standard,yeshou,datou"]),
    ("dsq stats --ratings", ["--ratings"]),
    ("dsq stats --details", ["--details"]),
]


def make_dataset(data: Path, games: int) -> None:
    """Write ``games`` synthetic games (three rule sets, four bots) unless already there."""
    marker = data / f".bench-v3-{games}"  # v3: page checksums
    if marker.exists():
        return
    if data.exists():
        shutil.rmtree(data)
    from sim.bots import parse_bot
    from sim.stats.synthetic import write_synthetic_dataset

    t0 = time.perf_counter()
    ab = parse_bot("alphabeta:depth=3").canonical  # canonical specs, as the simulator stores
    mc = parse_bot("mcts:playouts=200").canonical
    plan = [
        ("standard", (ab, "greedy"), {ab: 200.0}),
        ("yeshou", (ab, "greedy"), {ab: 200.0}),
        ("datou", (mc, "random"), {mc: 300.0}),
    ]
    per = games // len(plan)
    for k, (rules, bots, elo) in enumerate(plan):
        n = per if k < len(plan) - 1 else games - per * (len(plan) - 1)
        write_synthetic_dataset(
            data,
            n,
            chunk=20_000,
            batch_id=f"bench-{rules}",
            rules=rules,
            bots=bots,
            elo=elo,
            first_player_elo=15.0 * (k + 1),
            seed=k + 1,
        )
    marker.write_text("ok\n")
    size = sum(p.stat().st_size for p in data.rglob("*.parquet"))
    print(
        f"wrote {games:,} games in {time.perf_counter() - t0:.1f} s: {size / 2**20:.1f} MiB "
        f"({size / games:.0f} bytes/game)"
    )


def run_once(data: Path, extra: list[str]) -> tuple[float, float, float]:
    """(wall seconds, peak RSS MiB, CPU seconds) of one ``dsq stats`` process."""
    cmd = [sys.executable, "-m", "sim.cli", "stats", "--data", str(data), *extra]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err}")
    return wall, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only-plain", action="store_true", help="only the plain dsq stats")
    args = ap.parse_args(argv)
    data = args.data or Path(tempfile.gettempdir()) / f"dsq-bench-stats-{args.games}"
    make_dataset(data, args.games)
    print(f"dataset: {data}  cpus: {os.cpu_count()}  load: {os.getloadavg()[0]:.2f}")
    print(f"{'command':45s} {'best s':>8s} {'median s':>9s} {'CPU s':>7s} {'peak RSS MiB':>13s}")
    for cache in data.rglob(".verified.json"):
        cache.unlink()
    wall, rss, cpu = run_once(data, [])
    cold = "dsq stats (cold: verifies every file)"
    print(f"{cold:45s} {wall:8.2f} {wall:9.2f} {cpu:7.2f} {rss:13.0f}")
    for name, extra in VARIANTS[:1] if args.only_plain else VARIANTS:
        runs = [run_once(data, extra) for _ in range(args.repeat)]
        walls = sorted(r[0] for r in runs)
        print(
            f"{name:45s} {walls[0]:8.2f} {walls[len(walls) // 2]:9.2f} "
            f"{min(r[2] for r in runs):7.2f} {max(r[1] for r in runs):13.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
