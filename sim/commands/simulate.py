"""``dsq simulate``: play batches of bot-vs-bot games and record them as parquet.

A thin wrapper over :func:`sim.batch.run.run_batches`: it turns the flags into specs and
options, prints the summary, and maps the outcome to an exit code. SIGTERM is handled here,
not in ``run_batches`` (a library call should not install process-wide signal handlers):
while the batches run, SIGTERM raises ``KeyboardInterrupt`` like Ctrl-C, so the batch
records what was played, says ``interrupted``, and the command exits with 130. A cancel
request (the dashboard's Cancel) or ``--max-seconds`` ends a batch ``cancelled``: exit 3.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.batch.backends import max_workers
from sim.batch.progress import BatchProgress
from sim.commands._common import (
    SEED_ARG,
    add_data_arg,
    float_in,
    int_in,
    sigterm_as_interrupt,
    spec_arg_kind,
)
from sim.commands._variety import attach_distinct, opening_plies_kind, spec_note
from sim.commands.engines import add_engine_log_arg, add_engines_arg, check_progress, logged
from sim.core.batchspec import MAX_GAMES, BatchSpec, spec_fields
from sim.core.seeds import new_batch_seed
from sim.report.batch_text import summary_text
from sim.storage.paths import (
    batch_ids,
    batch_path,
    check_batch_id,
    dsq_line,
    new_batch_id,
    resolve_data_dir,
    writable_data_dir,
)

if TYPE_CHECKING:
    from sim.batch.spec import RunOptions

# The flags that say what new batches play: every spec field's, and the label.
SPEC_ARGS = (*(f.name for f in spec_fields()), "label")
EXIT_FAILED = 1
EXIT_CANCELLED = 3
DEFAULT_RULES = "standard"
DEFAULT_BOT = "random"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` command."""
    p = sub.add_parser(
        "simulate",
        help="play a batch of bot-vs-bot games and record them as parquet",
        description="Play games between two bots under one or more rule sets (one batch per "
        "rules spec, all with the same seeds) and record every game as parquet in the data "
        "folder. Each game's seed derives from the batch seed and the game index only, so "
        "the same command gives the same games for any --workers and on Dask. Exit codes: "
        "0 done; 1 failed; 2 bad arguments; 3 cancelled (a cancel request, or --max-seconds "
        "reached); 130 interrupted (Ctrl-C or SIGTERM). The batch records say the same word, "
        "and dsq simulate --resume BATCH_ID plays the rest of any of them.",
    )
    p.add_argument(
        "--rules",
        help=f"rules spec(s), comma-separated: one batch each (default: {DEFAULT_RULES})",
    )
    p.add_argument(
        "--red",
        help=f"bot playing red (moves first), e.g. greedy, alphabeta:depth=3 (default: "
        f"{DEFAULT_BOT}; dsq bots lists them)",
    )
    p.add_argument("--blue", help=f"bot playing blue (default: {DEFAULT_BOT})")
    p.add_argument(
        "--games", type=int_in(1, MAX_GAMES), help=f"games per batch (1..{MAX_GAMES}; required)"
    )
    p.add_argument("--seed", type=SEED_ARG, help="batch seed (default: random, recorded)")
    for f in spec_fields():  # the options of the spec: flags declared with its fields
        if f.name == "opening_plies":  # auto (None) or N: see sim.bots.variety
            p.add_argument(f.flag, default=None, **opening_plies_kind())
        elif f.help:
            p.add_argument(f.flag, default=None, help=f.help, **spec_arg_kind(f))
    p.add_argument(
        "--workers",
        type=int_in(1, max_workers()),
        default=1,
        help=f"local worker processes (1..{max_workers()}; default 1)",
    )
    p.add_argument("--scheduler", help="run on a Dask cluster: tcp://HOST:PORT")
    add_data_arg(p, creates=True)
    p.add_argument("--label", help="free text stored with the batch (one line)")
    p.add_argument("--batch-id", help="choose the batch id (several rules: ID-1, ID-2, ...)")
    p.add_argument("--resume", metavar="BATCH_ID", help="play exactly the missing games")
    p.add_argument(
        "--sprt",
        metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
        help="stop a match as soon as a sequential probability ratio test decides (fishtest's"
        " GSPRT on the logistic Elo of the --red bot; pentanomial with --swap); the LLR and"
        " bounds are stored with the batch",
    )
    p.add_argument("--spec-file", help=argparse.SUPPRESS)  # sim.batch.launch_detached's
    add_engines_arg(p)
    p.add_argument(
        "--force-engines",
        action="store_true",
        help="play external engines without the rules check, even if their claimed rules "
        "differ from --rules (their games may end in forfeits)",
    )
    add_engine_log_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON summary at the end")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no progress, and no summary unless a batch ends other than done",
    )
    adv = p.add_argument_group("tuning (does not change the games)")
    adv.add_argument(
        "--chunk-games", type=int_in(1, 100_000), default=20000, help="max games per task (20000)"
    )
    adv.add_argument(
        "--chunk-seconds",
        type=float_in(0.001, 3600),
        default=1.0,
        help="max seconds per task (1)",
    )
    adv.add_argument(
        "--flush-games",
        type=int_in(1, 1_000_000),
        default=20000,
        help="max games per parquet file (20000)",
    )
    adv.add_argument(
        "--flush-seconds",
        type=float_in(0.001, 86400),
        default=10.0,
        help="write a file at least this often (10)",
    )
    adv.add_argument(
        "--max-seconds",
        type=float_in(0.001, 10**9),
        default=None,
        help="stop the batch after this much wall time, as if cancelled (resumable)",
    )
    p.set_defaults(func=run)


