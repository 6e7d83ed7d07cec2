"""Check a study report against ``dsq stats`` on each cell's batches: the games, draws,
den wins, mean/median/min/max plies, branching and the first-move estimate of every cell
must be the figures ``dsq stats --batch ... --json`` gives for the same games.

dsq study report FILE --data DIR --json > report.json
python benchmarks/study_vs_stats.py report.json DIR
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any


def _stats(data: str, batches: list[str]) -> dict[str, Any]:
    argv = [sys.executable, "-m", "sim.cli", "stats", "--data", data, "--json"]
    for b in batches:
        argv += ["--batch", b]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=600)
    return json.loads(out.stdout)["general"]


def _pairs(cell: dict[str, Any], g: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    def v(name: str, key: str = "value") -> Any:
        m = cell.get(name) or {}
        return m.get(key)

    n = g["games"]
    reasons = g["reasons"]
    fm = g["first_move"]
    return [
        ("games", cell["games"], n),
        ("draw_rate", v("draw_rate"), g["draw"]["rate"]),
        ("den_rate", v("den_rate"), reasons["den"] / n if n else None),
        ("mean_plies", v("mean_plies"), g["length"]["mean"]),
        ("median_plies", v("median_plies"), g["length"]["median"]),
        ("min_plies", v("median_plies", "min"), g["length"]["min"]),
        ("max_plies", v("median_plies", "max"), g["length"]["max"]),
        ("branching", v("branching"), g["branching"]),
        ("first_move_elo", v("first_move_elo"), fm["elo"]),
        ("first_move_low", v("first_move_elo", "low"), fm["elo_low"]),
        ("first_move_high", v("first_move_elo", "high"), fm["elo_high"]),
    ]


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)


def main() -> int:
    """Compare every cell; print the differences and a count; exit 1 on any."""
    rep = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    data = sys.argv[2]
    checked = bad = 0
    for cell in rep["cells"]:
        if not cell["games"]:
            continue
        for name, mine, theirs in _pairs(cell, _stats(data, cell["batches"])):
            checked += 1
            if not _same(mine, theirs):
                bad += 1
                where = f"cell {cell['cell']} {cell['rules']} {cell['pairing']}"
                print(f"{where}: {name} {mine} != {theirs}")
    print(f"{checked} figures of {len(rep['cells'])} cells compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
