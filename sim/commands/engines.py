"""``dsq engines``: the engine registry's engines, their identity, and the rules check."""

from __future__ import annotations

import argparse
import json
import shlex
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.commands._common import non_negative_int, positive_int

if TYPE_CHECKING:
    from sim.bots.context import BotContext


def add_engines_arg(parser: argparse.ArgumentParser) -> None:
    """``--engines FILE``: the engine registry (else $DSQ_ENGINES, else DATA/engines.toml)."""
    parser.add_argument(
        "--engines",
        metavar="FILE",
        help="engine registry (TOML; default: $DSQ_ENGINES, else engines.toml in the data folder)",
    )


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
        "games and reports every difference by RULES.md clause (exit code 1 when any).",
    )
    p.add_argument("action", nargs="?", default="list", choices=("list", "show", "check"))
    p.add_argument("name", nargs="?", help="engine name (show, check)")
    add_engines_arg(p)
    p.add_argument("--data", help="data folder (its engines.toml, and where checks are kept)")
    p.add_argument("--rules", help="rules spec to check (default: the rules the engine claims)")
    p.add_argument("--games", type=positive_int, default=20, help="random games (20)")
    p.add_argument("--plies", type=positive_int, default=200, help="plies per game (200)")
    p.add_argument("--perft-depth", type=non_negative_int, default=4, help="perft depth (4)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the random games")
    p.add_argument("--fen", help="start the random games (and perft) from this position")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq engines``."""
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.registry import EngineRegistry

    registry = EngineRegistry.load(args.engines, args.data)
    entries = registry.entries
    if args.action == "list":
        return _list(entries, args.json)
    if not args.name:
        raise DsqError(f"dsq engines {args.action} needs an engine name")
    entry = registry.find(args.name)
    if args.action == "show":
        return _show(entry, args.json)
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.admission import save_check
    from sim.external.check import check_engine, report_text

    rules = args.rules or entry.rules
    if not rules:
        raise DsqError(f"engine {entry.name} claims no rules: give --rules SPEC")
    report = check_engine(
        entry, rules, games=args.games, plies=args.plies, perft_depth=args.perft_depth,
        seed=args.seed, fen=args.fen,
    )  # fmt: skip
    data = report.to_dict()
    try:
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
