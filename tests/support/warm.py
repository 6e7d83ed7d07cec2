"""Compile the project's kernels into the on-disk cache before the test workers start.

``python -m tests.support.warm GROUP`` compiles one group; the suite's controller runs the
groups side by side (tests/conftest.py), so that the workers and the subprocesses the
tests start load compiled kernels instead of each compiling the same ones.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def _search() -> None:
    from sim.bots.protocol import warm_up

    warm_up("alphabeta", "standard")


def _games() -> None:
    from engine import Position
    from sim.bots.protocol import warm_up
    from sim.play.columnar import play_fast_games

    pos = Position("standard")
    pos.perft(2)
    pos.divide(1)
    play_fast_games("standard", ["random", "greedy"], ["greedy", "random"], [1, 2], [1, 2], 2, 40)
    warm_up("mcts", "standard")
    warm_up("greedy", "standard")


def _tables() -> None:
    from sim.tablebase.build import build_tables

    with tempfile.TemporaryDirectory() as root:
        build_tables("standard", ["R v r"], Path(root))


GROUPS = {"search": (_search, _tables), "games": (_games,)}


def main(argv: list[str]) -> int:
    """Compile the groups named in ``argv`` (all by default); print the seconds taken."""
    for name in argv or list(GROUPS):
        t0 = time.perf_counter()
        for step in GROUPS[name]:
            step()
        print(f"{name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
