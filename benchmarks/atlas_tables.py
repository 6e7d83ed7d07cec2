"""The first edition of the atlas's tables as Markdown, from ``dsq study report --json``
(the second edition's page is ``dsq study report --markdown``).

dsq study report docs/studies/atlas-first-edition.toml --data DIR --json > first.json
python benchmarks/atlas_tables.py first.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.report import fmt  # noqa: E402


def _v(cell: dict[str, Any], name: str) -> Any:
    m = cell.get(name) or {}
    return m.get("value") if isinstance(m, dict) else None


def _elo(cell: dict[str, Any] | None) -> str:
    if not cell or not cell.get("games"):
        return "-"
    m = cell.get("first_move_elo") or {}
    return fmt.elo(m.get("value"), None, m.get("low"), m.get("high"))


def headline(rep: dict[str, Any]) -> str:
    """One row per rule set: the first move at each rung, and the top rung's figures."""
    rungs = [c["pairing"] for c in rep["cells"] if c["rung"] is not None]
    rungs = list(dict.fromkeys(rungs))
    top = rungs[-1]
    head = [
        "rules",
        *[f"first move, {r} (Elo)" for r in rungs],
        f"games at {top}",
        f"draws at {top}",
        f"plies at {top}",
        f"den wins at {top}",
        "skill depth (Elo)",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    ladder = {e["rules"]: e for e in rep["ladder"]}
    for rules in dict.fromkeys(c["rules"] for c in rep["cells"]):
        by = {c["pairing"]: c for c in rep["cells"] if c["rules"] == rules}
        t = by.get(top) or {}
        sd = ladder.get(rules, {})
        depth = fmt.elo(sd.get("value"), None, sd.get("low_ci"), sd.get("high_ci"))
        row = [
            f"`{rules}`",
            *[_elo(by.get(r)) for r in rungs],
            fmt.count(t.get("games", 0)),
            fmt.pct(_v(t, "draw_rate")),
            fmt.num(_v(t, "mean_plies")),
            fmt.pct(_v(t, "den_rate")),
            depth,
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def design_table(rep: dict[str, Any], pairing: str) -> str:
    """The design metrics of one pairing, per rule set."""
    head = [
        "rules",
        "games",
        "balance",
        "draws",
        "by no capture",
        "at ply cap",
        "median plies",
        "branching",
        "coverage",
        "7-3 forbade",
        "17-5 forbade",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in rep["cells"]:
        if c["pairing"] != pairing or not c["games"]:
            continue
        f73, f175 = _v(c, "forbidden_7_3"), _v(c, "forbidden_17_5")
        row = [
            f"`{c['rules']}`",
            fmt.count(c["games"]),
            fmt.num(_v(c, "balance"), 3),
            fmt.pct(_v(c, "draw_rate")),
            fmt.pct(_v(c, "natural_draw_rate")),
            fmt.pct(_v(c, "ply_cap_draw_rate")),
            fmt.num(_v(c, "median_plies")),
            fmt.num(_v(c, "branching")),
            fmt.num(_v(c, "coverage"), 3),
            "-" if f73 is None else fmt.pct(f73, 2),
            "-" if f175 is None else fmt.pct(f175, 2),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def _interval(cell: dict[str, Any], name: str, digits: int = 3) -> str:
    m = cell.get(name) or {}
    if m.get("value") is None:
        return "-"
    if m.get("low") is None:
        return fmt.num(m["value"], digits)
    low, high = fmt.num(m["low"], digits), fmt.num(m["high"], digits)
    return f"{fmt.num(m['value'], digits)} [{low}, {high}]"


def score_table(rep: dict[str, Any], pairing: str) -> str:
    """The search-score metrics of one pairing, per rule set (mean [95% interval])."""
    head = ["rules", "scored plies", "lead change", "swing", "decisiveness threshold"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in rep["cells"]:
        if c["pairing"] != pairing or not c["games"]:
            continue
        row = [
            f"`{c['rules']}`",
            "-" if _v(c, "scored_share") is None else fmt.pct(_v(c, "scored_share")),
            _interval(c, "lead_change"),
            _interval(c, "swing"),
            _interval(c, "decisiveness_threshold"),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def effects_list(rep: dict[str, Any]) -> str:
    """The significant effects, one sentence each (Holm-corrected p)."""
    sig = [e for e in rep.get("effects", []) if e.get("sentence")]
    return "\n".join(f"- {e['sentence']} ({fmt.p_value(e['p_holm'])}, Holm)" for e in sig)


def main() -> int:
    """Print the tables of a report."""
    rep = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    rungs = list(dict.fromkeys(c["pairing"] for c in rep["cells"] if c["rung"] is not None))
    print(headline(rep), "\n")
    print(design_table(rep, rungs[-1]), "\n")
    print(score_table(rep, rungs[-1]), "\n")
    print(effects_list(rep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
