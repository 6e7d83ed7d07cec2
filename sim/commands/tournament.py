"""``dsq tournament``: round robin, gauntlet or Swiss over several bots, each pairing an
ordinary colour-swapped batch; resumable; prints the cross table, ratings, pentanomial
per pair, forfeits and the first-move figure (docs/tournaments.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import DsqError
from sim.batch.backends import max_workers
from sim.commands._common import SEED_ARG, add_data_arg, int_in, sigterm_as_interrupt, spec_arg_kind
from sim.commands._variety import opening_plies_kind, tournament_plies
from sim.commands.engines import add_engine_log_arg, add_engines_arg, check_progress, logged
from sim.storage.paths import dsq_line, existing_data_dir, resolve_data_dir, writable_data_dir

FORMATS = ("round-robin", "gauntlet", "swiss")  # sim.tournament.plan.FORMATS
# The flags that say what a tournament plays (refused with --resume and --report).
PLAN_ARGS = (
    "format", "players", "games_per_pair", "rounds", "openings", "openings_order", "rules",
    "tournament_id", "seed", "opening_plies", "ply_cap", "sprt",
)  # fmt: skip
EXIT_FAILED = 1
EXIT_INCOMPLETE = 3


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tournament`` command."""
    p = sub.add_parser(
        "tournament",
        help="a round robin, gauntlet or Swiss over several bots (docs/tournaments.md)",
        description="Play a tournament between bots: every pairing is an ordinary batch of "
        "colour-swapped games, so dsq stats and the dashboard see its games. Running the "
        "same command again (or --resume ID) plays only what is missing. At the end it "
        "prints the standing, the cross table, Bradley-Terry ratings, the pentanomial per "
        "pair, forfeits and time losses, and the first-move figure. Exit codes: 0 "
        "complete; 1 a batch failed; 2 bad arguments; 3 stopped before the end; 130 "
        "interrupted (Ctrl-C or SIGTERM).",
    )
    p.add_argument("--format", choices=FORMATS, help="round-robin, gauntlet or swiss")
    p.add_argument(
        "--players",
        nargs="+",
        metavar="SPEC",
        help="bot specs (greedy, alphabeta:depth=2, mcts:playouts=200, engine:NAME, ...); "
        "a gauntlet tests the first against each other",
    )
    p.add_argument(
        "--games-per-pair",
        type=int_in(1, 1_000_000),
        metavar="N",
        help="games of each pairing in each round (even: colour-swapped pairs; default 2)",
    )
    p.add_argument(
        "--rounds",
        type=int_in(1, 1000),
        metavar="N",
        help="rounds (round robin, gauntlet: repeats, default 1; swiss: default log2 of "
        "the players, rounded up)",
    )
    p.add_argument("--rules", metavar="SPEC", help="rules spec (default: standard)")
    p.add_argument(
        "--openings",
        metavar="FILE",
        help="opening suite (docs/openings.md): every pairing of a round plays the same "
        "openings, each with colours swapped",
    )
    p.add_argument(
        "--openings-order",
        **spec_arg_kind("openings_order"),
        help="the order pairs take the suite's openings (default sequential; a Swiss "
        "draws each round's opening at random)",
    )
    p.add_argument(
        "--swap", action="store_true", help="implied: each opening is played with colours swapped"
    )
    p.add_argument("--opening-plies", **opening_plies_kind())
    p.add_argument(
        "--ply-cap", **spec_arg_kind("ply_cap"), metavar="N", help="a game's most plies (1000)"
    )
    p.add_argument(
        "--tournament-id",
        "--name",
        dest="tournament_id",
        metavar="ID",
        help="the tournament's id (its batches are ID-r01-p1p2, ...; default: a digest of "
        "the command)",
    )
    p.add_argument(
        "--seed",
        type=SEED_ARG,
        help="the tournament seed (default: derived from the id)",
    )
    p.add_argument(
        "--sprt",
        metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
        help="gauntlet only: stop each pairing when an SPRT on the tested player decides",
    )
    p.add_argument(
        "--workers",
        type=int_in(1, max_workers()),
        default=1,
        metavar="N",
        help=f"local worker processes (1..{max_workers()}; default 1)",
    )
    p.add_argument("--scheduler", metavar="ADDR", help="play on a Dask cluster: tcp://HOST:PORT")
    add_data_arg(p, creates=True)
    add_engines_arg(p)
    add_engine_log_arg(p)
    p.add_argument(
        "--force-engines", action="store_true", help="play external engines without the rules check"
    )
    p.add_argument("--resume", metavar="ID", help="play what is missing of a recorded tournament")
    p.add_argument("--report", metavar="ID", help="print a recorded tournament's results only")
    p.add_argument("--list", action="store_true", help="list the recorded tournaments")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=run)


def _given(args: argparse.Namespace) -> list[str]:
    return ["--" + a.replace("_", "-") for a in PLAN_ARGS if getattr(args, a) is not None]


def _tournament(args: argparse.Namespace) -> tuple[Any, str | None]:
    """The tournament the flags describe (its suite read under its rules), with its
    opening plies chosen when ``--opening-plies`` is ``auto``, and the note to say."""
    given = args.opening_plies
    t = _plan(args, 0 if given is None else given)
    games = t.games_per_pair * (1 if t.format == "swiss" else t.rounds)
    plies, note = tournament_plies(list(t.players), t.format, games, t.openings, given)
    if given is None:
        kept = _recorded_plies(args)  # a tournament of that id keeps what it chose
        if kept is not None and kept != plies:
            plies, note = tournament_plies(list(t.players), t.format, games, t.openings, kept)
        if plies:
            t = _plan(args, plies)
    return t, note


