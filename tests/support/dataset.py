"""A small real dataset for the dashboard tests, made by the real simulator.

``build_dataset(folder)`` runs ``dsq simulate`` in-process (random and greedy bots are
fast): two rule sets with colour-swapped random vs greedy games, and random vs random
games under a third. Batch ids are fixed so tests can name them.
"""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

from sim.cli import main as dsq

COMMANDS = [
    ["--rules", "standard,datou", "--red", "random", "--blue", "greedy", "--games", "40",
     "--swap", "--seed", "1", "--batch-id", "fx-swap"],
    ["--rules", "yeshou", "--red", "random", "--blue", "random", "--games", "30",
     "--seed", "2", "--opening-plies", "2", "--batch-id", "fx-rr"],
]  # fmt: skip
BATCH_IDS = ("fx-swap-1", "fx-swap-2", "fx-rr")
TOTAL_GAMES = 40 + 40 + 30


def build_dataset(folder: Path) -> Path:
    """Record the fixture games under ``folder`` (created) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for argv in COMMANDS:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = dsq(["simulate", *argv, "--data", str(folder), "--quiet"])
        if code != 0:
            raise RuntimeError(f"dsq simulate {' '.join(argv)} exited with {code}")
    return folder


def copy_dataset(source: Path, dest: Path) -> Path:
    """A private copy of a dataset (tests that write must not touch the shared one)."""
    shutil.copytree(source, dest)
    return dest
