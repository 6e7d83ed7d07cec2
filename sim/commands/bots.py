"""``dsq bots``: the bots, each parameter with its default and meaning."""

from __future__ import annotations

import argparse
import json
import textwrap

from sim.bots.spec import describe_bots


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``bots`` command."""
    p = sub.add_parser(
        "bots",
        help="list the bots and their parameters",
        description="Lists every bot with its parameters (default, allowed values, meaning). "
        "A bot spec is NAME or NAME:key=value,key=value, e.g. alphabeta:depth=6,noise=10.",
    )
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq bots``."""
    bots = describe_bots()
    if args.json:
        print(json.dumps(bots))
        return 0
    for bot in bots:
        print(bot["name"])
        for line in textwrap.wrap(bot["help"], 88):
            print(f"    {line}")
        print(f"    canonical: {bot['canonical']}")
        for p in bot["params"]:
            print(f"    {p['name']}={p['default']}")
            for line in textwrap.wrap(f"{p['help']}; {p['allowed']}", 80):
                print(f"        {line}")
        print()
    print("spec: NAME or NAME:key=value,... (e.g. mcts:playouts=500,rollout=greedy); the")
    print("play command also accepts 'human' for --red or --blue.")
    print("budgets: a time_ms or nodes budget without depth= (playouts= for mcts) searches")
    print("until the budget is spent: alphabeta:time_ms=300 deepens up to depth 60, while")
    print("alphabeta:depth=6,time_ms=300 stops at depth 6 or after 300 ms.")
    return 0
