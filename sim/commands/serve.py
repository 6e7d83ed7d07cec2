"""``dsq serve`` (alias ``dsq engine``): serve one of dsq's bots over the UCI-style protocol
on stdin/stdout."""

from __future__ import annotations

import argparse
import os
import signal
import sys

from sim.commands import ALIASES
from sim.commands._common import SEED_ARG


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` command (alias ``engine``)."""
    p = sub.add_parser(
        "serve",
        aliases=ALIASES["serve"],
        help="serve a bot over the UCI-style protocol (for match runners and GUIs)",
        description="Reads protocol commands on standard input and answers on standard "
        "output: uci (or jcei, uji), isready, ucinewgame, setoption, position, go, stop, "
        "quit, and perft N, moves, d. The engine's options are the bot's parameters, plus "
        "rules and seed. See docs/engine-protocol.md.",
    )
    p.add_argument("--bot", required=True, help="bot spec, e.g. alphabeta:depth=6 (dsq bots)")
    p.add_argument(
        "--rules",
        default="standard",
        help="rules spec, e.g. datou (default: standard; a client's setoption name rules "
        "changes it)",
    )
    p.add_argument("--seed", type=SEED_ARG, default=0, help="the bot's generator seed")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq serve`` until ``quit`` or the end of input."""
    # lazy: start-up time (numba kernels)
    from sim.serve.server import EngineServer

    server = EngineServer(args.bot, args.rules, args.seed, sys.stdout)
    if hasattr(signal, "SIGPIPE"):  # a closed output ends the process quietly, any thread
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        code = server.serve(sys.stdin)
    except KeyboardInterrupt:
        code = 0
    if server.closed.is_set():  # nothing more to flush at exit (no SIGPIPE here)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code