def _recorded_plies(args: argparse.Namespace) -> int | None:
    """The opening plies of the recorded tournament ``--tournament-id`` names, or None."""
    # lazy: start-up time (the plan's file)
    from sim.tournament.plan import load, tournament_path

    if not args.tournament_id:
        return None
    d = resolve_data_dir(args.data)
    try:
        return (
            load(d, args.tournament_id).opening_plies
            if tournament_path(d, args.tournament_id).exists()
            else None
        )
    except DsqError:
        return None  # register says what is wrong with it


def _plan(args: argparse.Namespace, opening_plies: int) -> Any:
    """The tournament the flags describe with ``opening_plies``."""
    # lazy: start-up time (the batch spec, the bots and the engine)
    from sim.tournament.plan import make_tournament

    if args.format is None or args.players is None:
        raise DsqError("give --format and --players (or --resume ID, --report ID, --list)")
    rules = args.rules or "standard"
    openings = ""
    if args.openings:
        # lazy: start-up time (the engine's Position: only when a suite is given)
        from sim.openings.suite import load_suite

        openings = load_suite(args.openings, rules).text
    return make_tournament(
        args.format,
        list(args.players),
        rules=rules,
        games_per_pair=args.games_per_pair,
        rounds=args.rounds,
        seed=args.seed,
        tid=args.tournament_id,
        opening_plies=opening_plies,
        ply_cap=1000 if args.ply_cap is None else args.ply_cap,
        openings=openings,
        openings_order=args.openings_order or "sequential",
        sprt=args.sprt,
    )


def _engines(args: argparse.Namespace, t: Any) -> tuple[str, ...]:
    """The registry entries of the external engines among the players, admitted."""
    if not any(p.startswith("engine:") for p in t.players):
        return ()
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.admission import admit
    from sim.external.registry import EngineRegistry

    registry = logged(EngineRegistry.load(args.engines, args.data), args.engine_log)
    show = check_progress(bool(args.quiet or args.json))
    return admit(registry, list(t.players), [t.rules], args.data, force=args.force_engines,
                 progress=show)  # fmt: skip


def _print_report(t: Any, data: Any, as_json: bool) -> None:
    # lazy: start-up time (DuckDB, scipy)
    from sim.report.jsonable import jsonable
    from sim.tournament.report import build_report
    from sim.tournament.text import report_text

    rep = build_report(t, data)
    if as_json:
        print(json.dumps(jsonable(rep)))
    else:
        print(report_text(rep), end="")


def _print_list(d: Any) -> None:
    """The tournaments of the data folder ``d``: id, format, players, games, status."""
    # lazy: start-up time (the batch records)
    from sim.bots.spec import short_spec
    from sim.report.tables import aligned_table
    from sim.tournament import plan
    from sim.tournament.report import tournament_line

    rows = []
    for tid in plan.recorded_tournaments(d):
        try:
            line = tournament_line(plan.load(d, tid), d)
        except DsqError as exc:
            rows.append([tid, "?", "?", "?", f"unreadable: {exc}"])
            continue
        players = " ".join(short_spec(p) for p in line["players"])
        rows.append([tid, line["format"], players, f"{line['games']:,}", line["status"]])
    if rows:
        print(aligned_table(["ID", "FORMAT", "PLAYERS", "GAMES", "STATUS"], rows, {3}, ""))
    else:
        print(f"no tournament in {d}")


def run(args: argparse.Namespace) -> int:
    """Run ``dsq tournament``; 0 complete, 1 failed, 3 stopped before the end."""
    # lazy: start-up time (the batch machinery)
    from sim.batch.driver import BatchFailed
    from sim.batch.spec import RunOptions
    from sim.tournament import plan
    from sim.tournament.run import run_tournament

    modes = [m for m in ("resume", "report") if getattr(args, m) is not None]
    if args.list:
        modes.append("list")
    if len(modes) > 1:
        raise DsqError(f"give one of --{', --'.join(modes)}")
    if modes and _given(args):
        raise DsqError(f"--{modes[0]} reads the recorded plan; drop {', '.join(_given(args))}")
    if args.list:
        _print_list(existing_data_dir(args.data))
        return 0
    if args.report is not None:
        d = existing_data_dir(args.data)
        _print_report(plan.load(d, args.report), d, args.json)
        return 0
    note: str | None = None
    if args.resume is not None:
        writable_data_dir(args.data)
        d = existing_data_dir(args.data)
        t = plan.load(d, args.resume)
    else:
        t, note = _tournament(args)
        d = writable_data_dir(args.data)
        d.mkdir(parents=True, exist_ok=True)
    options = RunOptions(engines=_engines(args, t))
    t = plan.register(d, t)
    if note and not args.quiet:
        print(note, file=sys.stderr)
    try:
        with sigterm_as_interrupt():
            out = run_tournament(
                t, d, workers=args.workers, scheduler=args.scheduler, options=options,
                quiet=args.quiet,
            )  # fmt: skip
    except BatchFailed as exc:
        print(f"dsq tournament: batch {exc.batch_id} failed: {exc}", file=sys.stderr)
        _print_report(t, d, args.json)
        return EXIT_FAILED
    if not args.quiet:
        print(
            f"tournament {t.id}: {out['batches']} batches ({out['games']:,} games) in "
            f"{out['seconds']:.1f} s; {dsq_line('tournament', '--report', t.id, data=args.data)}",
            file=sys.stderr,
        )
    _print_report(t, d, args.json)
    return 0 if out["complete"] else EXIT_INCOMPLETE
