"""The engine's command line: ``dsq perft`` / ``moves`` / ``replay`` on good and bad input.

Bad input (RULES.md 'Position notation', DESIGN.md 'Conventions') must give exit code 2 and
exactly one line on stderr, with no traceback. Every case runs in-process through
``sim.cli.main``; a few also run as real ``dsq`` subprocesses (started all at once: they spend
most of their time importing).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from tests.support import ROOT
from tests.support import reference as ref
from tests.support import reference_board as ref_board

FINISHED = "7/7/7/7/3L3/7/7/7/7 b 0 1"  # blue to move with no pieces: red has won
WATER_ELEPHANT = "l5t/1d3c1/r1p1w1e/7/7/1E5/2W1P1R/1C3D1/T5L r 0 1"
DIVIDE_FEN = "6c/7/7/7/3L3/7/7/7/7 r 0 1"  # hand.tsv: d5a5 d5d4 d5d6 d5g5

# name -> (argv after 'dsq', words the one-line message must contain)
BAD = {
    "malformed FEN": (["perft", "--fen", "l5t/7 r 0 1", "--depth", "1"], []),
    "FEN with an elephant in water": (["perft", "--fen", WATER_ELEPHANT, "--depth", "1"], []),
    "FEN with a bad side": (["moves", "--fen", ref_board.START_FEN.replace(" r ", " x ")], []),
    "FEN rank of 8 empty squares": (
        ["legal", "--fen", ref_board.START_FEN.replace("/7/7/7/", "/8/7/7/")],
        ["rank 6", "longer than 7 squares"],
    ),
    "FEN with no animals": (["legal", "--fen", "7/7/7/7/7/7/7/7/7 r 0 1"], ["no animals"]),
    "boolean value that is no word": (
        ["legal", "--rules", "standard+rule_7_3=maybe"],
        ["true/yes/on/1", "false/no/off/0"],
    ),
    "choice option without a value": (["legal", "--rules", "datou+jump_block"], ["any|enemy"]),
    "unknown preset": (["perft", "--rules", "chinese", "--depth", "1"], ["chinese"]),
    "unknown option": (["perft", "--rules", "standard+bogus_rule", "--depth", "1"], ["bogus_rule"]),
    "bad choice value": (
        ["perft", "--rules", "standard+tiger_jump=diagonal", "--depth", "1"],
        ["diagonal"],
    ),
    "bad boolean value": (["moves", "--rules", "yeshou+rule_7_3=maybe"], ["maybe"]),
    "negative no_capture_plies": (
        ["perft", "--rules", "standard+no_capture_plies=-3", "--depth", "1"],
        [],
    ),
    "illegal move with its ply number": (
        ["perft", "--moves", "a3a4 a7a6 a4a9", "--depth", "1"],
        ["a4a9", "3"],
    ),
    "illegal move in replay": (["replay", "--moves", "a3a4 a3a5"], ["a3a5", "2"]),
    "malformed move": (["moves", "--moves", "a3a4 zz"], ["zz"]),
    "move after the end of the game": (
        ["perft", "--fen", FINISHED, "--moves", "d5d4", "--depth", "1"],
        ["d5d4"],
    ),
    "negative depth": (["perft", "--depth", "-1"], ["-1"]),
    "non-numeric depth": (["perft", "--depth", "abc"], ["abc"]),
    "missing suite file": (["perft", "--suite", "/nonexistent/suite.tsv"], []),
    "suite line with 3 fields": (["perft", "--suite", "@bad_suite"], []),
}
GOOD = {
    "divide": ["perft", "--fen", DIVIDE_FEN, "--depth", "2", "--divide"],
    "moves": [
        "moves",
        "--rules",
        "standard+rule_7_3",
        "--fen",
        DIVIDE_FEN,
        "--moves",
        "d5d4 g9g8 d4d5 g8f8 d5d4 f8f9 d4d5 f9g9 d5d4 g9g8 d4d5 g8f8",
    ],
    "moves finished": ["moves", "--fen", FINISHED],
}


def dsq_command() -> list[str]:
    exe = shutil.which("dsq")
    return [exe] if exe else [sys.executable, "-m", "sim.cli"]


SUBPROCESS_CASES = ["malformed FEN", "illegal move with its ply number", "non-numeric depth"]


@pytest.fixture(scope="module")
def bad_suite(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("suite") / "bad.tsv"
    path.write_text("# comment\nstandard\tstart\t3\n")
    return str(path)


def run_in_process(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    from sim.cli import main

    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def runs(bad_suite: str) -> dict[str, subprocess.CompletedProcess]:
    argvs = {name: BAD[name][0] for name in SUBPROCESS_CASES} | GOOD
    procs = {}
    for name, argv in argvs.items():
        argv = [bad_suite if a == "@bad_suite" else a for a in argv]
        procs[name] = subprocess.Popen(
            [*dsq_command(), *argv],
            cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    out = {}
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        out[name] = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    return out


def check_one_line_error(name: str, code: int, stderr: str) -> None:
    assert code == 2, (code, stderr)
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    for word in BAD[name][1]:
        assert re.search(rf"(?<![\w-]){re.escape(word)}(?!\w)", lines[0]), (word, lines[0])


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_exits_2_with_one_line(name: str, bad_suite: str, capsys) -> None:
    argv = [bad_suite if a == "@bad_suite" else a for a in BAD[name][0]]
    code, _, err = run_in_process(argv, capsys)
    check_one_line_error(name, code, err)


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_bad_input_subprocess(runs: dict, name: str) -> None:
    proc = runs[name]
    check_one_line_error(name, proc.returncode, proc.stderr)


def test_divide_output(runs: dict) -> None:
    proc = runs["divide"]
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split("\n")
    lines = [line for line in lines if line]
    rules, pos = ref.setup("standard", DIVIDE_FEN)
    expected = ref.divide(pos, 2, rules)
    assert sorted(expected) == ["d5a5", "d5d4", "d5d6", "d5g5"]  # hand.tsv, first entry
    assert lines[:-1] == [f"{m} {n}" for m, n in expected.items()]
    assert int(lines[-1]) == sum(expected.values())


def test_moves_json_with_history(runs: dict) -> None:
    proc = runs["moves"]
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    rules, pos = ref.setup("standard+rule_7_3", DIVIDE_FEN, GOOD["moves"][-1])
    # The lion (back on d5) visited d4 three times in its last 6 moves: d5d4 is forbidden (7-3).
    assert data["legal"] == ["d5a5", "d5d6", "d5g5"]
    fen = ref_board.to_fen(pos)
    assert data == {
        "fen": fen,
        "board": fen.split()[0],
        "legal": ref.legal_moves(pos, rules),
        "result": None,
    }


def test_moves_json_finished(runs: dict) -> None:
    proc = runs["moves finished"]
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data == {
        "fen": FINISHED,
        "board": FINISHED.split()[0],
        "legal": [],
        "result": {"winner": "red", "reason": "capture_all"},
    }
