"""dsq's perft beside a plain C bitboard perft of the same rules, interleaved.

``benchmarks/perft_c/perft.c`` counts the same tree under the ``standard`` preset (the
last ply counted, not played, as dsq does); it is compiled here with ``gcc -O2`` into a
temporary folder. Each round runs both, in alternating order, at depth 1 and at
``--depth``; each rate is ``(perft D - perft 1) / (CPU s of D - CPU s of 1)``, CPU time
of the count alone (the C program times itself, dsq's is this process's CPU time around
the compiled call), so process start-up and other work on a shared machine count for
neither. The node counts must agree. Printed: each round's rates and ratio, the range
of the ratios, and the load average before and after.

Run: ``python benchmarks/bench_perft_c.py [--depth 7] [--rounds 3] [--json]``
(needs ``gcc``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Position  # noqa: E402

SOURCE = Path(__file__).resolve().parent / "perft_c" / "perft.c"


def compile_c(folder: Path) -> Path:
    """Compile the C perft with ``gcc -O2``; the executable's path."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise SystemExit("bench_perft_c: gcc is needed (apt-get install gcc)")
    exe = folder / "perft"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(SOURCE)], check=True)
    return exe


def c_perft(exe: Path, depth: int) -> tuple[int, float]:
    """(nodes, CPU seconds) of the C perft at ``depth``."""
    out = subprocess.run([str(exe), str(depth)], capture_output=True, text=True, check=True)
    _, nodes, seconds = out.stdout.split()
    return int(nodes), float(seconds)


def dsq_perft(depth: int) -> tuple[int, float]:
    """(nodes, CPU seconds) of dsq's compiled perft at ``depth``."""
    pos = Position("standard")
    t = time.process_time()
    nodes = pos.perft(depth)
    return nodes, time.process_time() - t


def rate(low: tuple[int, float], high: tuple[int, float]) -> float:
    """Nodes per CPU second of the deeper count less the shallow one."""
    return (high[0] - low[0]) / max(high[1] - low[1], 1e-9)


def measure(depth: int, rounds: int) -> dict[str, Any]:
    """Interleaved rounds of both perfts; rates, ratios and load averages."""
    Position("standard").perft(3)  # load the compiled kernels
    load_before = os.getloadavg()
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="dsq-perft-c-") as tmp:
        exe = compile_c(Path(tmp))
        for r in range(rounds):
            runs: dict[str, tuple[tuple[int, float], tuple[int, float]]] = {}
            order = ("c", "dsq") if r % 2 == 0 else ("dsq", "c")
            for who in order:
                fn = (lambda d: c_perft(exe, d)) if who == "c" else dsq_perft
                runs[who] = (fn(1), fn(depth))
            if runs["c"][1][0] != runs["dsq"][1][0]:
                raise SystemExit(
                    f"perft {depth} differs: C {runs['c'][1][0]}, dsq {runs['dsq'][1][0]}"
                )
            c_rate, dsq_rate = rate(*runs["c"]), rate(*runs["dsq"])
            out.append(
                {"c_nodes_per_s": c_rate, "dsq_nodes_per_s": dsq_rate, "ratio": dsq_rate / c_rate}
            )
    ratios = [r["ratio"] for r in out]
    return {
        "depth": depth,
        "nodes": runs["c"][1][0],
        "rounds": out,
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "load_before": load_before,
        "load_after": os.getloadavg(),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=7)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    result = measure(args.depth, args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"perft {result['depth']} = {result['nodes']:,} (standard, initial position)")
    for i, r in enumerate(result["rounds"], 1):
        print(
            f"round {i}: C {r['c_nodes_per_s'] / 1e6:.0f} M/s, dsq {r['dsq_nodes_per_s'] / 1e6:.0f}"
            f" M/s, dsq/C {r['ratio']:.2f}"
        )
    print(f"dsq/C: {result['ratio_min']:.2f}-{result['ratio_max']:.2f}")
    load = result["load_before"] + result["load_after"]
    print("load average before {:.1f} {:.1f} {:.1f}, after {:.1f} {:.1f} {:.1f}".format(*load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