def _options(args: argparse.Namespace) -> RunOptions:
    # lazy: start-up time (the batch runner loads pyarrow, duckdb: not for --help)
    from sim.batch.spec import RunOptions

    return RunOptions(
        chunk_games=args.chunk_games,
        chunk_seconds=args.chunk_seconds,
        flush_games=args.flush_games,
        flush_seconds=args.flush_seconds,
        max_seconds=args.max_seconds,
    )


def _specs(args: argparse.Namespace) -> list[BatchSpec]:
    """The specs of the new batches the flags ask for (one per rules spec, same seed)."""
    # lazy: start-up time (the batch runner loads pyarrow, duckdb: not for --help)
    from sim.batch.spec import make_spec

    if args.games is None:
        raise DsqError("--games is required (or --resume BATCH_ID)")
    seed = args.seed if args.seed is not None else new_batch_seed()
    text = DEFAULT_RULES if args.rules is None else args.rules
    rules = [r.strip() for r in text.split(",")]
    if any(not r for r in rules):
        raise DsqError(f"empty rules spec in --rules {args.rules!r}")
    options = {f.name: getattr(args, f.name) for f in spec_fields() if f.help}
    options = {k: v for k, v in options.items() if v is not None}  # None: the default
    specs = [
        make_spec(
            r,
            DEFAULT_BOT if args.red is None else args.red,
            DEFAULT_BOT if args.blue is None else args.blue,
            args.games,
            seed=seed,
            data_dir=resolve_data_dir(args.data),  # pins its own evaluations (eval=NAME)
            **_suite_option(options, r),
        )
        for r in rules
    ]
    if args.opening_plies is None:  # auto: random plies where the games would repeat
        from sim.batch.spec import with_variety  # lazy: start-up (loads the storage layer)

        specs = [with_variety(s) for s in specs]
    _check_tables(specs, args)
    canon = [s.rules for s in specs]
    if len(set(canon)) != len(canon):
        raise DsqError(f"--rules names the same rules twice: {', '.join(canon)}")
    return specs


def _suite_option(options: dict[str, Any], rules: str) -> dict[str, Any]:
    """``options`` with the ``--openings`` file replaced by its suite's text, read and
    checked under ``rules`` (a ``DsqError`` naming ``FILE:LINE`` otherwise)."""
    if not options.get("openings"):
        return options
    # lazy: start-up time (the engine's Position: only when a suite is given)
    from sim.openings.suite import load_suite

    return {**options, "openings": load_suite(options["openings"], rules).text}


