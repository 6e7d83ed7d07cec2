"""A small engine for tests that speaks the protocol and misbehaves on purpose.

``python bad_engine.py FAULT [--after N] [--sleep MS] [--rules SPEC]``: it plays the first
legal move (by dsq's engine) for its first N searches, then commits FAULT at every later
``go``:

- ``good``: never misbehaves;
- ``illegal``: answers ``bestmove a1a9``;
- ``null``: answers ``bestmove 0000``;
- ``silence``: never answers (it still answers ``isready``);
- ``crash``: writes a line on stderr and exits with code 3;
- ``garbage``: writes junk, then ``bestmove banana``;
- ``slow``: sleeps MS milliseconds (ignoring ``stop``), then answers a legal move;
- ``handshake``: never finishes the handshake.
"""

from __future__ import annotations

import argparse
import sys
import time

FAULTS = ("good", "illegal", "null", "silence", "crash", "garbage", "slow", "handshake")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("fault", choices=FAULTS)
    ap.add_argument("--after", type=int, default=0)
    ap.add_argument("--sleep", type=int, default=2000)
    ap.add_argument("--rules", default="standard")
    args = ap.parse_args()
    setup: tuple[str | None, list[str]] = (None, [])  # the FEN (None: start) and the moves
    searches = 0

    def legal() -> list[str]:
        """The legal moves of the last position (dsq's engine is loaded only if needed)."""
        from engine.position import Position

        pos = Position(args.rules, setup[0])
        pos.play_moves(setup[1])
        return pos.legal_moves()

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd in ("uci", "jcei", "uji"):
            say(f"id name bad-engine {args.fault}")
            say("option name Hash type spin default 1 min 1 max 16")
            if args.fault != "handshake":
                say(f"{cmd}ok")
        elif cmd == "isready":
            if args.fault in ("good", "slow") or args.after:
                legal()  # load dsq's engine now, not during a timed search
            say("readyok")
        elif cmd == "position":
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen = " ".join(tokens[2:end]) if tokens[1] == "fen" else None
            setup = (fen, tokens[end + 1 :])
        elif cmd == "go":
            searches += 1
            fault = args.fault if searches > args.after else "good"
            if fault == "illegal":
                say("bestmove a1a9")
            elif fault == "null":
                say("bestmove 0000")
            elif fault == "silence":
                continue
            elif fault == "crash":
                sys.stderr.write("bad-engine: segmentation fault (on purpose)\n")
                sys.stderr.flush()
                return 3
            elif fault == "garbage":
                say("\x00\x7f junk \ufffd")
                say("bestmove banana")
            else:
                if fault == "slow":
                    time.sleep(args.sleep / 1000)
                moves = legal()
                say("info depth 1 score cp 0 nodes 1 pv " + (moves[0] if moves else ""))
                say(f"bestmove {moves[0] if moves else '0000'}")
        elif cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
