"""The layers of the project, lowest first: a package imports only from layers below its
own (tests/test_project.py holds it), at module level and inside functions alike. Each
entry is a package and what it holds; ``docs/team-contracts.md`` shows this list as its
map (``python -m tests.support.layers`` rewrites that section)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAP_DOC = ROOT / "docs" / "team-contracts.md"
MAP_BEGIN = "<!-- layers: begin (generated from tests/support/layers.py) -->"
MAP_END = "<!-- layers: end -->"

LAYERS: list[list[tuple[str, str]]] = [
    [("engine", "the rules kernel: positions, moves, rule sets, FEN, perft (numba)")],
    [
        (
            "sim.core",
            "declarations shared by all of sim: batch specs, seeds, adjudication, "
            "time controls, the tally of a batch's games",
        )
    ],
    [
        (
            "sim.storage",
            "the data folder: parquet schema, the one reader (DuckDB), atomic "
            "writing, locks, batch records, summaries, compaction, verification",
        )
    ],
    [("sim.tablebase", "endgame tables: retrograde build, store, probe, adjudication")],
    [
        (
            "sim.bots",
            "bots behind one protocol: spec strings, random, greedy, alpha-beta, "
            "MCTS, evaluations and their pins, the columnar fast kernels",
        )
    ],
    [
        (
            "sim.external",
            "external engines: the registry, the protocol client, engine "
            "processes and pools, clocks, the rules check",
        )
    ],
    [("sim.serve", "`dsq engine`: a dsq bot behind the UCI-style protocol")],
    [("sim.stats", "statistics over recorded games: pure functions of a DuckDB view")],
    [("sim.openings", "opening suites: the file format, suites built from games")],
    [("sim.play", "the game loop: the referee and the columnar fast path")],
    [("sim.report", "how figures are written: number formats, text and JSON renderings")],
    [
        (
            "sim.batch",
            "batches: the plan of what to resume and create, the runner, chunks, "
            "backends (local pool, Dask), progress, detached launches, time budgets",
        )
    ],
    [("sim.records", "game records: the text format, export, import, replay")],
    [("sim.interactive", "a game with a person at the board: setup, session, stops")],
    [
        (
            "sim.study",
            "variant studies: rule sets x bot families x openings x seeds, "
            "findings, verdicts, skill curves",
        ),
        ("sim.tournament", "tournaments: round robin, gauntlet, Swiss; cross tables"),
        ("sim.tune", "fitting evaluations to recorded games, and accepting the fit"),
        ("sim.bench", "the measurements behind `dsq bench`"),
    ],
    [
        ("sim.commands", "the `dsq` sub-commands, one module each"),
        ("sim.api", "the Python front door: `import sim` (docs/api.md)"),
    ],
    [
        ("sim.cli", "the `dsq` entry point"),
        ("dashboard", "the Streamlit dashboard: pages, charts, jobs, languages"),
    ],
]


def package_of(module: str) -> str:
    """The layered package a module belongs to (``sim`` itself is the front door)."""
    parts = module.split(".")
    if parts[0] != "sim":
        return parts[0]
    if len(parts) == 1:
        return "sim.api"
    return "sim." + parts[1]


def rank() -> dict[str, int]:
    """Each package's layer number, 0 for the lowest."""
    return {name: i for i, layer in enumerate(LAYERS) for name, _ in layer}


def render_map() -> str:
    """The "where things live" map: each package, lowest layer first, and what it holds
    (its modules' docstrings say the rest, so adding a module leaves the map as it is)."""
    lines = [MAP_BEGIN, "", "| layer | package | what it holds |", "|---|---|---|"]
    for i, layer in enumerate(LAYERS):
        for name, what in layer:
            path = {"sim.api": "sim/api.py", "sim.cli": "sim/cli.py"}.get(
                name, name.replace(".", "/") + "/"
            )
            lines.append(f"| {i} | `{path}` | {what} |")
    return "\n".join(lines + ["", MAP_END])


def documented_map() -> str:
    """The map as ``docs/team-contracts.md`` has it now."""
    text = MAP_DOC.read_text(encoding="utf-8")
    start, end = text.find(MAP_BEGIN), text.find(MAP_END)
    return text[start : end + len(MAP_END)] if 0 <= start < end else ""


def write_map() -> None:
    """Rewrite the map's section of ``docs/team-contracts.md``."""
    text = MAP_DOC.read_text(encoding="utf-8")
    old = documented_map()
    if not old:
        raise SystemExit(f"{MAP_DOC}: no {MAP_BEGIN!r} ... {MAP_END!r} section")
    MAP_DOC.write_text(text.replace(old, render_map()), encoding="utf-8")


if __name__ == "__main__":
    write_map()
    sys.exit(0)
