"""``dsq openings``: build an opening suite from the recorded games, check a suite file
(docs/openings.md)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from engine.errors import DsqError
from sim.commands._common import SEED_ARG, add_data_arg, float_in, int_in
from sim.commands.stats import add_selection_args, build_selection
from sim.storage.paths import existing_data_dir

MAX_PLIES = 200  # sim.openings.suite.MAX_LINE_MOVES (a line's moves)
MAX_COUNT = 10_000  # sim.openings.suite.MAX_SUITE_LINES


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``openings`` command and its ``build`` and ``check`` sub-commands."""
    p = sub.add_parser(
        "openings",
        help="build an opening suite from recorded games; check a suite file",
        description="Opening suites (docs/openings.md): 'build' writes the near-even "
        "positions the selected games reached after N plies, 'check' reads a suite file "
        "and checks every line under a rule set.",
    )
    g = p.add_subparsers(dest="openings_command", metavar="ACTION")
    g.required = True
    b = g.add_parser(
        "build",
        help="a suite of the near-even positions of the recorded games",
        description="Write an opening suite of the positions the selected games reached "
        "after --plies plies (transpositions are one position) that are near even: the "
        "side to move's score within --band where at least --min-games games reached it, "
        "and the recorded search scores of the --window plies after it within "
        "--max-score, the games going on past them. At least one of the two must be "
        "available and each available one must hold. At most --count positions (a sample "
        "drawn with --seed if more qualify). No qualifying position is an error (exit 2).",
    )
    add_data_arg(b)
    add_selection_args(b)
    b.add_argument("--plies", required=True, type=int_in(1, MAX_PLIES), metavar="N",
                   help="the positions after this many plies")  # fmt: skip
    b.add_argument("--min-games", type=int_in(1, 2**31 - 1), default=10, metavar="M",
                   help="games a position needs for its results to count (10)")  # fmt: skip
    b.add_argument("--band", default="0.35,0.65", metavar="LOW,HIGH",
                   help="side to move score range of a near-even position (0.35,0.65)")  # fmt: skip
    b.add_argument("--window", type=int_in(1, MAX_PLIES), default=4, metavar="W",
                   help="plies after the position whose search scores count (4)")  # fmt: skip
    b.add_argument("--max-score", type=float_in(0.0, 1.0), default=0.15, metavar="Y",
                   help="largest |search score| in the window, on [-1, 1] (0.15)")  # fmt: skip
    b.add_argument("--count", type=int_in(1, MAX_COUNT), default=100, metavar="K",
                   help="at most this many positions (100)")  # fmt: skip
    b.add_argument("--seed", type=SEED_ARG, default=0, metavar="S",
                   help="seed of the sample when more qualify (0)")  # fmt: skip
    b.add_argument("--output", default="-", metavar="FILE",
                   help="the suite file to write (- for standard output, the default)")  # fmt: skip
    b.set_defaults(func=run_build)
    c = g.add_parser(
        "check",
        help="check a suite file",
        description="Read an opening suite file and check every line under the rules; "
        "print how many positions it holds, or the first bad line as FILE:LINE (exit 2).",
    )
    c.add_argument("file", metavar="FILE", help="the suite file")
    c.add_argument("--rules", default="standard", metavar="SPEC",
                   help="the rule set to check under (standard)")  # fmt: skip
    c.set_defaults(func=run_check)


def _band(text: str) -> tuple[float, float]:
    parts = text.split(",")
    check = float_in(0.0, 1.0)
    try:
        lo, hi = (check(p.strip()) for p in parts) if len(parts) == 2 else (None, None)
    except argparse.ArgumentTypeError as exc:
        raise DsqError(f"--band {exc}") from None
    if lo is None or hi is None or lo > hi:
        raise DsqError(f"--band must be LOW,HIGH with 0 <= LOW <= HIGH <= 1, got {text[:40]!r}")
    return (lo, hi)


def run_build(args: argparse.Namespace) -> int:
    """Run ``dsq openings build``."""
    # lazy: start-up time (duckdb, numba kernels)
    from sim.openings.build import Criterion, build_suite
    from sim.storage.reading import open_dataset

    band = _band(args.band)
    selection = build_selection(args)
    criterion = Criterion(
        plies=args.plies,
        min_games=args.min_games,
        band=band,
        window=args.window,
        max_score=args.max_score,
    )
    data = existing_data_dir(args.data)
    rules = selection.rules[0] if len(selection.rules) == 1 else None
    date = datetime.now(UTC).strftime("%Y-%m-%d")
    header = (
        "An opening suite built by 'dsq openings build' (docs/openings.md, "
        "'A suite from the lab's games')",
        f"data: {data}; built {date}; selection: {selection.describe()}",
    )
    ds = open_dataset(data)
    try:
        for path, reason in ds.skipped:
            print(f"dsq openings: skipped {path}: {reason}", file=sys.stderr)
        built = ds.read(
            lambda: build_suite(
                ds.con, selection, criterion, count=args.count, seed=args.seed,
                rules=rules, header=header, data=data,
            )
        )  # fmt: skip
    finally:
        ds.close()
    if args.output == "-":
        sys.stdout.write(built.text)
        sys.stdout.flush()
    else:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(built.text)
    print(
        f"dsq openings: {built.chosen} positions of {built.qualifying} qualifying "
        f"({built.positions} positions after {args.plies} plies from {built.games} games)"
        + ("" if args.output == "-" else f" written to {args.output}"),
        file=sys.stderr,
    )
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Run ``dsq openings check``."""
    # lazy: start-up time (numba kernels)
    from engine.rules import canonical_rules
    from sim.openings.suite import load_suite

    rules = canonical_rules(args.rules)
    suite = load_suite(args.file, rules)
    print(f"{args.file}: {len(suite)} positions, every line valid under {rules}")
    return 0
