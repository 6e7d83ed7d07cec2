"""``dsq games export|import``: text records, CSV and JSON lines of real recorded games
(batches the simulator played, a person's game from a set-up position), the exact round
trip, and the refusal of tampered records. The round trip's import and its replay run in
real ``dsq`` processes; the other commands run in this process (``dsq_here``, the same
``sim.cli.main``, without a new interpreter's start-up for each)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from engine import Position
from sim.batch import make_spec, run_batches
from sim.records.human import Stop, human_game_row, save_human_game
from sim.storage.schema import GAME_SCHEMA
from tests.support.procs import dsq, dsq_here, in_process, one_line_error

SPECS = [  # (red, blue, games, options): scores, move times, ply-cap draws, fast games
    ("random", "greedy", 200, {"swap": True, "opening_plies": 2, "ply_cap": 300}),
    ("alphabeta:depth=1", "random", 60, {"swap": True, "ply_cap": 200}),
    ("mcts:playouts=16", "greedy", 20, {"ply_cap": 120}),
    ("alphabeta:time_ms=5", "greedy", 4, {"swap": True, "ply_cap": 40}),
]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder of real batches of mixed bots and a person's game from a FEN."""
    data = tmp_path_factory.mktemp("games-data")
    specs = [
        make_spec("standard", red, blue, games, seed=i + 1, **opts)
        for i, (red, blue, games, opts) in enumerate(SPECS)
    ]
    run_batches(specs, data, ids=[f"mixed-{i}" for i in range(len(specs))])
    pos = Position("standard")
    pos.play("a3a4")  # Blue moves first from this set-up position
    row = human_game_row(
        "standard", "human", "random", ["a7a6", "a4a5"], seed=3,
        start_fen=pos.fen(), stop=Stop("red", "resign"),
    )  # fmt: skip
    save_human_game(data, row)
    return data


def export(data: Path, *flags: str) -> str:
    res = dsq_here("games", "export", "--data", str(data), *flags)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.fixture(scope="module")
def text(recorded: Path) -> str:
    return export(recorded, "--humans")


def test_round_trip_is_byte_identical(recorded: Path, text: str, tmp_path: Path) -> None:
    assert "{+" in text or "{-" in text  # search scores
    assert "ms}" in text and "[TimeControl " in text and "[FEN " in text and "1... a7a6" in text
    path = tmp_path / "games.txt"
    path.write_text(text, encoding="utf-8")
    target = tmp_path / "copy"
    res = dsq("games", "import", str(path), "--data", str(target))
    assert res.returncode == 0, res.stderr
    assert export(target, "--humans") == text
    for fmt in ("csv", "jsonl"):  # every column, not only what the text shows
        assert export(target, "--humans", "--format", fmt) == export(
            recorded, "--humans", "--format", fmt
        )
    record = json.loads(next((target / "batches").glob("mixed-1.json")).read_text())
    assert record["label"] == "imported" and record["imported"]["file"] == str(path)
    assert record["games_done"] == 60 and record["status"] == "done"
    original = json.loads((recorded / "batches" / "mixed-1.json").read_text())
    assert record["counts"] == original["counts"]  # by colour, by bot, the pentanomial

    stats = json.loads(dsq_here("stats", "--json", "--data", str(target)).stdout)
    assert stats["general"]["games"] == sum(s[2] for s in SPECS)
    res = dsq("replay", "--game", "mixed-2:7", "--data", str(target))
    report = json.loads(res.stdout)
    assert res.returncode == 0 and report["agrees"] is True
    assert report["movetext"].startswith("1. " + report["moves"][0])


def test_csv_and_jsonl_hold_every_column(recorded: Path) -> None:
    rows = list(csv.reader(io.StringIO(export(recorded, "--format", "csv", "--batch", "mixed-1"))))
    assert rows[0] == GAME_SCHEMA.names and len(rows) == 61
    cell = dict(zip(rows[0], rows[1], strict=True))
    assert len(cell["moves"].split()) == int(cell["plies"]) and len(json.loads(cell["scores"]))
    lines = export(recorded, "--format", "jsonl", "--batch", "mixed-3").splitlines()
    games = [json.loads(line) for line in lines]
    assert len(games) == 4 and all(set(g) == set(GAME_SCHEMA.names) for g in games)
    assert all(len(g["move_ms"]) == g["plies"] == len(g["moves"]) for g in games)