def _check_tables(specs: list[BatchSpec], args: argparse.Namespace) -> None:
    """``DsqError`` before playing if a batch is adjudicated by tables that are missing."""
    if any(spec.adjudicate == "tablebase" for spec in specs):
        # lazy: start-up time (numba kernels, pyarrow)
        from sim.tablebase.adjudicate import adjudicator
        from sim.tablebase.store import tables_root

        for spec in specs:  # tables for every rule set, or a clear error before playing
            adjudicator(spec.rules, tables_root(args.data))


def _from_launch_file(args: argparse.Namespace, options: RunOptions) -> list[BatchSpec]:
    """The specs of a launch file (:func:`sim.batch.launch_detached`); its batch id,
    label, workers and run options replace the flags'."""
    # lazy: start-up time (the batch runner loads pyarrow, duckdb: not for --help)
    from sim.batch.detached import read_launch_file

    given = [a for a in (*SPEC_ARGS, "batch_id", "sprt", "resume") if getattr(args, a) is not None]
    if given:
        flags = ", ".join("--" + a.replace("_", "-") for a in given)
        raise DsqError(f"--spec-file holds what the batches play; drop {flags}")
    launch = read_launch_file(args.spec_file)
    args.batch_id, args.label, args.workers = launch.batch_id, launch.label, launch.workers
    for name, value in launch.options.items():
        setattr(options, name, value)
    _check_tables(launch.specs, args)
    return launch.specs


def _engine_entries(
    args: argparse.Namespace, specs: list[BatchSpec], engines: str | None
) -> tuple[str, ...]:
    """The registry entries of the external engines the batches play, after checking their
    rules (see :func:`sim.external.admission.admit`); empty when no bot is an engine."""
    if specs:
        bots, rules = [specs[0].red, specs[0].blue], [s.rules for s in specs]
    else:  # --resume: the record's bots (run_batches says what is wrong with a bad record)
        try:
            path = batch_path(resolve_data_dir(args.data), check_batch_id(args.resume))
            spec = json.loads(path.read_text(encoding="utf-8"))["spec"]
            bots, rules = [str(spec["red"]), str(spec["blue"])], [str(spec["rules"])]
        except (DsqError, OSError, ValueError, KeyError, TypeError):
            return ()
    if not any(b.startswith("engine:") for b in bots):
        return ()
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.admission import admit
    from sim.external.registry import EngineRegistry

    registry = logged(EngineRegistry.load(engines, args.data), getattr(args, "engine_log", None))
    force = bool(getattr(args, "force_engines", False))
    show = check_progress(bool(args.quiet or getattr(args, "json", False)))
    return admit(registry, bots, rules, args.data, force=force, progress=show)


def default_bots_note(args: argparse.Namespace) -> str | None:
    """The note saying which side's bot was left to its default, or None."""
    if args.resume or getattr(args, "spec_file", None):
        return None
    missing = [f"--{side}" for side in ("red", "blue") if getattr(args, side) is None]
    if not missing:
        return None
    sides = "both sides" if len(missing) == 2 else missing[0][2:]
    return (
        f"dsq simulate: note: {' and '.join(missing)} not given: {DEFAULT_BOT} plays "
        f"{sides} (dsq bots lists the bots)"
    )


def _notes(args: argparse.Namespace, specs: list[BatchSpec]) -> str | None:
    """The notes said before playing: a bot left to its default, deterministic bots."""
    variety = None
    if specs and not args.resume and not getattr(args, "spec_file", None):
        variety = spec_note(specs[0], auto=args.opening_plies is None)
    return "\n".join(n for n in (default_bots_note(args), variety) if n) or None


class NotedProgress(BatchProgress):
    """Progress output that first prints a note, once the first batch really starts (so
    bad arguments still give one error line and nothing else)."""

    def __init__(self, note: str | None) -> None:
        super().__init__()
        self.note = note

    def start(self, name: str, total: int, done: int, counts: dict[str, int]) -> None:
        """Print the note (the first time), then start the batch's progress."""
        if self.note:
            print(self.note, file=self.stream, flush=True)
            self.note = None
        super().start(name, total, done, counts)


