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
- ``handshake``: never finishes the handshake;
- ``deaf``: answers the handshake, then never reads its input again;
- ``mute``: never answers the handshake and never reads its input again (so it does not
  leave when dsq's end closes its input);
- ``flood_options``: floods the handshake with ``option name ...`` lines (never ``ok``);
- ``flood_perft``: answers ``perft`` with endless lines of 1,000,000 characters;
- ``fork``: starts a child that sleeps (stdio detached), then plays like ``good``;
- ``orphan``: starts a child that holds its pipes open, then exits at its first ``go``;
- ``setsid``: starts a child in a session of its own (``setsid``), then plays like ``good``;
- ``daemon``: daemonizes a child as a service does (fork, ``setsid``, fork again, the
  middle process exits, the last one runs on with an empty environment), then plays like
  ``good``.

``--scores "cp 120;mate -3"`` gives the ``info ... score`` of each search in turn (cycled;
default ``cp 0``; ``cp 50,mate 2``: one ``info`` line for each, in that order).
``--tag TEXT`` is only carried on the command line (children carry it too), so a test can
find every process an engine left behind.
"""

from __future__ import annotations

import argparse
import sys
import time

FAULTS = ("good", "illegal", "null", "silence", "crash", "garbage", "slow", "handshake",
          "deaf", "mute", "flood_options", "flood_perft", "fork", "orphan", "setsid",
          "daemon")  # fmt: skip


def child(tag: str, detached: bool) -> None:
    """Start a child that sleeps for ten minutes (``tag`` on its command line); detached:
    stdio on /dev/null, else it inherits this engine's pipes."""
    import subprocess

    io = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
          "stderr": subprocess.DEVNULL} if detached else {}  # fmt: skip
    subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)", tag], close_fds=detached, **io
    )


DAEMON = "import os, sys, time\nif os.fork() == 0:\n    time.sleep(600)\n"
"""The middle process of ``daemon``: forks the daemon (which sleeps) and exits at once."""


def daemonize(tag: str, double: bool) -> None:
    """Start a child that sleeps in a session of its own (``tag`` on its command line);
    ``double``: through a middle process that exits, with an empty environment, so that
    neither the engine's process group, nor its session, nor its environment leads to it."""
    import subprocess

    code = DAEMON if double else "import time; time.sleep(600)"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, tag],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, env={} if double else None,
    )  # fmt: skip
    if double:
        proc.wait()  # the middle process is gone: the daemon's parent is whoever adopts it


def flood(line: str) -> int:
    """Write ``line`` for ever (until the reader goes away)."""
    data = (line + "\n").encode()
    try:
        while True:
            sys.stdout.buffer.write(data)
    except (BrokenPipeError, OSError):
        return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("fault", choices=FAULTS)
    ap.add_argument("--after", type=int, default=0)
    ap.add_argument("--sleep", type=int, default=2000)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--tag", default="")
    ap.add_argument("--scores", default="cp 0")
    args = ap.parse_args()
    if args.fault in ("fork", "orphan"):
        child(args.tag, detached=args.fault == "fork")
    if args.fault in ("setsid", "daemon"):
        daemonize(args.tag, double=args.fault == "daemon")
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
            if args.fault == "flood_options":
                n = 0
                while True:
                    n += 1
                    say(f"option name O{n} type string default {'x' * 1000}")
            if args.fault == "mute":
                time.sleep(600)
                return 0
            if args.fault != "handshake":
                say(f"{cmd}ok")
            if args.fault == "deaf":
                time.sleep(600)
                return 0
        elif cmd == "isready":
            if args.fault in ("good", "slow", "fork", "setsid", "daemon") or args.after:
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
            elif fault in ("crash", "orphan"):
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
                scores = args.scores.split(";")
                for depth, score in enumerate(scores[(searches - 1) % len(scores)].split(",")):
                    pv = moves[0] if moves else ""
                    say(f"info depth {depth + 1} score {score} nodes 1 pv {pv}")
                say(f"bestmove {moves[0] if moves else '0000'}")
        elif cmd == "perft" and args.fault == "flood_perft":
            return flood("x" * 1_000_000)
        elif cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
