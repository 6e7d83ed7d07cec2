"""``dsq play``: one game in the terminal, between bots or with a human at the keyboard."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from engine.errors import DsqError, MoveError
from sim.bots.spec import HUMAN
from sim.commands._common import SEED_ARG, add_data_arg, int_in
from sim.commands.engines import add_engines_arg, bot_context
from sim.report.names import display_letter
from sim.storage.paths import dsq_line, writable_data_dir

if TYPE_CHECKING:
    from engine import Position
    from sim.interactive.session import PlayedMove, PlayGame

DEN_SQUARES = {3: "red", 59: "blue"}


def legend(fox: bool = False) -> str:
    """What the board's letters and marks mean (the wolf shown as a fox with ``fox``)."""
    wolf = "F fox" if fox else "W wolf"
    return (
        f"UPPERCASE red, lowercase blue: E elephant L lion T tiger P leopard {wolf} D dog "
        "C cat R rat; ~ water, # trap, @ den; [x] the last move"
    )


def render_board(pos: Position, last: str | None = None, fox: bool = False) -> str:
    """A text board, rank 9 on top: pieces, water ``~``, traps ``#``, dens ``@``; with
    ``fox`` the wolf shows as a fox (``F``), a display setting only."""
    # lazy: start-up time (the board's tables are numpy arrays: not for --help)
    from engine.board import FILES, NFILES, NRANKS, TRAP_OWNER, WATER

    cells = pos.board()
    marks: set[int] = set()
    if last:
        for name in (last[:2], last[2:]):
            marks.add((int(name[1]) - 1) * NFILES + FILES.index(name[0]))
    lines = ["    " + "  ".join(FILES)]
    for rank in range(NRANKS - 1, -1, -1):
        row = []
        for f in range(NFILES):
            sq = rank * NFILES + f
            if letter := cells[sq]:
                ch = display_letter(letter, fox)
            elif sq in DEN_SQUARES:
                ch = "@"
            elif WATER[sq]:
                ch = "~"
            elif TRAP_OWNER[sq] >= 0:
                ch = "#"
            else:
                ch = "."
            row.append(f"[{ch}]" if sq in marks else f" {ch} ")
        lines.append(f" {rank + 1} " + "".join(row))
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` command."""
    p = sub.add_parser(
        "play",
        help="play one game in the terminal (bots, or 'human' from the keyboard)",
        description="Plays one game and shows the board after each ply. --red human or "
        "--blue human reads that side's moves (e.g. a3a4) from standard input, and the "
        "commands 'moves' (the legal moves), 'undo' (take back your last move and the "
        "bot's answer), 'resign' (a loss), 'help' and 'quit' (or end of input: stops the "
        "game without a result). Bots keep their time limits "
        "as in simulations (an engine's tc= clock or movetime=, a bot's time_ms=): a move "
        "over its limit plus the margin loses on time, and each bot move shows its time and "
        "what is left on its clock. With --save, a finished game against a bot is recorded "
        "in the data folder as the dashboard's Play page records it.",
    )
    p.add_argument("--red", required=True, help="bot spec or 'human' (required; dsq bots)")
    p.add_argument("--blue", required=True, help="bot spec or 'human' (required)")
    p.add_argument("--rules", default="standard", help="rules spec, e.g. datou (default: standard)")
    p.add_argument(
        "--seed", type=SEED_ARG, default=0, help="game seed (bots' generators; default 0)"
    )
    p.add_argument("--fen", default=None, help="start position (default: the initial one)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument(
        "--fox",
        action="store_true",
        help="show the wolf as a fox (F), as some editions name it; display only",
    )
    p.add_argument(
        "--ply-cap",
        type=int_in(1, 65535),
        default=1000,
        help="draw by ply_cap after P plies (1000)",
    )
    p.add_argument(
        "--save",
        action="store_true",
        help="record the finished game (a person against a bot) in the data folder",
    )
    add_data_arg(p, creates=True)
    add_engines_arg(p)
    p.set_defaults(func=run)


COMMANDS = (
    "commands: a move such as a3a4 plays it; 'moves' lists the legal moves; 'undo' takes "
    "back your last move (and the bot's answer); 'resign' gives the game up (a loss, final); "
    "'help' shows this; 'quit' (or end of input) stops the game without a result"
)


def _human_turn(game: PlayGame, stdin: TextIO) -> str | None:
    """Read commands from ``stdin`` until a move is played, the person resigns or takes
    moves back (``played``, ``resign``, ``undo``); None at end of input or on 'quit'."""
    pos = game.pos
    while True:
        print(
            f"{pos.side} to move (e.g. {pos.legal_moves()[0]}; 'moves' lists them, "
            "'help' the commands): ",
            end="",
            flush=True,
        )
        line = stdin.readline()
        if not line:
            print()
            return None
        text = line.strip().lower()
        if not text:
            continue
        if text in ("quit", "exit"):
            return None
        if text == "resign":
            game.resign()
            return "resign"
        if text == "moves":
            print("legal moves: " + " ".join(pos.legal_moves()))
            continue
        if text in ("help", "?"):
            print(COMMANDS)
            continue
        if text == "undo":
            taken = game.undo()
            if not taken:
                print("nothing to undo")
                continue
            print(f"took back {taken} {'ply' if taken == 1 else 'plies'}")
            return "undo"
        try:
            played = game.play(text)
        except MoveError as exc:
            print(f"not played: {exc}")
            continue
        return "played" if played is not None else "late"  # late: lost on time


def run(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    """Run ``dsq play``."""
    # lazy: start-up time (the engine's and the bots' numba kernels: not for --help)
    from engine import Position
    from sim.interactive.session import PlayGame, PlaySetup

    stdin = stdin or sys.stdin
    Position(args.rules, args.fen)  # a bad rules spec or FEN: the engine's message
    context = bot_context(
        [t.strip() for t in (args.red, args.blue) if t.strip().lower() != HUMAN],
        args.engines,
        args.data,
    )
    setup = PlaySetup(args.rules, args.red, args.blue, args.fen, args.seed).checked()
    if args.save and (setup.human is None or setup.bot is None):
        raise DsqError("--save records a game of a person against a bot: give one side 'human'")
    if args.save:
        writable_data_dir(args.data)  # before the game: a refused folder is said at once
    # Bots' time limits as in simulations: an engine's tc= or movetime=, a bot's time_ms=.
    game = PlayGame(setup, timed=True, ply_cap=args.ply_cap, context=context)
    try:
        names = [HUMAN if p is None else p.spec.short for p in game.players]
        if not args.quiet:
            print(f"rules {game.pos.rules.spec}; red {names[0]}; blue {names[1]}; seed {args.seed}")
            print(legend(args.fox))
            print(render_board(game.pos, fox=args.fox))
        if not _play(args, game, stdin):
            return 0
    finally:
        game.close()
    if args.save:
        _save(game, args.data)
    return 0


def _play(args: argparse.Namespace, game: PlayGame, stdin: TextIO) -> bool:
    """The game loop of ``dsq play``; prints the result (False: stopped without one)."""
    while not game.over:
        if game.bot_to_move:
            played = game.bot_move()
            if played is None:
                break
            _show(args, game, played)
            continue
        what = _human_turn(game, stdin)
        if what is None:
            print(f"game stopped by {game.to_move} after {game.pos.ply} plies (no result)")
            return False
        if what == "played":
            _show(args, game, game.moves[-1])
        elif what == "undo" and not args.quiet:
            print(render_board(game.pos, game.moves[-1].move if game.moves else None, args.fox))
    winner, reason = game.result or ("draw", "ply_cap")
    ply = game.pos.ply
    if game.stopped is not None and game.stopped.note:  # a bot's forfeit or loss on time
        print(f"result: {winner} wins ({reason}: {game.stopped.note}) after {ply} plies")
        return True
    if winner == "draw":
        print(f"result: draw ({reason}) after {ply} plies")
    else:
        print(f"result: {winner} wins ({reason}) after {ply} plies")
    if not args.quiet:
        print("moves: " + " ".join(game.pos.history))
    return True


def _show(args: argparse.Namespace, game: PlayGame, played: PlayedMove) -> None:
    """Print a ply and the board after it (a bot's with its time and its clock)."""
    if args.quiet:
        return
    took = ""
    if played.by_bot and played.think_ms is not None:
        left = game.clock_left(played.side)
        took = f" ({played.think_ms:.0f} ms" + (
            f", {left / 1000:.1f} s left)" if left is not None else ")"
        )
    print(f"\nply {game.pos.ply}: {played.side} {played.move}{took}")
    print(render_board(game.pos, played.move, fox=args.fox))


def _save(game: PlayGame, data: str | None) -> None:
    """Record a finished game in the data folder, or say why it is not."""
    if game.can_record() is not None:
        print("not saved: only a finished game can be recorded")
        return
    folder = writable_data_dir(data)
    batch_id = game.save(folder)
    again = dsq_line("replay", "--game", f"{batch_id}:0", data=folder)
    print(f"saved as {batch_id} in {folder} ({again})")
