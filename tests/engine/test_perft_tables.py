"""The rules engine against the perft tables and hand-checked positions in tests/data.

* ``hand.tsv``: one position per RULES.md clause, with its legal moves checked by hand
  (``#legal``); the reference must agree too, so a wrong hand list or a reference bug shows.
* ``deep.tsv``: the same positions (and seeded mid-game positions) at deeper depths, counted by
  the reference; ``start.tsv`` / ``start_slow.tsv``: RULES.md's numbers for the initial position.
* ``bad_fens.tsv``: FENs to refuse; ``results.tsv``: outcomes of finished games.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import TEST_DATA
from tests.support import reference as ref
from tests.support import reference_board as ref_board

DATA = TEST_DATA


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    rules: str
    fen: str
    moves: str
    depth: int
    expect: int | None  # '#expect' count
    legal: tuple[str, ...] | None  # '#legal' hand-checked moves
    why: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def read_suite(name: str) -> list[Case]:
    """Entries of a suite file with the '#expect' / '#legal' lines and comment above them."""
    cases = []
    expect: int | None = None
    legal: tuple[str, ...] | None = None
    why: list[str] = []
    for number, line in enumerate((DATA / name).read_text().splitlines(), start=1):
        if line.startswith("#expect"):
            expect = int(line.split()[1])
        elif line.startswith("#legal"):
            words = line.split()[1:]
            legal = () if words == ["-"] else tuple(words)
        elif line.startswith("#"):
            why.append(line[1:].strip())
        elif line.strip():
            rules, fen, moves, depth = line.split("\t")
            if legal is not None and expect is None and int(depth) == 1:
                expect = len(legal)
            cases.append(
                Case(name, number, rules, fen, moves, int(depth), expect, legal, " ".join(why))
            )
            expect, legal, why = None, None, []
    return cases


HAND = read_suite("hand.tsv")
DEEP = read_suite("deep.tsv")
START = read_suite("start.tsv")
START_SLOW = read_suite("start_slow.tsv")


def read_rows(name: str) -> list[list[str]]:
    rows = []
    for line in (DATA / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


BAD_FENS = read_rows("bad_fens.tsv")
RESULTS = read_rows("results.tsv")


def test_tables_are_well_formed() -> None:
    assert len(HAND) >= 70 and all(c.legal is not None and c.depth == 1 for c in HAND)
    assert len(DEEP) >= 300 and all(c.expect is not None for c in DEEP)
    assert len(START) == 16 and len(START_SLOW) == 3
    assert len(BAD_FENS) >= 25 and len(RESULTS) >= 20


# ------------------------------------------------------------------ the reference itself


@pytest.mark.parametrize("case", HAND, ids=lambda c: c.id)
def test_reference_agrees_with_hand_checked_moves(case: Case) -> None:
    rules, pos = ref.setup(case.rules, case.fen, case.moves)
    assert tuple(ref.legal_moves(pos, rules)) == case.legal, case.why


@pytest.mark.parametrize("depth,count", [(1, 24), (2, 576), (3, 12_240), (4, 260_099)])
def test_reference_initial_perft(depth: int, count: int) -> None:
    rules, pos = ref.setup("standard")
    assert ref.perft(pos, depth, rules) == count


@pytest.mark.slow
def test_reference_initial_perft_5() -> None:
    rules, pos = ref.setup("yeshou")
    assert ref.perft(pos, 5, rules) == 5_111_620


@pytest.mark.parametrize("why,fen", BAD_FENS, ids=[row[0] for row in BAD_FENS])
def test_reference_refuses_bad_fen(why: str, fen: str) -> None:
    with pytest.raises(ref_board.FenRefused):
        ref_board.parse_fen(fen)


@pytest.mark.parametrize("row", RESULTS, ids=[row[0] for row in RESULTS])
def test_reference_outcomes(row: list[str]) -> None:
    why, rules_spec, fen, moves, expected = row
    rules, pos = ref.setup(rules_spec, fen, moves)
    outcome = ref.outcome(pos, rules)
    assert ("none" if outcome is None else " ".join(outcome)) == expected
    if outcome is not None:
        assert ref.legal_moves(pos, rules) == []


# ------------------------------------------------------------------ the engine


def engine_position(rules: str, fen: str, moves: str):
    from engine import Position

    pos = Position(rules, fen)
    if moves:
        pos.play_moves(moves)
    return pos


def dsq_command() -> list[str]:
    """The ``dsq`` console script, or the same entry point through this interpreter."""
    exe = shutil.which("dsq")
    return [exe] if exe else [sys.executable, "-m", "sim.cli"]


def test_cli_suite_matches_every_table(tmp_path: Path) -> None:
    """All tables through ``dsq perft --suite`` in one subprocess."""
    cases = HAND + DEEP + START
    path = tmp_path / "suite.tsv"
    path.write_text("".join(f"# {c.id}\n{c.rules}\t{c.fen}\t{c.moves}\t{c.depth}\n" for c in cases))
    proc = subprocess.run(
        [*dsq_command(), "perft", "--suite", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=DATA.parent.parent,
    )
    assert proc.returncode == 0, proc.stderr
    counts = [int(x) for x in proc.stdout.split()]
    assert len(counts) == len(cases)
    wrong = [
        (c.id, c.rules, c.fen, c.moves, c.depth, c.expect, got)
        for c, got in zip(cases, counts, strict=True)
        if got != c.expect
    ]
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("case", HAND, ids=lambda c: c.id)
def test_engine_hand_divide(case: Case) -> None:
    pos = engine_position(case.rules, case.fen, case.moves)
    assert tuple(pos.legal_moves()) == case.legal, case.why
    assert pos.divide(1) == dict.fromkeys(case.legal, 1), case.why
    assert pos.perft(1) == len(case.legal)


@pytest.mark.parametrize("case", DEEP + START, ids=lambda c: c.id)
def test_engine_perft_table(case: Case) -> None:
    pos = engine_position(case.rules, case.fen, case.moves)
    assert pos.perft(case.depth) == case.expect, case.why


@pytest.mark.parametrize("case", [c for c in DEEP if c.depth == 2], ids=lambda c: c.id)
def test_engine_divide_depth2_matches_reference(case: Case) -> None:
    pos = engine_position(case.rules, case.fen, case.moves)
    rules, rpos = ref.setup(case.rules, case.fen, case.moves)
    assert pos.divide(2) == ref.divide(rpos, 2, rules), case.why


@pytest.mark.slow
@pytest.mark.parametrize("case", START_SLOW, ids=lambda c: c.id)
def test_engine_perft_start_depth6(case: Case) -> None:
    pos = engine_position(case.rules, case.fen, case.moves)
    assert pos.perft(case.depth) == case.expect


@pytest.mark.parametrize("why,fen", BAD_FENS, ids=[row[0] for row in BAD_FENS])
def test_engine_refuses_bad_fen(why: str, fen: str) -> None:
    from engine import Position
    from engine.errors import FenError

    with pytest.raises(FenError):
        Position("standard", fen)


@pytest.mark.parametrize("row", RESULTS, ids=[row[0] for row in RESULTS])
def test_engine_outcomes(row: list[str]) -> None:
    why, rules, fen, moves, expected = row
    pos = engine_position(rules, fen, moves)
    result = pos.result
    assert ("none" if result is None else f"{result.winner} {result.reason}") == expected, why
    if result is not None:
        assert pos.legal_moves() == []
        assert pos.perft(1) == 0 and pos.perft(3) == 0
