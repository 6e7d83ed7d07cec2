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


# A study of a grid option under self-play and mixed pairings of random and greedy: a skill
# depth, three pairings per option, effects, curves and every table of a study's report.
MIXED_STUDY = """
name = "{name}"
seed = 5
[rules]
base = "standard"
[rules.grid]
no_capture_plies = [50]
[ladder]
bots = ["random", "greedy"]
pairings = "both"
[games]
per_cell = 20
"""


def play_study(text: str, data: Path) -> Path:
    """Write the study file ``text`` beside the data folder ``data`` and play it there with
    the real runner (its output discarded); ``data``."""
    # lazy: start-up time (the study runner is only for the tests that play a study)
    from sim.study.run import run_study
    from sim.study.spec import load_study

    data.parent.mkdir(parents=True, exist_ok=True)
    path = data.parent / "study.toml"
    path.write_text(text, encoding="utf-8")
    run_study(load_study(path), data, stream=io.StringIO())
    return data
