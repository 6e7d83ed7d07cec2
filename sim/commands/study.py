"""``dsq study``: play a study file (rule sets × a ladder of bots) and report its figures."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any

from engine.errors import DsqError
from sim.batch.backends import max_workers
from sim.commands._common import add_data_arg, float_in, int_in, sigterm_as_interrupt
from sim.storage.paths import (
    dsq_line,
    existing_data_dir,
    resolve_data_dir,
    sample_unnamed,
    writable_data_dir,
)


def register(subparsers: Any) -> None:
    """Add ``dsq study run``, ``dsq study plan`` and ``dsq study report``."""
    p = subparsers.add_parser(
        "study",
        help="play a study file and report its figures (docs/studies.md)",
        description="A study plays every rule set of a TOML file against a ladder of bots "
        "as ordinary batches, then reports per cell the first-move advantage, draws, "
        "lengths, endings, branching, coverage and the anti-chasing rules' work, the skill "
        "depth per rule set and the grid options' effects (docs/studies.md).",
    )
    sub = p.add_subparsers(dest="study_command", metavar="{run,plan,report}", required=True)
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
    r.add_argument(
        "--recorded-bots",
        action="store_true",
        help="continue a study with the bots pinned when it started, though today's "
        "evaluations differ",
    )
    r.set_defaults(func=run_cmd)
    add_plan_parser(sub)
    rep = sub.add_parser(
        "report",
        help="the figures of a study",
        description="Every figure of every cell, the ladder and the effects.",
    )
    rep.add_argument("study", metavar="FILE|NAME", help="a study file, or a recorded study's name")
    rep.add_argument("--quick", action="store_true", help="the report of the --quick run")
    add_data_arg(rep)
    form = rep.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON object")
    form.add_argument(
        "--markdown",
        action="store_true",
        help="print the findings as a Markdown page (what was played, verdicts, skill "
        "curves, conclusions)",
    )
    rep.add_argument("--csv", metavar="PATH", help="also write the cells' table as CSV")
    rep.add_argument("--curves-csv", metavar="PATH", help="also write the skill curves as CSV")
    rep.add_argument("--findings-csv", metavar="PATH", help="also write the verdict table as CSV")
    rep.add_argument(
        "--from-json",
        metavar="FILE",
        help="report from a saved --json report instead of the data folder",
    )
    rep.set_defaults(func=report_cmd)


def _without_pool_race(previous: Any) -> Any:
    """A ``threading.excepthook`` that drops one error of Python 3.11's process pool: a
    SIGTERM to the whole process group (a service manager's stop) kills the workers while
    the interrupted driver cancels its queued chunks, and the pool's manager thread, failing
    every queued chunk, dies of ``InvalidStateError`` on the cancelled ones (Python 3.12
    ignores it there). The games played are recorded all the same; every other error goes
    to ``previous``."""
    # lazy: start-up time (multiprocessing)
    from concurrent.futures import InvalidStateError
    from concurrent.futures.process import _ExecutorManagerThread

    if getattr(previous, "drops_pool_race", False):
        return previous

    def hook(args: threading.ExceptHookArgs) -> None:
        if not (
            issubclass(args.exc_type, InvalidStateError)
            and isinstance(args.thread, _ExecutorManagerThread)
        ):
            previous(args)

    hook.drops_pool_race = True  # type: ignore[attr-defined]
    return hook


def run_cmd(args: argparse.Namespace) -> int:
    """Play the study; print where its report is."""
    # lazy: start-up time (the batch machinery)
    from sim.study.budget import check_budget
    from sim.study.run import run_study
    from sim.study.spec import load_study, repeating_cells

    data = writable_data_dir(args.data)
    study = load_study(args.file, quick=args.quick)
    check_budget(study, args.workers or study.workers)
    for cell, limit in repeating_cells(study):
        print(
            f"dsq study run: note: cell {cell.index} ({cell.rules}, {cell.condition}) has "
            f"deterministic bots and no random opening ply: at most {limit} distinct games "
            "(give opening_plies or an openings suite for variety)",
            file=sys.stderr,
        )
    threading.excepthook = _without_pool_race(threading.excepthook)
    with sigterm_as_interrupt():
        out = run_study(
            study,
            data,
            workers=args.workers,
            scheduler=args.scheduler,
            quiet=args.quiet,
            recorded_pins=args.recorded_bots,
        )
    print(
        f"study {study.name}: {out['games']:,} games played in {out['seconds']:.1f} s "
        f"({out['batches']} batches); "
        + dsq_line("study", "report", args.file, *_quick(args), data=args.data)
    )
    return 0


def report_cmd(args: argparse.Namespace) -> int:
    """Print the study's figures (text or JSON)."""
    # lazy: start-up time (DuckDB, statsmodels)
    from sim.report.jsonable import jsonable
    from sim.study.findings_text import curve_rows, finding_rows
    from sim.study.markdown import report_markdown
    from sim.study.report import (
        build_report,
        cells_frame,
        read_saved_report,
        report_text,
        resolve_study,
    )
    from sim.study.spec import load_study

    if args.from_json:
        rep = read_saved_report(args.from_json)
    else:
        data = existing_data_dir(args.data)
        study = resolve_study(args.study, data)
        if args.quick:
            study = load_study(study.path, quick=True)
        rep = build_report(study, data)
        if not any(c["games"] for c in rep["cells"]):
            again = dsq_line("study", "run", str(study.path), *_quick(args), data=args.data)
            raise DsqError(f"study {study.name!r} has no games in {data}: {again}")
    if args.csv:
        cells_frame(rep).to_csv(args.csv, index=False)
    if args.curves_csv or args.findings_csv:
        # lazy: start-up time (pandas, only for the CSV files)
        import pandas as pd

        if args.curves_csv:
            pd.DataFrame(curve_rows(rep)).to_csv(args.curves_csv, index=False)
        if args.findings_csv:
            pd.DataFrame(finding_rows(rep)).to_csv(args.findings_csv, index=False)
    if args.json:
        print(json.dumps(jsonable(rep)))
    elif args.markdown:
        print(report_markdown(rep), end="")
    else:
        print(report_text(rep), end="")
    return 0


def _quick(args: argparse.Namespace) -> list[str]:
    """``--quick`` when it was given: the hints repeat it."""
    return ["--quick"] if args.quick else []


def _sizes(text: str) -> list[int]:
    """argparse type of ``--dask-workers``: ``8``, or a list ``8,32``."""
    parse = int_in(1, 100_000, "workers")
    return [parse(part) for part in text.split(",")]


def add_plan_parser(sub: Any) -> None:
    """Add ``dsq study plan``."""
    pl = sub.add_parser(
        "plan",
        help="what a study will cost, before it is played",
        description="Every cell's games, its CPU seconds per game (from finished batches of "
        "the same spec, else a short calibration, cached in the data folder, else a rough "
        "model), the CPU-hours and the wall time on local workers and on Dask clusters.",
    )
    pl.add_argument("file", metavar="FILE", help="the study file (TOML)")
    pl.add_argument("--quick", action="store_true", help="the plan of the file's [quick] look")
    add_data_arg(pl, creates=True)
    pl.add_argument(
        "--workers",
        type=int_in(1, max_workers()),
        default=None,
        metavar="N",
        help="local workers (default: the file's run.workers, else 1); also calibrate on them",
    )
    pl.add_argument(
        "--dask-workers",
        type=_sizes,
        action="append",
        default=None,
        metavar="N",
        help="the workers of a Dask cluster to show the wall time on (repeatable, or a list "
        "8,32; default 8 and 32)",
    )
    pl.add_argument(
        "--calibrate",
        type=int_in(0, 1000),
        default=4,
        metavar="GAMES",
        help="games played for each spec without a measured cost (default 4; 0: the rough "
        "model instead)",
    )
    pl.add_argument(
        "--calibrate-seconds",
        type=float_in(0.0, 3600.0),
        default=20.0,
        metavar="S",
        help="start no calibration game of a spec after this many seconds (default 20)",
    )
    pl.add_argument("--json", action="store_true", help="print one JSON object")
    pl.set_defaults(func=plan_cmd)


def plan_cmd(args: argparse.Namespace) -> int:
    """Print the study's plan (text or JSON)."""
    # lazy: start-up time (the batch machinery)
    from sim.study.plan import DASK_WORKERS, plan_json, plan_study, plan_text
    from sim.study.spec import load_study

    study = load_study(args.file, quick=args.quick)
    dask = [n for group in args.dask_workers for n in group] if args.dask_workers else None
    plan = plan_study(
        study,
        resolve_data_dir(args.data),
        workers=args.workers,
        dask=tuple(dask or DASK_WORKERS),
        calibrate=args.calibrate,
        calibrate_seconds=args.calibrate_seconds,
        cache=not sample_unnamed(args.data),
    )
    if args.json:
        print(json.dumps(plan_json(plan)))
    else:
        print(plan_text(plan), end="")
    return 0
