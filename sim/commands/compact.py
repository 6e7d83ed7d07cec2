"""``dsq compact``: merge a batch's many small games files into few large ones."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING

from engine.errors import DsqError
from sim.commands._common import add_data_arg, int_in, print_json
from sim.storage.paths import check_batch_id, existing_data_dir, games_dir, writable_data_dir

if TYPE_CHECKING:
    from sim.storage.compacting import BatchResult

TARGET_GAMES = 1_000_000  # as sim.storage.compacting.TARGET_GAMES (kept light for --help)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``compact`` command."""
    p = sub.add_parser(
        "compact",
        help="merge a batch's small games files into large ones",
        description="Merge the many small games files a long run leaves in a batch's folder "
        "into few large ones (sorted by game index, verified like any), holding the batch's "
        "lock: a batch that dsq simulate or another dsq compact is running is refused. "
        "Each game counts exactly once at every moment, and a compaction stopped at any "
        "point (even kill -9) is finished or rolled back by the next dsq compact. Files "
        "that are not dsq's own (copies, foreign or set-aside files) are left alone and "
        "named. Writes into the bundled sample only when --data names it.",
    )
    add_data_arg(p)
    p.add_argument(
        "--batch",
        action="append",
        metavar="ID",
        help="a batch to compact (repeatable; default: every batch of the data folder)",
    )
    p.add_argument(
        "--target-games",
        type=int_in(2, 100_000_000, "whole number 2..100000000"),
        default=TARGET_GAMES,
        help=f"games per merged file at most (default {TARGET_GAMES:,}; a merged file is also "
        "made of at most 32 MiB of files, which bounds the memory used)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _mib(n: int) -> str:
    return f"{n / 2**20:,.1f} MiB"


def result_line(r: BatchResult) -> str:
    """One batch's line: files before -> after, games, bytes before -> after."""
    line = (
        f"{r.batch_id}: {r.files_before} -> {r.files_after} files, {r.games:,} games, "
        f"{_mib(r.bytes_before)} -> {_mib(r.bytes_after)}"
    )
    extra = [*r.notes]
    if r.left_alone:
        extra.append(f"{len(r.left_alone)} file(s) left alone")
    return line + (f" ({'; '.join(extra)})" if extra else "")


def run(args: argparse.Namespace) -> int:
    """Run ``dsq compact``."""
    # lazy: start-up time (compacting loads pyarrow)
    from sim.storage.compacting import TARGET_BYTES, batch_folders, compact_batch
    from sim.storage.locks import BatchBusy, BatchLock

    writable_data_dir(args.data)  # the bundled sample only when named
    d = existing_data_dir(args.data)
    ids = [check_batch_id(b) for b in args.batch] if args.batch else batch_folders(d)
    ids = list(dict.fromkeys(ids))
    for b in ids:
        if not games_dir(d, b).is_dir():
            raise DsqError(f"batch {b} has no games in {d}")
    results = []
    with ExitStack() as locks:
        for b in ids:  # every lock first: nothing is changed unless all are free
            try:
                locks.enter_context(BatchLock(d, b))
            except BatchBusy as exc:
                raise DsqError(f"cannot compact: {exc}") from None
        for b in ids:
            results.append(compact_batch(d, b, args.target_games, TARGET_BYTES))
            if not args.json:
                r = results[-1]
                print(result_line(r), flush=True)
                for name, why in r.left_alone:
                    print(f"  left alone: {name}: {why}")
    if args.json:
        print_json({"data": str(d), "batches": [r.to_json() for r in results]})
    elif not ids:
        print(f"no batches in {d}", file=sys.stderr)
    return 0