def resume_line(batch_id: str | None, data: str | None) -> str:
    """The command that plays the rest of batch ``batch_id`` (``--data`` as given)."""
    return dsq_line("simulate", "--resume", str(batch_id), data=data)


def interrupted_text(data: str | None, ids: list[str]) -> str:
    """What ``dsq simulate`` says when interrupted: which batches stopped short, and the
    command that plays the rest of each."""
    # lazy: start-up time (the record reader)
    from sim.storage.records import read_batch_record

    d = resolve_data_dir(data)
    stopped = []
    for bid in ids:
        try:
            status = read_batch_record(d, bid).get("status")
        except DsqError:
            continue  # never created: nothing to resume
        if status != "done":
            stopped.append(bid)
    if not stopped:
        return "interrupted"
    again = "; ".join(resume_line(bid, data) for bid in stopped)
    return f"interrupted; the games played are recorded, to play the rest: {again}"


def run(args: argparse.Namespace) -> int:
    """Run ``dsq simulate``; return 0 (done), 1 (failed) or 3 (cancelled)."""
    # lazy: start-up time (the batch runner loads pyarrow, duckdb: not for --help)
    from sim.batch.driver import BatchFailed
    from sim.batch.plan import Plan

    writable_data_dir(args.data)  # the bundled sample only when named
    options = _options(args)
    engines = getattr(args, "engines", None)
    if args.quiet:
        # Dask's own warnings (a lost worker, a recomputed task) are progress chatter.
        logging.getLogger("distributed").setLevel(logging.ERROR)
    if args.resume:
        given = [
            a for a in (*SPEC_ARGS, "batch_id", "sprt", "spec_file") if getattr(args, a) is not None
        ]
        if given:
            flags = ", ".join("--" + a.replace("_", "-") for a in given)
            raise DsqError(f"--resume replays a recorded spec; drop {flags}")
        specs = []
    elif getattr(args, "spec_file", None):
        specs = _from_launch_file(args, options)
    else:
        specs = _specs(args)
    options.engines = _engine_entries(args, specs, engines)
    group: str | None = None if args.resume else str(args.batch_id or new_batch_id())
    ids = [args.resume] if group is None else batch_ids(check_batch_id(group), len(specs))
    code = 0
    t0 = time.monotonic()
    with sigterm_as_interrupt():
        try:
            plan = Plan.resuming(ids) if group is None else Plan.new(specs, ids, args.label)
            records = plan.run(
                args.data,
                group=group,
                sprt=args.sprt,
                workers=args.workers,
                scheduler=args.scheduler,
                options=options,
                progress=None if args.quiet else NotedProgress(_notes(args, specs)),
            )
        except KeyboardInterrupt:
            print(f"dsq simulate: {interrupted_text(args.data, ids)}", file=sys.stderr)
            return 130
        except BatchFailed as exc:
            if exc.resource:
                # The machine, not the batch: one line, exit 2; what was recorded is kept.
                print(
                    f"dsq simulate: error: batch {exc.batch_id} stopped: {exc}; the games "
                    f"recorded are kept ({resume_line(exc.batch_id, args.data)} plays the rest)",
                    file=sys.stderr,
                )
                return 2
            print(f"dsq simulate: batch {exc.batch_id} failed: {exc}", file=sys.stderr)
            records, code = exc.records, EXIT_FAILED
        else:
            if any(rec["status"] == "cancelled" for rec in records):
                code = EXIT_CANCELLED
    total = time.monotonic() - t0
    if args.json or not args.quiet or code:
        attach_distinct(args.data, records)
    if args.json:
        data = str(resolve_data_dir(args.data))
        print(json.dumps({"data": data, "seconds": round(total, 3), "batches": records}))
    elif not args.quiet or code:
        print("\n".join(summary_text(rec) for rec in records))
    return code
