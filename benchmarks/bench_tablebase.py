"""Benchmark of the endgame table builder: speed, memory and size on disk.

    python benchmarks/bench_tablebase.py [--rules standard] [--jobs 2] [--four 6] [--json F]

Measures, each build in a fresh process (so the time includes loading the compiled
kernels, and the peak memory is the build's own):

1. every material of up to 3 animals (64 two-piece and 448 three-piece) for one rule set,
   on 1 process and on ``--jobs`` processes: wall time, positions per second, disk;
2. ``--four`` single four-animal materials (each with its sub-tables already built): wall
   time, peak resident memory, positions per second, bytes per position on disk;
3. from those rates, an estimate of time and disk for every material of up to 4 animals
   (the set van Rijn and Vis built): 1,680 four-animal materials, about half of them
   solved and the other half derived from their colour-swapped twins.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.tablebase.build import build_tables  # noqa: E402
from sim.tablebase.material import all_materials, parse_material  # noqa: E402
from sim.tablebase.store import rules_key, tables_root  # noqa: E402

FOUR = ["LR v er", "TR v pr", "EL v tw", "WD v cr", "LT v ep", "ETC v r"]


def _dsq(*args: str) -> tuple[float, int, dict[str, Any]]:
    """Run ``dsq ARGS`` in a fresh process under GNU time: (wall seconds, the process's
    peak resident memory in KiB, the JSON it printed with the CPU seconds of the process
    and its children added as ``cpu_s``)."""
    t0 = time.perf_counter()
    r = subprocess.run(
        ["/usr/bin/time", "-f", "%M %U %S", sys.executable, "-m", "sim.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    wall = time.perf_counter() - t0
    peak, user, system = r.stderr.strip().splitlines()[-1].split()
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["cpu_s"] = round(float(user) + float(system), 2)
    return wall, int(peak), out


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*.dsqtb"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="standard")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--four", type=int, default=len(FOUR), help="four-animal materials to time")
    p.add_argument("--json", default=None, help="also write the results to this file")
    args = p.parse_args(argv)
    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
    key = rules_key(args.rules)
    out: dict[str, Any] = {"rules": key}
    work = Path(tempfile.mkdtemp(prefix="dsq-bench-tb-"))
    try:
        _dsq(
            "tablebase",
            "build",
            "--rules",
            args.rules,
            "--material",
            "R v r",
            "--quiet",
            "--json",
            "--data",
            str(work / "warm"),
        )
        for jobs in sorted({1, args.jobs}):
            data = work / f"three-{jobs}"
            wall, peak, s = _dsq(
                "tablebase",
                "build",
                "--rules",
                args.rules,
                "--pieces",
                "3",
                "--jobs",
                str(jobs),
                "--quiet",
                "--json",
                "--data",
                str(data),
            )
            disk = folder_bytes(data)
            out[f"three_jobs_{jobs}"] = {
                "wall_s": round(wall, 2),
                "build_s": s["seconds"],
                "cpu_s": s["cpu_s"],
                "tables": s["built"],
                "solved": s["solved"],
                "positions": s["positions"],
                "positions_per_s": round(s["positions"] / s["seconds"]),
                "peak_mib": round(peak / 1024),
                "disk_bytes": disk,
                "bytes_per_position": round(disk / s["positions"], 4),
            }
            print(f"up to 3 animals, {jobs} process(es): {json.dumps(out[f'three_jobs_{jobs}'])}")
        base = work / "three-1"
        four = []
        for name in FOUR[: args.four]:
            m = parse_material(name)
            data = work / f"four-{m.file_stem}"
            shutil.copytree(base, data)
            wall, peak, s = _dsq(
                "tablebase",
                "build",
                "--rules",
                args.rules,
                "--material",
                name,
                "--quiet",
                "--json",
                "--data",
                str(data),
            )
            size = (data / "tablebases" / key / f"{m.file_stem}.dsqtb").stat().st_size
            row = {
                "material": m.name,
                "positions": s["positions"],
                "wall_s": round(wall, 2),
                "build_s": s["seconds"],
                "cpu_s": s["cpu_s"],
                "positions_per_s": round(s["positions"] / s["seconds"]),
                "peak_mib": round(peak / 1024),
                "disk_bytes": size,
                "bytes_per_position": round(size / s["positions"], 4),
            }
            four.append(row)
            print(f"four animals: {json.dumps(row)}")
            shutil.rmtree(data)
        out["four"] = four
        if four:  # a table derived from its colour-swapped twin: time in this process
            m = parse_material(FOUR[0])
            data = work / "twin"
            shutil.copytree(base, data)
            report = build_tables(args.rules, [m, m.swapped()], tables_root(data))
            twin = next(b for b in report if b.how == "swapped")
            out["twin"] = {
                "material": twin.material.name,
                "seconds": round(twin.seconds, 2),
                "positions_per_s": round(twin.positions / twin.seconds),
            }
            print(f"derived from its twin: {json.dumps(out['twin'])}")
            rate = sum(r["positions"] for r in four) / sum(r["build_s"] for r in four)
            per_pos = sum(r["disk_bytes"] for r in four) / sum(r["positions"] for r in four)
            materials = all_materials(4)
            positions = sum(2 * m.positions_per_side for m in materials)
            twins = sum(1 for m in materials if m.swapped() != m) // 2
            solved_share = (len(materials) - twins) / len(materials)
            twin_rate = out["twin"]["positions_per_s"]
            hours = positions * (solved_share / rate + (1 - solved_share) / twin_rate) / 3600
            out["estimate_all_four"] = {
                "materials": len(materials),
                "solved": len(materials) - twins,
                "positions": positions,
                "one_process_h": round(hours, 2),
                "disk_gb": round(positions * per_pos / 1e9, 2),
            }
            print(f"estimate, every four-animal material: {json.dumps(out['estimate_all_four'])}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
