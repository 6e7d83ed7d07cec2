"""``dsq batches``: the batches in the data folder with status, progress, rules, bots, counts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.commands._common import add_data_arg
from sim.report.fmt import count, pct
from sim.report.tables import aligned_table
from sim.storage.paths import resolve_data_dir
from sim.storage.records import effective_status, list_batches

HEADER = ["ID", "STATUS", "PROGRESS", "RULES", "BOTS", "RED", "BLUE", "DRAW", "LABEL"]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``batches`` command."""
    p = sub.add_parser(
        "batches",
        help="list recorded batches (status, progress, rules, bots, counts)",
        description="List the batches of the data folder, oldest first. A batch whose driver "
        "died shows as 'interrupted'; finish it with dsq simulate --resume BATCH_ID.",
    )
    add_data_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of batch records")
    p.set_defaults(func=run)


def batch_rows(data_dir: Any = None) -> list[dict[str, Any]]:
    """The batch records of a data folder, each with ``effective_status`` added."""
    out = []
    for rec in list_batches(resolve_data_dir(data_dir)):
        out.append(dict(rec, effective_status=effective_status(rec)))
    return out


def _row(r: dict[str, Any]) -> list[str]:
    """One batch as the cells of the table."""
    spec = r.get("spec", {})
    c = r.get("counts", {})
    done, planned = r.get("games_done", 0), r.get("games_planned", 0)
    bots = f"{spec.get('red', '?')} vs {spec.get('blue', '?')}"
    if spec.get("swap"):
        bots += " (swap)"
    return [
        str(r.get("batch_id")),
        r["effective_status"],
        f"{count(done)}/{count(planned)} {pct(done / planned if planned else None, 0)}",
        str(spec.get("rules", "?")),
        bots,
        count(c.get("red", 0)),
        count(c.get("blue", 0)),
        count(c.get("draw", 0)),
        str(r.get("label") or ""),
    ]


def run(args: argparse.Namespace) -> int:
    """Run ``dsq batches``."""
    rows = batch_rows(args.data)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"no batches in {resolve_data_dir(args.data)}")
        return 0
    print(aligned_table(HEADER, [_row(r) for r in rows], right=(), indent=""))
    return 0
