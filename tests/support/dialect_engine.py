"""A small engine for tests that speaks plain UCI in another dialect than dsq's.

``python dialect_engine.py [--upper] [--red-lower] [--wb] [--moves colon|unreadable|none]
[--fen-broken] [--movetime-only]``: it answers ``uci`` with ``id name`` and ``uciok`` only
(none of dsq's extras), ``isready`` with ``readyok``, and plays the first legal move (by
dsq's engine) of the position it was sent:

- ``--upper``: writes its moves in upper case (``bestmove F2E2``; it reads either case);
- ``--red-lower``: in its FENs the side that moves first (red) has the lower-case letters;
- ``--wb``: its FENs say ``w`` for red; any other letter is blue (so dsq's ``r`` is blue);
- ``--moves``: ``colon`` answers ``moves`` with ``legal moves: a3a4 ...``, ``unreadable``
  with ``legal moves: a3-a4 ...``, ``none`` ignores it (the default);
- ``--fen-broken``: reads every ``position fen`` as the initial position;
- ``--movetime-only``: ignores ``go depth`` and thinks ``movetime`` ms (3000 without one);
- ``--fen-newgame-crash``: dies of a segmentation fault at ``ucinewgame`` once it has read a
  ``position fen`` (as jungine's glm-5 branch does).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--upper", action="store_true")
    ap.add_argument("--red-lower", action="store_true")
    ap.add_argument("--wb", action="store_true")
    ap.add_argument("--moves", choices=("colon", "unreadable", "none"), default="none")
    ap.add_argument("--fen-broken", action="store_true")
    ap.add_argument("--movetime-only", action="store_true")
    ap.add_argument("--fen-newgame-crash", action="store_true")
    args = ap.parse_args()
    from engine.position import Position

    pos = Position("standard")
    read_fen = False

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def ours(fields: list[str]) -> str:
        """Its FEN as dsq's."""
        board = fields[0].swapcase() if args.red_lower else fields[0]
        red = fields[1] == ("w" if args.wb else "r")
        return f"{board} {'r' if red else 'b'} {' '.join(fields[2:4]) or '0 1'}"

    def legal() -> list[str]:
        moves = pos.legal_moves()
        return [m.upper() for m in moves] if args.upper else moves

    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd == "uci":
            say("id name dialect-engine")
            say("uciok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "ucinewgame" and args.fen_newgame_crash and read_fen:
            os.kill(os.getpid(), signal.SIGSEGV)
        elif cmd == "position":
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            read_fen = read_fen or tokens[1] == "fen"
            fen = None if tokens[1] != "fen" or args.fen_broken else ours(tokens[2:end])
            try:
                pos = Position("standard", fen)
                pos.play_moves(" ".join(tokens[end + 1 :]).lower())
            except Exception:  # noqa: BLE001 - a careless engine: keeps what it has
                pass
        elif cmd == "moves" and args.moves != "none":
            moves = legal()
            if args.moves == "unreadable":
                moves = [f"{m[:2]}-{m[2:]}" for m in moves]
            say("legal moves: " + " ".join(moves))
        elif cmd == "go":
            limits = dict(zip(tokens[1::2], tokens[2::2], strict=False))
            if args.movetime_only:
                time.sleep(int(limits.get("movetime", 3000)) / 1000)
            moves = legal()
            say(f"bestmove {moves[0] if moves else '0000'}")
        elif cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
