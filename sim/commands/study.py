"""``dsq study``: play a study file (rule sets × a ladder of bots) and report its figures."""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.errors import DsqError
from sim.batch.backends import max_workers
from sim.commands._common import add_data_arg, existing_data_dir, int_in, sigterm_as_interrupt
from sim.storage.paths import writable_data_dir


def register(subparsers: Any) -> None:
    """Add ``dsq study run`` and ``dsq study report``."""
    p = subparsers.add_parser(
        "study",
        help="play a study file and report its figures (docs/studies.md)",
        description="A study plays every rule set of a TOML file against a ladder of bots "
        "as ordinary batches, then reports per cell the first-move advantage, draws, "
        "lengths, endings, branching, coverage and the anti-chasing rules' work, the skill "
        "depth per rule set and the grid options' effects (docs/studies.md).",
    )
    sub = p.add_subparsers(dest="study_command", metavar="{run,report}", required=True)
    r = sub.add_parser(
        "run",
        help="play (or resume) a study",
        description="Play every cell of the study; run it again to resume after an interruption.",
    )
    r.add_argument("file", metavar="FILE", help="the study file (TOML)")
    r.add_argument(
        "--quick",
        action="store_true",
        help="the file's [quick] first look (fewer games), a study of its own",
    )
    add_data_arg(r, creates=True)
    g = r.add_mutually_exclusive_group()
    g.add_argument(
        "--workers",
        type=int_in(1, max_workers()),
        default=None,
        metavar="N",
        help="worker processes (default: the file's run.workers, else 1)",
    )
    g.add_argument(
        "--scheduler", default=None, metavar="ADDR", help="a Dask scheduler to play on (host:port)"
    )
    r.add_argument("--quiet", action="store_true", help="no progress lines")
    r.set_defaults(func=run_cmd)
    rep = sub.add_parser(
        "report",
        help="the figures of a study",
        description="Every figure of every cell, the ladder and the effects.",
    )
    rep.add_argument("study", metavar="FILE|NAME", help="a study file, or a recorded study's name")
    rep.add_argument("--quick", action="store_true", help="the report of the --quick run")
    add_data_arg(rep)
    rep.add_argument("--json", action="store_true", help="print one JSON object")
    rep.add_argument("--csv", metavar="PATH", help="also write the cells' table as CSV")
    rep.set_defaults(func=report_cmd)


def run_cmd(args: argparse.Namespace) -> int:
    """Play the study; print where its report is."""
    # lazy: start-up time (the batch machinery)
    from sim.study.budget import check_budget
    from sim.study.run import run_study
    from sim.study.spec import load_study

    data = writable_data_dir(args.data)
    study = load_study(args.file, quick=args.quick)
    check_budget(study, args.workers or study.workers)
    with sigterm_as_interrupt():
        out = run_study(
            study, data, workers=args.workers, scheduler=args.scheduler, quiet=args.quiet
        )
    print(
        f"study {study.name}: {out['games']:,} games played in {out['seconds']:.1f} s "
        f"({out['batches']} batches); dsq study report {args.file}"
        + (" --quick" if args.quick else "")
    )
    return 0


def report_cmd(args: argparse.Namespace) -> int:
    """Print the study's figures (text or JSON)."""
    # lazy: start-up time (DuckDB, statsmodels)
    from sim.report.jsonable import jsonable
    from sim.study.report import build_report, cells_frame, report_text, resolve_study
    from sim.study.spec import load_study

    data = existing_data_dir(args.data)
    study = resolve_study(args.study, data)
    if args.quick:
        study = load_study(study.path, quick=True)
    rep = build_report(study, data)
    if not any(c["games"] for c in rep["cells"]):
        raise DsqError(f"study {study.name!r} has no games in {data}: dsq study run {study.path}")
    if args.csv:
        cells_frame(rep).to_csv(args.csv, index=False)
    if args.json:
        print(json.dumps(jsonable(rep)))
    else:
        print(report_text(rep), end="")
    return 0
