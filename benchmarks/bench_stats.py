"""Benchmark ``dsq stats`` as the games grow: 1 M, 10 M and 100 M games, cold and warm.

    python benchmarks/bench_stats.py [--games 1000000 10000000 100000000] [--data DIR]
                                     [--repeat 3] [--base N] [--file-games N] [--verify]

The games are real: ``dsq simulate --record outcomes`` records ``--base`` random-vs-random
games under each preset once (outcome-only, so 100 M games fit the disk), and they are
tiled, game indices shifted, into one batch per preset of files of ``--file-games``
games (written as dsq writes any file: page checksums, summary in the footer) up to each
size, as one long ``dsq simulate`` per preset would leave them after ``dsq compact``.
Datasets are kept in
``DIR/<size>`` (default: a folder under the system temp dir) and reused.

Each ``dsq stats`` runs as its own process; a row gives the best and median wall time of
``--repeat`` runs, the least CPU time (user + system) and the largest peak RSS (from
``wait4``), interpreter start-up and imports included. Rows:

- *cold*: a fresh process after the folders' summary caches are removed: every file's
  summary is read from its footer (the verdicts the writer recorded stay);
- *warm*: the summary caches in place;
- with ``--verify``, *verify*: every cache removed, every file read in full with its
  page checksums and its summary computed again (the first read of copied-in data).

Targets: warm <= 1 s and cold <= 5 s at 100 M games; growth with games at most
logarithmic above 1 M (it follows files, not games).
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

PRESETS = ("standard", "yeshou", "datou")
VARIANTS = [
    ("dsq stats", []),
    ("dsq stats --json", ["--json"]),
    ("dsq stats --min-plies 20 --by rules", ["--min-plies", "20", "--by", "rules"]),
    ("dsq stats --compare standard,yeshou,datou", ["--compare", "standard,yeshou,datou"]),
    ("dsq stats --details", ["--details"]),
]


def record_base(folder: Path, games: int, record: str) -> Path:
    """The base games: ``games`` random-vs-random games per preset, recorded ``record``."""
    marker = folder / f".base-{games}-{record}"
    if marker.exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    for rules in PRESETS:
        cmd = [sys.executable, "-m", "sim.cli", "simulate", "--data", str(folder),
               "--games", str(games), "--rules", rules, "--red", "random", "--blue", "random",
               "--seed", "1", "--batch-id", f"base-{rules}", "--workers", "2"]  # fmt: skip
        cmd += ["--record", record] if record != "moves" else []
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    marker.write_text("ok\n")
    return folder


def make_dataset(data: Path, base: Path, games: int, file_games: int) -> None:
    """One batch per preset, its base games tiled (game indices shifted) up to a third of
    ``games`` each, in files of about ``file_games`` (skipped if there)."""
    marker = data / f".bench-v4-{games}-{file_games}"
    if marker.exists():
        return
    if data.exists():
        shutil.rmtree(data)
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sim.storage.writing import write_games_chunk

    t0 = time.perf_counter()
    for k, rules in enumerate(PRESETS):
        files = sorted((base / "games" / f"base-{rules}").glob("*.parquet"))
        t = pa.concat_tables(pq.read_table(f) for f in files)
        batch = f"big-{rules}"
        t = t.set_column(t.schema.get_field_index("batch_id"), "batch_id",
                         pa.array([batch] * t.num_rows, pa.string()))  # fmt: skip
        target = games // 3 if k < 2 else games - 2 * (games // 3)
        written, copy, buffer = 0, 0, []
        while written < target:
            part = t.slice(0, min(t.num_rows, target - written))
            for name in ("game_index", "pair_id"):
                shifted = pc.add(part.column(name), pa.scalar(copy * t.num_rows, pa.int32()))
                part = part.set_column(part.schema.get_field_index(name), name, shifted)
            buffer.append(part)
            written += part.num_rows
            copy += 1
            if sum(b.num_rows for b in buffer) >= file_games or written >= target:
                write_games_chunk(data, batch, pa.concat_tables(buffer))
                buffer = []
    marker.write_text("ok\n")
    size = sum(p.stat().st_size for p in data.rglob("*.parquet"))
    print(
        f"wrote {games:,} games in {time.perf_counter() - t0:.0f} s: {size / 2**20:.0f} MiB "
        f"({size / games:.1f} bytes/game), {len(list(data.rglob('*.parquet'))):,} files",
        flush=True,
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


def _row(name: str, runs: list[tuple[float, float, float]]) -> None:
    walls = sorted(r[0] for r in runs)
    print(
        f"{name:52s} {walls[0]:8.2f} {walls[len(walls) // 2]:9.2f} "
        f"{min(r[2] for r in runs):7.2f} {max(r[1] for r in runs):13.0f}",
        flush=True,
    )


def _remove(data: Path, *names: str) -> None:
    for name in names:
        for cache in data.rglob(name):
            cache.unlink()


def measure(data: Path, games: int, repeat: int, verify: bool) -> None:
    """The rows of one dataset."""
    label = f"{games:,}"
    if verify:
        _remove(data, ".summaries", ".verified.json")
        _row(f"[{label}] dsq stats (verify: every file read)", [run_once(data, [])])
    cold = []
    for _ in range(repeat):
        _remove(data, ".summaries")
        cold.append(run_once(data, []))
    _row(f"[{label}] dsq stats (cold: summaries from footers)", cold)
    for name, extra in VARIANTS:
        _row(f"[{label}] {name}", [run_once(data, extra) for _ in range(repeat)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="+", default=[10**6, 10**7, 10**8])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", type=int, default=200_000, help="base games per preset")
    ap.add_argument("--file-games", type=int, default=1_000_000, help="games per file")
    ap.add_argument("--verify", action="store_true", help="add the row that verifies all")
    ap.add_argument("--record", default="outcomes", help="how the base games are recorded")
    args = ap.parse_args(argv)
    root = args.data or Path(tempfile.gettempdir()) / "dsq-bench-stats"
    root = root / args.record
    base = record_base(root / "base", args.base, args.record)
    print(f"cpus: {os.cpu_count()}  load: {os.getloadavg()[0]:.2f}")
    print(f"{'command':52s} {'best s':>8s} {'median s':>9s} {'CPU s':>7s} {'peak RSS MiB':>13s}")
    for games in args.games:
        data = root / str(games)
        make_dataset(data, base, games, args.file_games)
        measure(data, games, args.repeat, args.verify)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
