"""``dsq batches``: the batches in the data folder with status, progress, rules, bots, counts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sim.commands._common import add_data_arg
from sim.report.batch_text import batch_score, batches_table
from sim.storage.batchrecord import BatchRecord
from sim.storage.paths import existing_data_dir, resolve_data_dir


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``batches`` command."""
    p = sub.add_parser(
        "batches",
        help="list recorded batches (status, progress, rules, bots, counts)",
        description="List the batches of the data folder, oldest first. Statuses: queued, "
        "running, done, failed, cancelled (a cancel request, or its time limit), interrupted "
        "(Ctrl-C, SIGTERM, or a driver that died); finish any of the last three with dsq "
        "simulate --resume BATCH_ID. The bots' W-D-L, score and logistic Elo (95%% interval) "
        "are given from the --red bot's side (counted from the games for a record too old "
        "to hold them), with the SPRT's verdict when the batch runs one. A batch "
        "whose record is unreadable shows as 'unreadable' (named on stderr): its games are "
        "still counted, and --resume rebuilds the record when its spec is intact.",
    )
    add_data_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of batch records")
    p.set_defaults(func=run)


def batch_rows(data_dir: Any = None) -> list[dict[str, Any]]:
    """The batch records of a data folder, each with ``effective_status`` added, and
    ``game_counts`` (the bots' counts from its games) when the record does not hold them."""
    # lazy: start-up time (the records' module loads duckdb and pyarrow: not for --help)
    from sim.storage.records import effective_status, list_batches

    d = resolve_data_dir(data_dir)
    out = []
    for rec in map(BatchRecord.from_dict, list_batches(d)):
        row = rec.to_dict()
        out.append(dict(row, effective_status=effective_status(row, d)))
    _add_game_counts(d, out)
    return out


def _add_game_counts(d: Path, rows: list[dict[str, Any]]) -> None:
    """Give each record too old to tell the bots' results their counts from its games."""
    # lazy: start-up time (duckdb, pandas)
    from sim.stats.batch_counts import batch_counts, needs_game_counts
    from sim.storage.reading import open_dataset

    old = [(str(r["batch_id"]), True) for r in rows if needs_game_counts(r)]
    if not old:
        return

    ds = open_dataset(d)
    counts = ds.read(lambda: batch_counts(ds.con, old))
    for r in rows:
        if r["batch_id"] in counts:
            r["game_counts"] = counts[r["batch_id"]]


def _with_result(r: dict[str, Any]) -> dict[str, Any]:
    """A row of ``--json``: the record with ``result`` (bot a's score and Elo, or null)."""
    s = batch_score(r) if r.get("spec") else None
    return dict(r, result=None if s is None else s.to_dict())


def unreadable_rows(data_dir: Path) -> list[dict[str, Any]]:
    """What the listing leaves out although it may hold games: unreadable records and
    games folders without a record, as ``{"batch_id", "effective_status", "error"}``."""
    # lazy: start-up time (the records' module loads duckdb and pyarrow: not for --help)
    from sim.storage.records import unlisted_batches

    return [
        {"batch_id": bid, "effective_status": "unreadable", "error": why}
        for bid, why in unlisted_batches(data_dir)
    ]


def run(args: argparse.Namespace) -> int:
    """Run ``dsq batches``."""
    d = existing_data_dir(args.data)
    rows = batch_rows(d)
    bad = unreadable_rows(d)
    for r in bad:
        print(f"dsq batches: warning: batch {r['batch_id']}: {r['error']}", file=sys.stderr)
    if args.json:
        print(json.dumps([_with_result(r) for r in rows] + bad, indent=2, allow_nan=False))
        return 0
    if not rows and not bad:
        print(f"no batches in {d}")
        return 0
    print(batches_table(rows + bad))
    return 0
