"""Benchmark of the batch simulator and the dataset reader.

    python benchmarks/bench_simulate.py [--games 20000] [--sim-games N] [--rules standard]
                                        [--big 1000000] [--json]

Measures, after JIT warm-up:

1. raw compiled random playouts (``dsq bench``'s kernel) and ``sim.play.referee.play_game`` in a
   loop (no recording), one core;
2. ``dsq simulate`` end to end (``sim.batch.run_batch``, random vs random, parquet written)
   on 1 and 2 workers (``--sim-games`` games per worker, default 5 x ``--games``), once a
   small batch has started the workers (``sim.bench.simulate``);
3. bytes per game on disk (moves and captures included);
4. ``open_dataset`` plus a general aggregate over ``--big`` recorded games (the recorded
   games replicated under new batch ids), run in a fresh process: time and peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.bench.simulate import recorded_rate  # noqa: E402

AGG_SQL = """
SELECT count(*) AS games,
       count(*) FILTER (WHERE winner = 'red') AS red_wins,
       count(*) FILTER (WHERE winner = 'blue') AS blue_wins,
       count(*) FILTER (WHERE winner = 'draw') AS draws,
       avg(plies) AS mean_plies, min(plies) AS min_plies, max(plies) AS max_plies
FROM games
"""
REASON_SQL = "SELECT reason, count(*) FROM games GROUP BY reason ORDER BY 2 DESC"


def raw_rates(games: int, rules: str = "standard") -> dict[str, Any]:
    """Compiled random playouts and referee games per second on one core (no recording)."""
    from sim.bench.kernels import random_games_rate
    from sim.play.referee import play_game

    random_games_rate(rules, 200, ply_cap=1000)  # warm-up
    kernel = random_games_rate(rules, games, ply_cap=1000)
    for i in range(50):
        play_game(rules, "random", "random", i)
    t = time.perf_counter()
    for i in range(games):
        play_game(rules, "random", "random", i)
    ref = games / (time.perf_counter() - t)
    return {
        "kernel_games_per_s": kernel["games_per_s"],
        "kernel_mean_plies": kernel["mean_plies"],
        "referee_games_per_s": ref,
    }


def simulate_rate(games: int, workers: int, data: Path, rules: str = "standard") -> dict[str, Any]:
    """Random vs random recorded on ``workers`` workers (after a batch starting them)."""
    return recorded_rate(games, workers, data, rules, batch_id=f"bench-w{workers}")


def bytes_per_game(data: Path, batch_id: str, games: int) -> float:
    """Bytes on disk of a batch's parquet files per game."""
    return sum(p.stat().st_size for p in (data / "games" / batch_id).glob("*.parquet")) / games


def build_big(src: Path, batch_id: str, n: int, dest: Path) -> int:
    """Replicate a recorded batch into ``dest`` until it holds ``n`` games, in files of at
    most 20,000 games (as ``dsq simulate`` writes them by default); return n."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sim.storage.writing import write_games_chunk

    base = pa.concat_tables(pq.read_table(p) for p in (src / "games" / batch_id).glob("*.parquet"))
    made, k = 0, 0
    while made < n:
        t = base.slice(0, min(base.num_rows, 20_000, n - made))
        bid = f"big-{k:04d}"
        t = t.set_column(1, "batch_id", pa.array([bid] * t.num_rows, pa.string()))
        t = t.set_column(2, "game_index", pc.cast(pc.subtract(t.column(2), 0), pa.int32()))
        write_games_chunk(dest, bid, t)
        made += t.num_rows
        k += 1
    return made


def _reader_child(data: str) -> None:
    """In a fresh process: open the dataset, run the aggregates, print time and peak RSS."""
    from sim.storage.reading import open_dataset

    t = time.perf_counter()
    ds = open_dataset(data)
    t_open = time.perf_counter() - t
    agg = ds.con.execute(AGG_SQL).fetchone()
    reasons = ds.con.execute(REASON_SQL).fetchall()
    total = time.perf_counter() - t
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "files": len(ds.files),
                "open_seconds": t_open,
                "open_plus_aggregate_seconds": total,
                "peak_rss_mb": rss_mb,
                "games": agg[0],
                "mean_plies": agg[4],
                "reasons": len(reasons),
            }
        )
    )


def reader_bench(data: Path) -> dict[str, Any]:
    """Time and peak memory of ``open_dataset`` + aggregates, cold process, run twice."""
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, __file__, "--reader-child", str(data)],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        runs.append(json.loads(out.stdout))
    return {"cold_cache": runs[0], "warm_os_cache": runs[1]}


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--sim-games", type=int, default=None, help="default 5 x --games")
    ap.add_argument("--rules", default="standard", help="rules of the recorded simulations")
    ap.add_argument("--big", type=int, default=1_000_000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--reader-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.reader_child:
        _reader_child(args.reader_child)
        return
    tmp = Path(tempfile.mkdtemp(prefix="dsq-bench-"))
    try:
        report: dict[str, Any] = {"cpus": os.cpu_count()}
        report["raw"] = raw_rates(args.games, args.rules)
        sim_games = args.sim_games or 5 * args.games
        report["simulate"] = [
            simulate_rate(sim_games * w, w, tmp / "sim", args.rules) for w in (1, 2)
        ]
        w1, w2 = report["simulate"]
        report["recording_cost_vs_kernel"] = (
            1 - w1["games_per_s"] / report["raw"]["kernel_games_per_s"]
        )
        report["recording_cost_vs_referee"] = (
            1 - w1["games_per_s"] / report["raw"]["referee_games_per_s"]
        )
        report["speedup_2_workers"] = w2["games_per_s"] / w1["games_per_s"]
        report["bytes_per_game"] = bytes_per_game(tmp / "sim", w1["batch_id"], sim_games)
        t = time.perf_counter()
        n = build_big(tmp / "sim", w1["batch_id"], args.big, tmp / "big")
        report["big"] = {"games": n, "build_seconds": time.perf_counter() - t}
        report["big"]["bytes_on_disk"] = sum(
            p.stat().st_size for p in (tmp / "big").rglob("*.parquet")
        )
        report["big"].update(reader_bench(tmp / "big"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    raw = report["raw"]
    print(f"cpus: {report['cpus']}")
    print(
        f"raw kernel: {raw['kernel_games_per_s']:,.0f} games/s "
        f"({raw['kernel_mean_plies']:.0f} plies/game); referee loop: "
        f"{raw['referee_games_per_s']:,.0f} games/s"
    )
    for s in report["simulate"]:
        print(
            f"simulate, {s['workers']} worker(s): {s['games_per_s']:,.0f} games/s "
            f"({s['games']:,} games in {s['seconds']:.1f} s, after {s['start_seconds']:.1f} s "
            "starting the workers)"
        )
    print(
        f"recording cost vs kernel: {report['recording_cost_vs_kernel']:.0%}, vs referee loop: "
        f"{report['recording_cost_vs_referee']:.0%}; 2 workers = "
        f"{report['speedup_2_workers']:.2f}x one"
    )
    print(f"bytes per game on disk: {report['bytes_per_game']:.0f}")
    big = report["big"]
    for k in ("cold_cache", "warm_os_cache"):
        r = big[k]
        print(
            f"{big['games']:,} games ({big['bytes_on_disk'] / 1e6:.0f} MB, {r['files']} files), "
            f"{k}: open {r['open_seconds']:.2f} s, open + aggregates "
            f"{r['open_plus_aggregate_seconds']:.2f} s, peak RSS {r['peak_rss_mb']:.0f} MB"
        )


if __name__ == "__main__":
    main()