def _tamper(text: str, old: str, new: str) -> tuple[str, int]:
    """``text`` with the first ``old`` after the first game replaced; that line's number."""
    start = text.index("[Batch", 1)
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old) :], text.count("\n", 0, at) + 1


@pytest.mark.parametrize("what", ["illegal move", "wrong result"])
def test_import_refuses_a_tampered_game(text: str, tmp_path: Path, what: str) -> None:
    if what == "illegal move":
        bad, line = _tamper(text, "\n1. ", "\n1. a1a9 ")
        line += 1
    else:  # a red win in a den recorded as a blue win, tag and result alike
        games = re.split(r"\n(?=\[Batch )", text)
        k = next(i for i, g in enumerate(games) if '[Result "1-0"]\n[Reason "den"]' in g)
        games[k] = games[k].replace('[Result "1-0"]', '[Result "0-1"]').replace("1-0\n", "0-1\n")
        bad = "\n".join(games)
        line = bad.count("\n", 0, bad.index('[Reason "den"]', bad.index(games[k]))) + 1
    path = tmp_path / "bad.txt"
    path.write_text(bad, encoding="utf-8")
    target = tmp_path / "target"
    error = one_line_error(dsq_here("games", "import", str(path), "--data", str(target)), "games")
    assert f"{path}:{line}:" in error
    assert not (target / "games").exists() and not (target / "batches").exists()


TAGS = '[Rules "standard"]\n[Red "random"]\n[Blue "greedy"]\n[Event "a remark"]\n'
MOVES = "\n1. a3a4 {+0.5/12ms} a7a6 {3ms} 2. a4a5 {1ms} a6a5 {-0.25/2ms} 1/2-1/2\n"


def test_hand_written_record(tmp_path: Path) -> None:
    path, data = tmp_path / "game.txt", tmp_path / "d"
    path.write_text(TAGS + '[Reason "den"]\n' + MOVES, encoding="utf-8")
    assert "not the replay's" in one_line_error(dsq_here("games", "import", str(path), "--data",
                                                    str(data)), "games")  # fmt: skip
    path.write_text(TAGS + '[Reason "ply_cap"]\n[PlyCap "4"]\n' + MOVES, encoding="utf-8")
    res = dsq_here("games", "import", str(path), "--data", str(data))
    assert res.returncode == 0, res.stderr
    out = json.loads(export(data, "--format", "jsonl"))
    assert out["batch_id"].startswith("import-") and out["game_index"] == 0
    assert out["scores"] == [0.5, None, None, -0.25] and out["move_ms"] == [12, 3, 1, 2]
    assert out["reason"] == "ply_cap" and out["winner"] == "draw"


@pytest.mark.parametrize(
    "argv",
    [
        ["games"],
        ["games", "export", "--format", "xml"],
        ["games", "export", "--min-plies", "x"],
        ["games", "export", "--colour", "red"],
        ["games", "export", "--data", "/nonexistent/dsq"],
        ["games", "import", "/nonexistent/games.txt"],
        ["games", "import", "/dev/zero"],
        ["games", "import", "README.md"],
    ],
)
def test_bad_arguments_are_one_line(argv: list[str], tmp_path: Path) -> None:
    if argv[1:2] == ["import"]:
        argv = [*argv, "--data", str(tmp_path / "d")]
    code, _, err = in_process(argv)  # an exception would raise here
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err
    assert re.match(r"dsq games( export| import)?: error: ", lines[0]), lines
    assert not (tmp_path / "d").exists()


def test_import_refuses_a_batch_already_there(recorded: Path, tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(export(recorded, "--batch", "mixed-3"), encoding="utf-8")
    before = sorted(p.name for p in (recorded / "batches").iterdir())
    error = one_line_error(dsq_here("games", "import", str(path), "--data", str(recorded)), "games")
    assert "mixed-3 is already in" in error
    assert sorted(p.name for p in (recorded / "batches").iterdir()) == before
