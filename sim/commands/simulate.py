"""``dsq simulate``: play batches of bot-vs-bot games and record them as parquet."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.batch.backends import make_backend
from sim.batch.driver import (
    BatchFailed,
    RunOptions,
    StopCheck,
    check_resumable,
    create_batch,
    execute_batch,
    make_spec,
    new_batch_id,
    prepare_data_dir,
)
from sim.batch.progress import Progress
from sim.play.seeds import new_batch_seed
from sim.storage.paths import check_batch_id, resolve_data_dir
from sim.storage.records import now_iso, write_batch_record

SPEC_ARGS = ("rules", "red", "blue", "games", "seed", "opening_plies", "ply_cap", "label")
EXIT_FAILED = 1
EXIT_CANCELLED = 3


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` command."""
    p = sub.add_parser(
        "simulate",
        help="play a batch of bot-vs-bot games and record them as parquet",
        description="Play games between two bots under one or more rule sets (one batch per "
        "rules spec, all with the same seeds) and record every game as parquet in the data "
        "folder. Each game's seed derives from the batch seed and the game index only, so "
        "the same command gives the same games for any --workers and on Dask. Exit codes: "
        "0 done, 1 failed, 2 bad arguments, 3 cancelled, 130 interrupted.",
    )
    p.add_argument("--rules", help="rules spec(s), comma-separated: one batch each")
    p.add_argument("--red", help="bot playing red (moves first), e.g. random, greedy")
    p.add_argument("--blue", help="bot playing blue")
    p.add_argument("--games", type=_int, help="games per batch")
    p.add_argument("--seed", type=_int, help="batch seed (default: random, recorded)")
    p.add_argument(
        "--swap",
        action="store_true",
        default=None,
        help="play every opening twice with colours exchanged (games 2k, 2k+1 share pair k)",
    )
    p.add_argument("--opening-plies", type=_int, help="uniformly random opening plies (0)")
    p.add_argument("--ply-cap", type=_int, help="draw after this many plies (1000)")
    p.add_argument("--workers", type=_int, default=1, help="local worker processes (1)")
    p.add_argument("--scheduler", help="run on a Dask cluster: tcp://HOST:PORT")
    p.add_argument("--data", help="data folder (default: $DSQ_DATA, else data/ in the project)")
    p.add_argument("--label", help="free text stored with the batch")
    p.add_argument("--batch-id", help="choose the batch id (several rules: ID-1, ID-2, ...)")
    p.add_argument("--resume", metavar="BATCH_ID", help="play exactly the missing games")
    p.add_argument(
        "--sprt",
        metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
        help="stop a match as soon as a sequential probability ratio test decides (fishtest's"
        " GSPRT on the logistic Elo of the --red bot; pentanomial with --swap); the LLR and"
        " bounds are stored with the batch",
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary at the end")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    adv = p.add_argument_group("tuning (does not change the games)")
    adv.add_argument("--chunk-games", type=_int, default=1000, help="max games per task (1000)")
    adv.add_argument("--chunk-seconds", type=_float, default=1.0, help="max seconds per task (1)")
    adv.add_argument(
        "--flush-games", type=_int, default=20000, help="max games per parquet file (20000)"
    )
    adv.add_argument(
        "--flush-seconds", type=_float, default=10.0, help="write a file at least this often (10)"
    )
    p.set_defaults(func=run)


def _options(args: argparse.Namespace) -> RunOptions:
    if args.chunk_games < 1 or args.flush_games < 1:
        raise DsqError("--chunk-games and --flush-games must be at least 1")
    return RunOptions(
        chunk_games=args.chunk_games,
        chunk_seconds=args.chunk_seconds,
        flush_games=args.flush_games,
        flush_seconds=args.flush_seconds,
    )


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    """Run ``dsq simulate``."""
    options = _options(args)
    if args.workers < 1:
        raise DsqError(f"--workers must be at least 1, got {args.workers}")
    if args.resume:
        given = [
            a for a in (*SPEC_ARGS, "swap", "batch_id", "sprt") if getattr(args, a) is not None
        ]
        if given:
            flags = ", ".join("--" + a.replace("_", "-") for a in given)
            raise DsqError(f"--resume replays a recorded spec; drop {flags}")
        check_batch_id(args.resume)
        check_resumable(resolve_data_dir(args.data), args.resume)
        specs = []
    else:
        if args.rules is None or args.games is None:
            raise DsqError("--rules and --games are required (or --resume BATCH_ID)")
        if args.batch_id is not None:
            check_batch_id(args.batch_id)
        if args.sprt is not None:
            from sim.stats.sprt import parse_sprt

            args.sprt = parse_sprt(args.sprt).spec
        seed = args.seed if args.seed is not None else new_batch_seed()
        rules = [r.strip() for r in args.rules.split(",")]
        if any(not r for r in rules):
            raise DsqError(f"empty rules spec in --rules {args.rules!r}")
        specs = [
            make_spec(
                r,
                args.red or "random",
                args.blue or "random",
                args.games,
                seed=seed,
                swap=bool(args.swap),
                opening_plies=args.opening_plies if args.opening_plies is not None else 0,
                ply_cap=args.ply_cap if args.ply_cap is not None else 1000,
            )
            for r in rules
        ]
        canon = [s.rules for s in specs]
        if len(set(canon)) != len(canon):
            raise DsqError(f"--rules names the same rules twice: {', '.join(canon)}")

    backend = make_backend(args.workers, args.scheduler)
    cancelled_by_signal = False
    try:
        data_dir = prepare_data_dir(args.data)
        if args.resume:
            ids = [args.resume]
        else:
            group = args.batch_id or new_batch_id()
            ids = []
            for k, spec in enumerate(specs):
                bid = group if len(specs) == 1 else f"{group}-{k + 1}"
                create_batch(
                    data_dir, spec, label=args.label, group=group, batch_id=bid, sprt=args.sprt
                )
                ids.append(bid)
        if hasattr(signal, "SIGTERM"):
            signal.signal(signal.SIGTERM, _terminate)
        return _run_all(args, data_dir, ids, backend, options)
    except KeyboardInterrupt:
        cancelled_by_signal = True
        raise
    finally:
        backend.close(cancel=cancelled_by_signal)


def _run_all(
    args: argparse.Namespace, data_dir: Path, ids: list[str], backend: Any, options: RunOptions
) -> int:
    progress = None if args.quiet else Progress()
    records: list[dict[str, Any]] = []
    code = 0
    t0 = time.monotonic()
    try:
        for i, bid in enumerate(ids):
            if code != 0:
                _cancel_queued(data_dir, ids[i:])
                break
            start = time.monotonic()
            try:
                rec = execute_batch(
                    data_dir, bid, backend, options, progress, build_stop_check(data_dir, bid)
                )
            except BatchFailed as exc:
                from sim.storage.records import read_batch_record

                rec = read_batch_record(data_dir, bid)
                print(f"dsq simulate: batch {bid} failed: {exc}", file=sys.stderr)
                code = EXIT_FAILED
            else:
                if rec["status"] == "cancelled":
                    code = EXIT_CANCELLED
            rec = dict(rec, seconds=round(time.monotonic() - start, 3))
            records.append(rec)
    except KeyboardInterrupt:
        _cancel_queued(data_dir, ids[len(records) + 1 :])
        raise
    total = time.monotonic() - t0
    if args.json:
        print(json.dumps({"data": str(data_dir), "seconds": round(total, 3), "batches": records}))
    elif not args.quiet or code:
        for rec in records:
            print(_summary_line(rec))
    return code


def build_stop_check(data_dir: Path, batch_id: str) -> StopCheck | None:
    """The early-stopping check of one batch (its recorded ``--sprt`` spec), or None.

    A fresh :func:`sim.stats.sprt.make_stop_check` is built for each batch, also when it is
    resumed. The driver calls it between chunks with the counts described in
    :func:`sim.batch.execute_batch`.
    """
    from sim.storage.records import read_batch_record

    spec = read_batch_record(data_dir, batch_id).get("sprt")
    if not spec:
        return None
    from sim.stats.sprt import make_stop_check

    return make_stop_check(spec)


def _summary_line(rec: dict[str, Any]) -> str:
    s = rec["spec"]
    c = rec["counts"]
    secs = rec.get("seconds") or 0.0
    return (
        f"{rec['batch_id']}  {rec['status']:<9} {rec['games_done']}/{rec['games_planned']}  "
        f"rules {s['rules']}  {s['red']} vs {s['blue']}{' (swap)' if s['swap'] else ''}  "
        f"red {c['red']} blue {c['blue']} draw {c['draw']}  {secs:.1f} s"
    )


def _cancel_queued(data_dir: Path, ids: list[str]) -> None:
    from sim.storage.records import read_batch_record

    for bid in ids:
        try:
            rec = read_batch_record(data_dir, bid)
        except DsqError:
            continue
        if rec.get("status") == "queued":
            rec.update(status="cancelled", finished_at=now_iso(), error="not started")
            write_batch_record(data_dir, rec)
