"""``dsq bestmove`` (alias ``dsq move``): the move a bot plays in a position, alone on the
last line."""

from __future__ import annotations

import argparse

from engine.errors import DsqError
from sim.bots import make_bot, parse_bot
from sim.commands import ALIASES
from sim.commands._common import (
    SEED_ARG,
    add_data_arg,
    add_position_args,
    position_from_args,
    print_json,
)
from sim.commands.engines import add_engines_arg, bot_context
from sim.storage.paths import existing_data_dir


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``bestmove`` command (alias ``move``)."""
    p = sub.add_parser(
        "bestmove",
        aliases=ALIASES["bestmove"],
        help="the move a bot plays in a position",
        description="Prints the bot's move alone on the last line. With --json, a JSON line "
        "comes first: the move, the canonical bot spec, the FEN, and what the search saw "
        "(depth reached, score, nodes, principal variation, time in ms).",
    )
    p.add_argument("--bot", required=True, help="bot spec, e.g. alphabeta:depth=6 (dsq bots)")
    add_position_args(p)
    p.add_argument(
        "--seed",
        type=SEED_ARG,
        default=0,
        help="game seed; the bot draws from the generator the referee gives the side to move",
    )
    p.add_argument("--json", action="store_true", help="also print what the search saw")
    add_data_arg(p)
    add_engines_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq bestmove``."""
    # lazy: start-up time (the engine's and the bots' numba kernels: not for --help)
    from engine.position import decode_move
    from engine.rng import seed_state
    from sim.bots.protocol import warm_up
    from sim.play.referee import bot_seed

    spec = parse_bot(args.bot)
    data = None if args.data is None else str(existing_data_dir(args.data))
    context = bot_context([spec.canonical], args.engines, data)
    pos = position_from_args(args.rules, args.fen, args.moves)
    result = pos.result
    if result is not None:
        raise DsqError(f"the game is over ({result.winner}, {result.reason}): no move to choose")
    side = 0 if pos.side == "red" else 1
    warm_up(spec, pos.rules, context)  # the time reported is the search's, not loading's
    bot = make_bot(spec, pos.rules, seed_state(bot_seed(args.seed, side)), context)
    move = decode_move(bot.choose(pos.st))
    if args.json:
        info = dict(bot.info)
        info.pop("move", None)
        print_json({"move": move, "bot": spec.canonical, "fen": pos.fen(), **info})
    print(move)
    return 0
