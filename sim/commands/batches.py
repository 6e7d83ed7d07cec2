"""``dsq batches``: the batches in the data folder with status, progress, rules, bots, counts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.storage.paths import resolve_data_dir
from sim.storage.records import effective_status, list_batches


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``batches`` command."""
    p = sub.add_parser(
        "batches",
        help="list recorded batches (status, progress, rules, bots, counts)",
        description="List the batches of the data folder, oldest first. A batch whose driver "
        "died shows as 'interrupted'; finish it with dsq simulate --resume BATCH_ID.",
    )
    p.add_argument("--data", help="data folder (default: $DSQ_DATA, else data/ in the project)")
    p.add_argument("--json", action="store_true", help="print a JSON list of batch records")
    p.set_defaults(func=run)


def batch_rows(data_dir: Any = None) -> list[dict[str, Any]]:
    """The batch records of a data folder, each with ``effective_status`` added."""
    out = []
    for rec in list_batches(resolve_data_dir(data_dir)):
        out.append(dict(rec, effective_status=effective_status(rec)))
    return out


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def run(args: argparse.Namespace) -> int:
    """Run ``dsq batches``."""
    rows = batch_rows(args.data)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"no batches in {resolve_data_dir(args.data)}")
        return 0
    table = [["ID", "STATUS", "PROGRESS", "RULES", "BOTS", "RED", "BLUE", "DRAW", "LABEL"]]
    for r in rows:
        spec = r.get("spec", {})
        c = r.get("counts", {})
        done, planned = r.get("games_done", 0), r.get("games_planned", 0)
        pct = f"{100 * done / planned:.0f}%" if planned else "-"
        bots = f"{spec.get('red', '?')} vs {spec.get('blue', '?')}"
        if spec.get("swap"):
            bots += " (swap)"
        table.append(
            [
                str(r.get("batch_id")),
                r["effective_status"],
                f"{done}/{planned} {pct}",
                str(spec.get("rules", "?")),
                bots,
                str(c.get("red", 0)),
                str(c.get("blue", 0)),
                str(c.get("draw", 0)),
                str(r.get("label") or ""),
            ]
        )
    print(_table(table))
    return 0
