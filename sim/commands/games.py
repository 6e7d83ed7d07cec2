"""``dsq games``: export recorded games (text records, CSV, JSON lines) and import text
records (docs/game-records.md)."""

from __future__ import annotations

import argparse
import hashlib
import sys

from sim.commands._common import add_data_arg
from sim.commands.stats import add_selection_args, build_selection
from sim.storage.paths import existing_data_dir, writable_data_dir

FORMATS = ("text", "csv", "jsonl")  # sim.records.gameexport.FORMATS (a test keeps them equal)
MAX_LINE = 1 << 20  # the longest line an imported file may hold (characters)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``games`` command and its ``export`` and ``import`` sub-commands."""
    p = sub.add_parser(
        "games",
        help="export recorded games (text, CSV, JSON lines) and import text records",
        description="Game records people can read: 'export' writes the selected games to "
        "standard output, 'import' reads text records back into a data folder after "
        "replaying every game under its rules. The text format is described in "
        "docs/game-records.md.",
    )
    g = p.add_subparsers(dest="games_command", metavar="ACTION")
    g.required = True
    e = g.add_parser(
        "export",
        help="write the selected games to standard output",
        description="Write the selected games (the selection flags of 'dsq stats') to "
        "standard output, by batch and game index: as text records (tags, numbered moves "
        "with score and time comments, the result), as CSV (one row per game, every "
        "column) or as JSON lines (one object per game, every column).",
    )
    add_data_arg(e)
    add_selection_args(e)
    e.add_argument("--format", choices=FORMATS, default="text", help="output format (text)")
    e.set_defaults(func=run_export)
    i = g.add_parser(
        "import",
        help="read text records into a data folder",
        description="Read games written in the text format (FILE, or - for standard input), "
        "replay each under its rules and check its result, then write them as batches of "
        "the data folder (one per [Batch] tag; games without one form a new import-... "
        "batch), each with a batch record marked as imported. A game that fails is named "
        "by FILE:LINE and nothing is written (exit 2); so is a batch already in the folder.",
    )
    i.add_argument("file", metavar="FILE", help="the text records (- for standard input)")
    add_data_arg(i, creates=True)
    i.set_defaults(func=run_import)


def run_export(args: argparse.Namespace) -> int:
    """Run ``dsq games export``."""
    # lazy: start-up time (duckdb, pyarrow)
    from sim.records.gameexport import batch_dates, export_games
    from sim.storage.reading import open_dataset

    selection = build_selection(args)
    ds = open_dataset(existing_data_dir(args.data))
    try:
        for path, reason in ds.skipped:
            print(f"dsq games: skipped {path}: {reason}", file=sys.stderr)
        written = export_games(ds.con, selection, args.format, sys.stdout, batch_dates(ds.batches))
        sys.stdout.flush()
        if not written:
            # lazy: start-up time (as the export)
            from sim.stats.empty import no_games

            raise no_games(ds.con, selection, ds.data_dir)
    finally:
        ds.close()
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Run ``dsq games import``."""
    # lazy: start-up time (numba kernels, pyarrow)
    from sim.records.gameimport import hashed, numbered_lines, read_games, write_batches

    data_dir = writable_data_dir(args.data)
    name = "<stdin>" if args.file == "-" else args.file
    digest = hashlib.sha256()
    batches = read_games(hashed(numbered_lines(args.file, MAX_LINE), digest), name)
    written, earlier = write_batches(data_dir, batches, name, digest.hexdigest()[:32])
    if earlier:
        print(
            f"finished the import of this file stopped earlier into {data_dir}: batches "
            f"{', '.join(written)}"
        )
        return 0
    games = sum(len(b.indices) for b in batches.values())
    print(f"imported {games} games into {data_dir}: batches {', '.join(written)}")
    return 0
