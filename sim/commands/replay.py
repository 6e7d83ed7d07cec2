"""``dsq replay``: check a whole game move by move and report how it ended."""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import DsqError
from sim.commands._common import add_data_arg, add_position_args, print_json
from sim.storage.paths import existing_data_dir


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay",
        help="check a game and report its result (JSON)",
        description='Prints {"plies": N, "legal_counts": [legal moves before each move], '
        '"result": ..., "fen": the final FEN, null for a game won in a den (no FEN describes '
        'that position), "board": the final board in FEN notation}. With --jsonl, reads one '
        'game per line from standard input ({"rules": ..., "fen": optional, "moves": [...]}) '
        "and writes one object per line. "
        "With --game, replays a recorded game of the data folder and adds its moves "
        '("moves", and "movetext" numbered as in the text records of dsq games export), its '
        'recorded result and whether the replay agrees with it ("agrees"; exit code 1 when '
        "it does not).",
    )
    add_position_args(p, moves_help='the game\'s moves, e.g. "a3a4 a7a6"')
    p.add_argument("--jsonl", action="store_true", help="games as JSON lines on standard input")
    p.add_argument(
        "--game",
        metavar="BATCH:INDEX",
        help="a recorded game, e.g. sample-random-1:17 (its rules, start and moves are read "
        "from the data folder)",
    )
    add_data_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq replay``."""
    # lazy: start-up time (the engine's numba kernels: not for the other commands)
    from sim.records.replay import replay, replay_recorded

    if args.game is not None:
        if args.jsonl or args.fen is not None or args.moves or args.rules != "standard":
            raise DsqError(
                "--game reads the rules, start and moves of the recorded game: "
                "give it without --rules, --fen, --moves or --jsonl"
            )
        report = replay_recorded(existing_data_dir(args.data), args.game)
        print_json(report)
        return 0 if report["agrees"] else 1
    if not args.jsonl:
        print_json(replay(args.rules, args.fen, args.moves))
        return 0
    failed = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            rules, fen, moves = parse_game_line(line)
            print_json(replay(rules, fen, moves))
        except DsqError as exc:
            failed += 1
            print(f"dsq replay: error: line {number}: {exc}", file=sys.stderr)
            print_json({"error": f"line {number}: {exc}"})
    return 2 if failed else 0


SHAPE = 'expected {"rules": ..., "fen": ..., "moves": [...]}'
MAX_LINE = 4 * 2**20


def parse_game_line(line: str) -> tuple[str | None, str | None, str | list[str]]:
    """``(rules, fen, moves)`` of one ``--jsonl`` line; DsqError (one line) when it is not
    such a game: bad JSON (also nested too deep or too long), or fields of the wrong type."""
    if len(line) > MAX_LINE:
        raise DsqError(f"line longer than {MAX_LINE // 2**20} MiB")
    try:
        game = json.loads(line)
    except RecursionError:
        raise DsqError("JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of too many digits
        raise DsqError(f"not JSON: {str(exc).splitlines()[0]}") from None
    if not isinstance(game, dict):
        raise DsqError(SHAPE)
    rules, fen, moves = game.get("rules"), game.get("fen"), game.get("moves", [])
    if rules is not None and not isinstance(rules, str):
        raise DsqError(f"rules must be text, got {type(rules).__name__}")
    if fen is not None and not isinstance(fen, str):
        raise DsqError(f"fen must be text, got {type(fen).__name__}")
    if isinstance(moves, list):
        if not all(isinstance(m, str) for m in moves):
            raise DsqError('moves must be a list of texts like "a3a4"')
    elif not isinstance(moves, str):
        raise DsqError(SHAPE)
    return rules, fen, moves
