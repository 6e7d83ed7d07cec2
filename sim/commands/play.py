"""``dsq play``: one game in the terminal, between bots or with a human at the keyboard."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from engine import Position
from engine.board import FILES, NFILES, NRANKS, TRAP_OWNER, WATER
from engine.errors import MoveError
from engine.position import decode_move
from engine.rng import seed_state
from sim.bots import make_bot, parse_bot
from sim.bots.protocol import warm_up
from sim.commands._common import SEED_ARG, int_in
from sim.commands.engines import activate_engines, add_engines_arg
from sim.engines.clocks import GameClocks, side_clock
from sim.engines.process import EngineFault
from sim.engines.timecontrol import SideClock
from sim.play.referee import bot_seed, start_engines
from sim.report.names import display_letter

HUMAN = "human"
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
        "--blue human reads that side's moves (e.g. a3a4) from standard input; 'moves' lists "
        "the legal moves, 'quit' or end of input stops the game. Bots keep their time limits "
        "as in simulations (an engine's tc= clock or movetime=, a bot's time_ms=): a move "
        "over its limit plus the margin loses on time, and each bot move shows its time and "
        "what is left on its clock.",
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
    add_engines_arg(p)
    p.set_defaults(func=run)


def _human_move(pos: Position, stdin: TextIO) -> str | None:
    """Read a legal move from ``stdin``; None at end of input or on 'quit'."""
    while True:
        print(
            f"{pos.side} to move (e.g. {pos.legal_moves()[0]}; 'moves' lists them): ",
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
        if text in ("quit", "exit", "resign"):
            return None
        if text in ("moves", "help", "?"):
            print("legal moves: " + " ".join(pos.legal_moves()))
            continue
        try:
            trial = pos.copy()
            trial.play(text)
        except MoveError as exc:
            print(f"not played: {exc}")
            continue
        return text


def run(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    """Run ``dsq play``."""
    stdin = stdin or sys.stdin
    pos = Position(args.rules, args.fen)
    activate_engines(
        [t.strip() for t in (args.red, args.blue) if t.strip().lower() != HUMAN], args.engines
    )
    players: list[Any] = []  # a bot, or None for a person
    for side, text in enumerate((args.red, args.blue)):
        if text.strip().lower() == HUMAN:
            players.append(None)
        else:
            warm_up(text, pos.rules)  # loading is never thinking time
            players.append(
                make_bot(parse_bot(text), pos.rules, seed_state(bot_seed(args.seed, side)))
            )
    names = [HUMAN if p is None else p.spec.short for p in players]
    if not args.quiet:
        print(f"rules {pos.rules.spec}; red {names[0]}; blue {names[1]}; seed {args.seed}")
        print(legend(args.fox))
        print(render_board(pos, fox=args.fox))
    # Bots' time limits as in simulations: an engine's tc= or movetime=, a bot's time_ms=.
    clocks = GameClocks([SideClock() if p is None else side_clock(p.spec) for p in players])
    try:
        return _play(args, pos, players, clocks, stdin)
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()


def _play(
    args: argparse.Namespace,
    pos: Position,
    players: list[Any],
    clocks: GameClocks,
    stdin: TextIO,
) -> int:
    """The game loop of ``dsq play``; prints the result."""
    faults = start_engines(players, clocks)  # an engine is sent its clock or movetime
    last = None
    while pos.result is None and pos.ply < args.ply_cap:
        side = 0 if pos.side == "red" else 1
        player = players[side]
        took = ""
        if player is None:
            move = _human_move(pos, stdin)
            if move is None:
                print(f"game stopped by {pos.side} after {pos.ply} plies (no result)")
                return 0
        else:
            if faults[side] is not None:  # it could not start
                return _lost(pos, f"forfeit: {faults[side]}")
            t0 = time.perf_counter()
            try:
                code = player.choose(pos.st)
            except EngineFault as fault:
                return _lost(pos, f"forfeit: {fault.note}")
            ms = (time.perf_counter() - t0) * 1000.0
            if clocks.over_time(side, ms):
                return _lost(pos, f"time: {clocks.overrun_note(side, ms)}")
            clocks.charge(side, ms)
            move = decode_move(code)
            left = clocks.remaining(side)
            took = f" ({ms:.0f} ms" + (f", {left / 1000:.1f} s left)" if left is not None else ")")
        mover = pos.side
        pos.play(move)
        last = move
        if not args.quiet:
            print(f"\nply {pos.ply}: {mover} {move}{took}")
            print(render_board(pos, last, fox=args.fox))
    result = pos.result
    if result is None:
        print(f"result: draw (ply_cap) after {pos.ply} plies")
    elif result.winner == "draw":
        print(f"result: draw ({result.reason}) after {pos.ply} plies")
    else:
        print(f"result: {result.winner} wins ({result.reason}) after {pos.ply} plies")
    if not args.quiet:
        print("moves: " + " ".join(pos.history))
    return 0


def _lost(pos: Position, why: str) -> int:
    """Print the result of a game the side to move lost by a fault or on time."""
    winner = "blue" if pos.side == "red" else "red"
    print(f"result: {winner} wins ({why}) after {pos.ply} plies")
    return 0
