"""Each ``dsq`` command loads only the heavy libraries it uses.

Real interpreters run ``sim.cli`` as ``__main__`` (as ``python -m sim.cli`` does) for a
list of command lines, one after the other, and say which command line first loaded each
heavy library. A library is never unloaded, so a list that loads none of them shows that
each of its command lines alone loads none: one interpreter checks them all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import ALIASES, COMMAND_MODULES
from sim.stats.synthetic import synthetic_table
from sim.storage.writing import write_games_chunk
from tests.support import ROOT
from tests.support.procs import env

HEAVY = (
    "numba",
    "pandas",
    "duckdb",
    "pyarrow",
    "scipy",
    "statsmodels",
    "plotly",
    "streamlit",
    "distributed",
    "numpy",  # lighter, but the only one left to load at start-up
)
COMMANDS = [name.rsplit(".", 1)[1] for name in COMMAND_MODULES]

# Runs each command line of argv[1] (a JSON list) as `python -m sim.cli` would, standard
# output discarded; prints {"codes": [exit codes], "first": {library: the command line
# that first loaded it}} as JSON on the last line.
SCRIPT = """
import contextlib, io, json, runpy, sys
HEAVY = %r
first, codes = {}, []
for argv in json.loads(sys.argv[1]):
    sys.argv = ["dsq", *argv]
    code = 0
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_module("sim.cli", run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = exc.code
    codes.append(code)
    for name in HEAVY:
        if name in sys.modules and name not in first:
            first[name] = " ".join(argv)
print(json.dumps({"codes": codes, "first": first}))
"""


def loaded_by(*command_lines: list[str]) -> dict[str, str]:
    """Run the command lines in turn in one fresh interpreter; {heavy library: the command
    line that first loaded it}. Every command line must exit 0."""
    res = subprocess.run(
        [sys.executable, "-c", SCRIPT % (HEAVY,), json.dumps(command_lines)],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout.strip().splitlines()[-1])
    assert report["codes"] == [0] * len(command_lines), (command_lines, report, res.stderr)
    return dict(report["first"])


def test_help_rules_and_bots_load_no_heavy_library() -> None:
    """``dsq --help`` (every command's parser), each command's ``--help`` (and its former
    names'), ``dsq rules`` and ``dsq bots`` load none of the heavy libraries, nor numpy."""
    aliases = [old for olds in ALIASES.values() for old in olds]
    lines = [["--help"], *([c, "--help"] for c in COMMANDS + aliases), ["rules"], ["bots"]]
    assert loaded_by(*lines) == {}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder of synthetic games (no engine needed to write it)."""
    d = tmp_path_factory.mktemp("startup-data")
    for rules, seed in (("standard", 1), ("yeshou", 2)):
        table = synthetic_table(
            400, rules=rules, seed=seed, batch_id=rules, bots=("greedy", "random")
        )
        write_games_chunk(d, rules, table)
    return d


def test_stats_does_not_load_the_engine(data: Path) -> None:
    """``dsq stats`` reads games with DuckDB: the compiled engine (numba) stays unloaded."""
    first = loaded_by(
        ["stats", "--data", str(data)],
        ["stats", "--data", str(data), "--by", "matchup", "--details", "--json"],
        ["stats", "--data", str(data), "--compare", "standard,yeshou", "--ratings"],
    )
    assert "numba" not in first, first
    assert "duckdb" in first  # the check sees what a command does load


def test_engine_commands_do_not_load_the_data_libraries() -> None:
    """``dsq legal``, ``dsq perft`` and ``dsq replay`` of a position use the compiled
    engine only: no pandas, DuckDB or pyarrow."""
    first = loaded_by(
        ["legal", "--moves", "a3a4"],
        ["perft", "--depth", "2"],
        ["replay", "--moves", "a3a4 a7a6"],
    )
    assert "numba" in first
    assert not {"pandas", "duckdb", "pyarrow", "plotly", "streamlit"} & set(first), first
