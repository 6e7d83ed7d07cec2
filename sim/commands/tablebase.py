"""``dsq tablebase``: build, inspect, probe and verify endgame tables (docs/tablebases.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from engine.errors import DsqError
from sim.commands._common import data_folder, int_in, positive_int, print_json
from sim.report.fmt import count, pct
from sim.report.tables import aligned_table
from sim.storage.paths import writable_data_dir

MAX_PIECES = 4  # sim.tablebase.material.MAX_PIECES (a test keeps them equal), without numpy

RULES_HELP = "rules spec, e.g. standard+elephant_captures_rat (default: standard)"
DATA_HELP = (
    "data folder; tables go in DIR/tablebases (default: $DSQ_DATA; the bundled sample "
    "data/ in the project only when named, except to read)"
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tablebase`` command and its sub-commands."""
    p = sub.add_parser(
        "tablebase",
        help="endgame tables: perfect play with few animals, for any rule set",
        description="Exact endgame tables by retrograde analysis: for every position of a "
        "material (e.g. 'LR v e': a red lion and rat against a blue elephant), who wins "
        "with best play and in how many plies. Tables ignore the no-capture clock and the "
        "anti-chasing rules, so rule sets differing only in those share them.",
    )
    tb = p.add_subparsers(dest="tb_command", metavar="SUBCOMMAND")
    tb.required = True

    b = tb.add_parser(
        "build",
        help="build the missing tables of a material or piece count",
        description="Build what is missing (the materials reached by captures "
        "first), with a progress bar on standard error.",
    )
    _common(b)
    what = b.add_mutually_exclusive_group(required=True)
    what.add_argument("--material", help="one material, e.g. 'LR v e'")
    what.add_argument(
        "--pieces",
        type=int_in(2, MAX_PIECES, "animals"),
        help=f"every material of 2..N animals (N from 2 to {MAX_PIECES})",
    )
    b.add_argument("--jobs", type=positive_int, default=1, help="processes to build on (1)")
    b.add_argument("--quiet", action="store_true", help="no progress output")
    b.add_argument("--json", action="store_true", help="print a JSON summary at the end")
    b.set_defaults(func=run_build)

    s = tb.add_parser(
        "stats",
        help="who wins how many positions of a material",
        description="Counts the positions of a material by who wins them, "
        "for each side to move, and the longest win (built first if missing).",
    )
    _common(s)
    s.add_argument("--material", required=True, help="the material, e.g. 'LR v e'")
    s.add_argument("--json", action="store_true", help="one JSON object")
    s.set_defaults(func=run_stats)

    q = tb.add_parser(
        "probe",
        help="the value of a position and its best moves",
        description='Prints {"fen", "value": win|loss|draw (for the side to '
        'move), "plies": to the end with best play (null for a draw), "best": '
        "[every move that keeps the value at its best ply count]}. With "
        '--jsonl, reads one {"rules", "fen"} per line on standard input and '
        "writes one answer per line. Missing tables are built first.",
    )
    _common(q)
    q.add_argument("--fen", help="the position")
    q.add_argument("--json", action="store_true", help="one JSON object (the default output)")
    q.add_argument("--jsonl", action="store_true", help="positions as JSON lines on stdin")
    q.set_defaults(func=run_probe)

    v = tb.add_parser(
        "verify",
        help="check a stored table against its successors",
        description="Re-checks every position of a stored table: its value "
        "must be the best over its moves (read from the table and the tables "
        "one capture away). Exit code 1 when a position is wrong.",
    )
    _common(v)
    v.add_argument("--material", required=True, help="the material, e.g. 'LR v e'")
    v.add_argument("--json", action="store_true", help="one JSON object")
    v.set_defaults(func=run_verify)

    ls = tb.add_parser(
        "list",
        help="the tables on disk",
        description="Lists the stored tables (of one rule set with --rules) with their sizes.",
    )
    ls.add_argument("--rules", help="only the tables of this rule set")
    ls.add_argument("--data", type=data_folder, help=DATA_HELP)
    ls.add_argument("--json", action="store_true", help="one JSON object")
    ls.set_defaults(func=run_list)


