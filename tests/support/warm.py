"""Compile the project's kernels into the on-disk cache before the test workers start.

``python -m tests.support.warm GROUP`` compiles one group; the suite's controller runs the
groups side by side (tests/conftest.py), so that the workers and the subprocesses the
tests start load compiled kernels instead of each compiling the same ones.

Besides the bots' and the engine's kernels, the groups run a few small real ``dsq``
commands (in this process, on a temporary data folder): the outcome-only and adjudicated
fast paths, the tablebase's build, verify and statistics, tuning and the replay of a
study's games compile kernels of their own, with argument types of their own, that the
tests would otherwise compile in whichever worker or subprocess first needs them (several
at once on a cold cache). Once every group has run, :func:`mark_warm` leaves a mark in the
cache folder (:func:`marker`): later runs on the same sources skip the warm-up.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _search() -> None:
    from sim.bots.protocol import warm_up

    warm_up("alphabeta", "standard")


def _games() -> None:
    from engine import Position
    from engine.warmup import warm_up as warm_engine
    from sim.bots.protocol import warm_up
    from sim.play.columnar import play_fast_games

    pos = Position("standard")
    pos.perft(2)
    pos.divide(1)
    warm_engine()  # every preset's move generation and random play-outs
    play_fast_games("standard", ["random", "greedy"], ["greedy", "random"], [1, 2], [1, 2], 2, 40)
    warm_up("mcts", "standard")
    warm_up("greedy", "standard")
    _why()


def _why() -> None:
    """The rules check's explanations of an engine's illegal moves (scalar kernels)."""
    from engine import Position
    from sim.external.why import capture_clause, move_clause

    pos = Position("standard")
    move_clause(pos.st, pos.rules, 14 * 64 + 21)  # a3a4
    move_clause(pos.st, pos.rules, 14 * 64 + 14)
    capture_clause(pos.rules, 1, 14, 9, 21)


def _tables() -> None:
    from sim.tablebase.build import build_tables

    with tempfile.TemporaryDirectory() as root:
        build_tables("standard", ["R v r"], Path(root))


def _dsq(*argv: str) -> None:
    """``dsq ARGV`` in this process, its output discarded; a failure is an error here."""
    from sim.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    if code:
        raise RuntimeError(f"dsq {' '.join(argv)} exited {code}: {out.getvalue()[-2000:]}")


def _recorded_games() -> None:
    """Games recorded by each path of the batch runner, then tuned on and replayed."""
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "data")
        _dsq("simulate", "--games", "40", "--record", "outcomes", "--data", data, "--quiet")
        _dsq("simulate", "--red", "greedy", "--blue", "random", "--games", "20", "--swap",
             "--opening-plies", "4", "--data", data, "--quiet")  # fmt: skip
        _dsq("simulate", "--red", "alphabeta:depth=1", "--blue", "mcts:playouts=8", "--games",
             "2", "--ply-cap", "60", "--data", data, "--quiet")  # fmt: skip
        _dsq("simulate", "--rules", "yeshou", "--red", "random", "--blue", "greedy", "--games",
             "20", "--data", data, "--quiet")  # fmt: skip
        _dsq("tune", "--name", "warm", "--data", data, "--positions", "200", "--max-iter", "1")
        _replayed(Path(data))


def _replayed(data: Path) -> None:
    """The repetition rules' counts of a study's report, replayed from recorded games."""
    from sim.storage.reading import open_dataset
    from sim.storage.records import list_batches
    from sim.study.replay import forbidden_counts

    batches = [b["batch_id"] for b in list_batches(data) if b["spec"]["rules"] == "yeshou"]
    with open_dataset(data) as ds:
        forbidden_counts(ds.con, batches, "yeshou")


def _table_commands() -> None:
    """The tablebase's commands and games adjudicated by its tables."""
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "data")
        _dsq("tablebase", "build", "--rules", "standard", "--pieces", "2", "--data", data)
        _dsq("tablebase", "stats", "--material", "R v e", "--data", data)
        _dsq("tablebase", "verify", "--rules", "standard", "--material", "R v e", "--data", data)
        _dsq("simulate", "--red", "greedy", "--blue", "random", "--games", "20",
             "--adjudicate", "tablebase", "--data", data, "--quiet")  # fmt: skip


GROUPS: dict[str, tuple[Callable[[], None], ...]] = {
    "search": (_search, _tables, _table_commands),
    "games": (_games, _recorded_games),
}


def marker() -> Path:
    """The mark that this checkout's kernels were warmed in the current cache folder (the
    folder is named by the kernels' sources; the mark by this checkout and this file)."""
    from engine.jit import cache_dir

    h = hashlib.sha1(str(ROOT).encode() + b"\0" + Path(__file__).read_bytes())
    return cache_dir() / f"warmed-{h.hexdigest()[:16]}"


def mark_warm() -> None:
    marker().touch()


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
