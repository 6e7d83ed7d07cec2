"""``dsq engines``: the engine registry's engines, their identity, and the rules check."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.commands._common import SEED_ARG, non_negative_int, positive_int
from sim.storage.paths import sample_unnamed

if TYPE_CHECKING:
    from sim.bots.context import BotContext


def add_engines_arg(parser: argparse.ArgumentParser) -> None:
    """``--engines FILE``: the engine registry (else $DSQ_ENGINES, else DATA/engines.toml)."""
    parser.add_argument(
        "--engines",
        metavar="FILE",
        help="engine registry (TOML; default: $DSQ_ENGINES, else engines.toml in the data folder)",
    )


def add_engine_log_arg(parser: argparse.ArgumentParser) -> None:
    """``--engine-log DIR``: one protocol log per engine process."""
    parser.add_argument(
        "--engine-log",
        metavar="DIR",
        help="write each external engine process's protocol lines to DIR/ENGINE-PID.log "
        "(UTC time, '>' sent, '<' received, '!' its stderr; at most 8 MiB a file)",
    )


def logged(registry: Any, folder: str | None) -> Any:
    """``registry`` (an EngineRegistry) with its engines logging into ``folder`` (checked
    writable; DsqError otherwise), or as it is when ``folder`` is None."""
    if folder is None:
        return registry
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.enginelog import check_log_dir

    return registry.with_log_dir(check_log_dir(folder))


def check_progress(quiet: bool) -> Callable[[str, int, int], None] | None:
    """What prints a rules check's progress on stderr (None when ``quiet``): rewritten in
    place on a terminal, else a line every tenth of the positions."""
    if quiet:
        return None
    tty = sys.stderr.isatty()
    last = [-1]

    def show(engine: str, done: int, total: int) -> None:
        step = done * 10 // max(total, 1)
        if not tty and step == last[0]:
            return
        last[0] = step
        end = "\r" if tty else "\n"
        print(f"rules check of {engine}: {done}/{total} positions", end=end, file=sys.stderr)

    return show


def bot_context(bots: list[str], engines_file: str | None, data: str | None = None) -> BotContext:
    """What the CLI's bots read: the engine registry (``--engines``, ``$DSQ_ENGINES`` or the
    data folder's), loaded when one of ``bots`` (canonical specs) is an engine bot, and the
    data folder's tables."""
    # lazy: start-up time (bot modules: only for the commands that build bots)
    from sim.bots.context import BotContext

    tables = None
    if data is not None:
        # lazy: start-up time (the endgame tables' store loads pyarrow)
        from sim.tablebase.store import tables_root

        tables = tables_root(data)
    if any(b.startswith("engine:") for b in bots):
        # lazy: start-up time (engine registry and client: only when an engine is used)
        from sim.external.registry import EngineRegistry

        return BotContext(tables, EngineRegistry.load(engines_file, data))
    return BotContext(tables)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``engines`` command."""
    p = sub.add_parser(
        "engines",
        help="list the registered external engines, show one, check its rules",
        description="External engines are named in a TOML registry (docs/engine-protocol.md). "
        "'dsq engines' lists them; 'show NAME' starts one and prints its identity and options; "
        "'check NAME --rules SPEC' compares its perft and legal moves with dsq's over random "
        "games and reports every difference by docs/rules.md clause (exit code 1 when any).",
    )
    p.add_argument(
        "engines_command",
        metavar="{list,show,check}",
        nargs="?",
        default="list",
        choices=("list", "show", "check"),
    )
    p.add_argument("name", nargs="?", help="engine name (show, check)")
    add_engines_arg(p)
    p.add_argument("--data", help="data folder (its engines.toml, and where checks are kept)")
    p.add_argument("--rules", help="rules spec to check (default: the rules the engine claims)")
    p.add_argument("--games", type=positive_int, default=20, help="random games (20)")
    p.add_argument("--plies", type=positive_int, default=200, help="plies per game (200)")
    p.add_argument("--perft-depth", type=non_negative_int, default=4, help="perft depth (4)")
    p.add_argument("--seed", type=SEED_ARG, default=0, help="seed of the random games")
    p.add_argument("--fen", help="start the random games (and perft) from this position")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_engine_log_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq engines``."""
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.registry import EngineRegistry

    registry = logged(EngineRegistry.load(args.engines, args.data), args.engine_log)
    entries = registry.entries
    if args.engines_command == "list":
        return _list(entries, args.json)
    if not args.name:
        raise DsqError(f"dsq engines {args.engines_command} needs an engine name")
    entry = registry.find(args.name)
    if args.engines_command == "show":
        return _show(entry, args.json)
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.admission import save_check
    from sim.external.check import check_engine, report_text

    rules = args.rules or entry.rules
    if not rules:
        raise DsqError(f"engine {entry.name} claims no rules: give --rules SPEC")
    show = check_progress(args.quiet or args.json)
    report = check_engine(
        entry, rules, games=args.games, plies=args.plies, perft_depth=args.perft_depth,
        seed=args.seed, fen=args.fen,
        progress=None if show is None else (lambda done, total: show(entry.name, done, total)),
    )  # fmt: skip
    if show is not None and sys.stderr.isatty():
        print(file=sys.stderr)
    data = report.to_dict()
    try:
        if not sample_unnamed(args.data):  # kept for dsq simulate, never in the sample
            save_check(args.data, entry, data)
    except OSError:
        pass
    print(json.dumps(data) if args.json else report_text(report))
    return 0 if report.passed else 1


def _list(entries: dict, as_json: bool) -> int:
    rows = [
        {"name": e.name, "command": shlex.join(e.argv()), "rules": e.rules,
         "handshake": e.handshake, "source": e.source}
        for e in entries.values()
    ]  # fmt: skip
    if as_json:
        print(json.dumps(rows))
    elif not rows:
        print("no engines registered (see docs/engine-protocol.md for engines.toml)")
    for r in [] if as_json else rows:
        claims = r["rules"] or "not claimed"
        print(f"{r['name']}: {r['command']}  (rules {claims}, handshake {r['handshake']})")
    return 0


def _show(entry, as_json: bool) -> int:  # noqa: ANN001 - an EngineEntry
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.client import EngineClient

    client = EngineClient(entry).start()
    try:
        data: dict[str, Any] = {**client.identity(), "author": client.id_author or None,
                "options": list(client.option_lines.values())}  # fmt: skip
    finally:
        client.close()
    if as_json:
        print(json.dumps(data))
        return 0
    print(f"{data['name']}: {data['version'] or '(no id name)'}  author {data['author'] or '-'}")
    print(f"program sha256 {data['sha256'] or '(not a file)'}")
    for line in data["options"]:
        print(f"  {line}")
    return 0