def _common(p: argparse.ArgumentParser) -> None:
    """``--rules`` (``standard`` by default, as in every other command) and ``--data``."""
    p.add_argument("--rules", default="standard", help=RULES_HELP)
    p.add_argument("--data", type=data_folder, help=DATA_HELP)


class BuildBar:
    """Progress of a build on standard error: a redrawn bar on a terminal, else a line at
    most every ``interval`` seconds (and for the last table)."""

    def __init__(self, total: int, stream: TextIO | None = None, interval: float = 5.0) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.done = 0
        self.positions = 0
        self.t0 = time.monotonic()
        self.last = -interval
        self.interval = interval
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, built: Any) -> None:
        if built.how == "present":
            return
        self.done += 1
        self.positions += built.positions
        elapsed = max(time.monotonic() - self.t0, 1e-9)
        rate = self.positions / elapsed
        frac = self.done / self.total if self.total else 1.0
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        text = (
            f"{self.done}/{self.total} tables  {rate / 1e6:.2f} M positions/s  "
            f"ETA {int(eta) // 60:02d}:{int(eta) % 60:02d}  {built.material.name} ({built.how})"
        )
        if self.tty:
            fill = int(frac * 24)
            self.stream.write(f"\r[{'#' * fill}{'.' * (24 - fill)}] {text}\x1b[K")
            if self.done == self.total:
                self.stream.write("\n")
        elif self.done >= self.total or elapsed - self.last >= self.interval:
            self.last = elapsed
            self.stream.write(text + "\n")
        self.stream.flush()


def run_build(args: argparse.Namespace) -> int:
    """Run ``dsq tablebase build``."""
    # lazy: start-up time (numba kernels)
    from sim.tablebase.build import build_tables, plan
    from sim.tablebase.material import materials_up_to, parse_material
    from sim.tablebase.store import rules_key, tables_root

    key = rules_key(args.rules)
    targets = materials_up_to(args.pieces) if args.pieces else [parse_material(args.material)]
    root = tables_root(writable_data_dir(args.data))
    todo = plan(targets)
    missing = [m for m in todo if not (root / key / f"{m.file_stem}.dsqtb").is_file()]
    bar = None if args.quiet else BuildBar(len(missing))
    t0 = time.monotonic()
    report = build_tables(args.rules, targets, root, bar, jobs=args.jobs)
    seconds = time.monotonic() - t0
    made = [b for b in report if b.how != "present"]
    if bar is not None and bar.total != len(made):  # damaged files were replaced too
        bar.stream.write("\n")
    positions = sum(b.positions for b in made)
    summary = {
        "rules": key,
        "folder": str(root / key),
        "tables": len(report),
        "built": len(made),
        "solved": sum(1 for b in made if b.how in ("solved", "replaced")),
        "swapped": sum(1 for b in made if b.how == "swapped"),
        "positions": positions,
        "seconds": round(seconds, 3),
    }
    if args.json:
        print_json(summary)
    elif not args.quiet:
        print(
            f"{summary['built']} tables built ({summary['solved']} solved, "
            f"{summary['swapped']} by colour symmetry), {len(report) - len(made)} already "
            f"there; {positions:,} positions in {seconds:.1f} s; in {summary['folder']}"
        )
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """Run ``dsq tablebase stats``."""
    # lazy: start-up time (numba kernels)
    from sim.tablebase.analysis import ensure_table, table_stats
    from sim.tablebase.store import tables_root

    root = tables_root(writable_data_dir(args.data))  # a missing table is built
    ensure_table(args.rules, args.material, root)
    out = table_stats(args.rules, args.material, root)
    if args.json:
        print_json(out)
    else:
        print(stats_text(out))
    return 0


def stats_text(out: dict[str, Any]) -> str:
    """The readable table of ``dsq tablebase stats``."""

    rows = []
    for side in ("red", "blue"):
        s = out[f"{side}_to_move"]
        n = s["positions"] or 1
        rows.append(
            [
                side,
                count(s["positions"]),
                f"{count(s['red'])} ({pct(s['red'] / n)})",
                f"{count(s['blue'])} ({pct(s['blue'] / n)})",
                f"{count(s['draw'])} ({pct(s['draw'] / n)})",
                f"{s['longest_win']} plies",
            ]
        )
    head = ["to move", "positions", "red wins", "blue wins", "draws", "longest win"]
    return f"{out['material']} under {out['rules']}\n" + aligned_table(head, rows)


def _probe_one(rules: str | None, fen: Any, root: Any) -> dict[str, Any]:
    # lazy: start-up time (numba kernels)
    from sim.tablebase.analysis import ensure_table
    from sim.tablebase.probe import NoTable, probe_fen

    if not isinstance(fen, str) or not fen.strip():
        raise DsqError("a position is needed: --fen FEN")
    try:
        answer = probe_fen(rules, fen, root)
    except NoTable:
        # lazy: start-up time (numba kernels)
        from engine.fen import parse_fen
        from sim.tablebase.probe import material_needed, pieces_on
        from sim.tablebase.store import table_ruleset

        st = parse_fen(fen, table_ruleset(rules).as_array(), 1)
        material = material_needed(st)
        if material is None or pieces_on(st) > 4:
            raise
        ensure_table(table_ruleset(rules), material, root)
        answer = probe_fen(rules, fen, root)
    return answer.as_dict(fen)


def run_probe(args: argparse.Namespace) -> int:
    """Run ``dsq tablebase probe``."""
    # lazy: start-up time (pyarrow)
    from sim.tablebase.store import tables_root

    root = tables_root(writable_data_dir(args.data))  # a missing table is built
    if not args.jsonl:
        print_json(_probe_one(args.rules, args.fen, root))
        return 0
    if args.fen:
        raise DsqError("--jsonl reads the positions from standard input: drop --fen")
    failed = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise DsqError('expected {"rules": ..., "fen": ...}')
            print_json(_probe_one(item.get("rules") or args.rules, item.get("fen"), root))
        except (DsqError, json.JSONDecodeError) as exc:
            failed += 1
            print(f"dsq tablebase probe: error: line {number}: {exc}", file=sys.stderr)
            print_json({"error": f"line {number}: {exc}"})
        sys.stdout.flush()
    return 2 if failed else 0


def run_verify(args: argparse.Namespace) -> int:
    """Run ``dsq tablebase verify``."""
    # lazy: start-up time (numba kernels)
    from sim.tablebase.analysis import verify_table
    from sim.tablebase.store import tables_root

    t0 = time.monotonic()
    result = verify_table(args.rules, args.material, tables_root(args.data))
    seconds = time.monotonic() - t0
    if args.json:
        print_json(
            {
                "material": result.material.name,
                "checked": result.checked,
                "wrong": result.wrong,
                "first_wrong": result.first_wrong,
                "seconds": round(seconds, 3),
            }
        )
    elif result.wrong:
        print(
            f"{result.material.name}: {result.wrong:,} of {result.checked:,} positions are "
            f"wrong; the first: {result.first_wrong}"
        )
    else:
        print(
            f"{result.material.name}: {result.checked:,} positions checked, all agree with "
            f"their successors ({seconds:.1f} s)"
        )
    return 1 if result.wrong else 0


def run_list(args: argparse.Namespace) -> int:
    """Run ``dsq tablebase list``."""
    # lazy: start-up time (pyarrow)
    from sim.tablebase.store import SUFFIX, rules_key, tables_root

    root = tables_root(args.data)
    keys = (
        [rules_key(args.rules)]
        if args.rules
        else sorted(p.name for p in root.iterdir() if p.is_dir())
        if root.is_dir()
        else []
    )
    out: dict[str, Any] = {"folder": str(root), "rules": {}}
    for key in keys:
        files = sorted((root / key).glob(f"*{SUFFIX}")) if (root / key).is_dir() else []
        out["rules"][key] = {
            "tables": len(files),
            "bytes": sum(f.stat().st_size for f in files),
            "materials": [f.name[: -len(SUFFIX)].replace("_", " ") for f in files],
        }
    if args.json:
        print_json(out)
        return 0
    if not out["rules"]:
        print(f"no tables in {root}")
    for key, info in out["rules"].items():
        print(f"{key}: {info['tables']} tables, {info['bytes'] / 1e6:.1f} MB in {root / key}")
    return 0
