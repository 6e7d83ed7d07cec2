"""Opening suites: the file format, each kind of bad line named by FILE:LINE, files that are
not small regular UTF-8 files refused in one error, the order of the openings, and the
games of a suite the same on the compiled path and in the referee."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.openings.suite import (
    MAX_SUITE_LINES,
    Entry,
    SuiteError,
    load_suite,
    opening_indices,
    parse_suite,
)
from sim.play.columnar import play_fast_columns
from sim.play.referee import game_moves, play_game
from sim.records.replay import replay_game
from tests.support.files import unreadable_files
from tests.support.procs import dsq_here

ROOT = Path(__file__).resolve().parents[3]
BLUE_TO_MOVE = "7/7/7/7/7/7/7/3l3/L6 b 0 1"
GOOD = f"""# a suite: comments, blank lines, names
startpos a3a4 a7a6\tedge pawns  # a comment after the name

startpos moves g3g4\tg-file
{BLUE_TO_MOVE}
{BLUE_TO_MOVE} moves d2d3\tlion step
startpos
"""


def write(tmp_path: Path, text: str, name: str = "suite.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_lines(tmp_path: Path) -> None:
    suite = load_suite(write(tmp_path, GOOD), "standard")
    assert suite.entries == (
        Entry(None, ("a3a4", "a7a6"), "edge pawns"),
        Entry(None, ("g3g4",), "g-file"),
        Entry(BLUE_TO_MOVE, (), None),
        Entry(BLUE_TO_MOVE, ("d2d3",), "lion step"),
        Entry(None, (), None),
    )
    assert suite.longest == 2
    # the canonical text reads back to the same suite, with the same hash
    again = parse_suite(suite.text, "standard")
    assert again == suite and again.digest == suite.digest
    assert suite.text.splitlines()[3] == f"{BLUE_TO_MOVE} moves d2d3\tlion step"


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("7/7/7 r 0 1", "bad FEN"),
        ("startpos a3a5", "move 1 (a3a5)"),
        ("startpos a3a4 a3a4", "move 2 (a3a4)"),
        ("7/7/7/7/7/7/7/7/L6 b 0 1", "already finished"),
        ("7/7/7/7/7/7/7/3l3/L6 b 0 1 moves d2d1", "the game is over after move 1"),
        (f"{BLUE_TO_MOVE} d2d3", "'moves' and moves"),
        ("\tonly a name", "a name without a position"),
        ("startpos " + "a3a4 " * 201, "at most 200"),
    ],
)
def test_each_bad_line_names_file_and_line(tmp_path: Path, line: str, what: str) -> None:
    path = write(tmp_path, f"# header\nstartpos a3a4\n{line}\n")
    with pytest.raises(SuiteError) as exc:
        load_suite(path, "standard")
    message = str(exc.value)
    assert message.startswith(f"{path}:3: ") and what in message
    assert "\n" not in message


def test_too_many_lines_and_an_empty_suite(tmp_path: Path) -> None:
    path = write(tmp_path, "startpos\n" * (MAX_SUITE_LINES + 1))
    with pytest.raises(SuiteError, match=rf":{MAX_SUITE_LINES + 1}: more than"):
        load_suite(path, "standard")
    with pytest.raises(SuiteError, match="no position"):
        load_suite(write(tmp_path, "# nothing\n\n", "empty.txt"), "standard")


def test_lines_are_checked_under_the_rule_set(tmp_path: Path) -> None:
    # the tiger's jump along a file across the river: legal in the standard game only
    fen = "e6/7/7/7/7/7/1T5/7/7 r 0 1"
    path = write(tmp_path, f"{fen} moves b3b7\n")
    assert load_suite(path, "standard").entries[0].moves == ("b3b7",)
    with pytest.raises(SuiteError, match=":1: move 1"):
        load_suite(path, "standard+tiger_jump=horizontal")


def test_files_that_are_not_small_regular_utf8_files(tmp_path: Path) -> None:
    cases = [*unreadable_files(tmp_path).items(), (str(tmp_path / "missing.txt"), "No such file")]
    for path, what in cases:
        with pytest.raises(SuiteError) as exc:
            load_suite(path, "standard")
        assert what in str(exc.value) and "\n" not in str(exc.value)


def test_dsq_simulate_refuses_a_bad_suite_with_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, "startpos a3a4\nstartpos a3a9\n")
    proc = dsq_here(  # in this process: the command's refusal, not the process, is checked
        "simulate", "--data", str(tmp_path / "d"), "--games", "4", "--openings", str(path)
    )
    assert proc.returncode == 2
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"dsq simulate: error: {path}:2: move 1 (a3a9)")
    assert "Traceback" not in proc.stderr and not (tmp_path / "d" / "games").exists()


def test_the_order_of_the_openings() -> None:
    pairs = np.arange(12)
    assert opening_indices(7, "sequential", 5, pairs).tolist() == [
        0,
        1,
        2,
        3,
        4,
        0,
        1,
        2,
        3,
        4,
        0,
        1,
    ]
    shuffled = opening_indices(7, "random", 5, pairs)
    for cycle in range(2):  # every opening once per pass, a new order each pass
        assert sorted(shuffled[5 * cycle : 5 * cycle + 5].tolist()) == [0, 1, 2, 3, 4]
    assert shuffled[:5].tolist() != shuffled[5:10].tolist()
    assert opening_indices(7, "random", 5, pairs[7:]).tolist() == shuffled[7:].tolist()
    assert opening_indices(8, "random", 5, pairs).tolist() != shuffled.tolist()


def test_suite_games_are_the_same_on_the_compiled_path_and_in_the_referee() -> None:
    suite = parse_suite(GOOD, "standard")
    n = 30
    which = np.arange(n) % len(suite)
    seeds = np.arange(100, 100 + n, dtype=np.int64)
    red = np.arange(n) % 2
    columns, played = play_fast_columns(
        "standard", ("random", "greedy"), red, 1 - red, seeds, seeds // 2, 2, 200,
        suite=suite, which=which,
    )  # fmt: skip
    assert played == n
    for i in range(n):
        entry = suite.entries[which[i]]
        bots = ("random", "greedy")
        game = play_game(
            "standard", bots[red[i]], bots[1 - red[i]], int(seeds[i]), 2, 200, int(seeds[i] // 2),
            fen=entry.start_fen, opening_moves=entry.codes,
        )  # fmt: skip
        game["start_fen"] = entry.start_fen
        for key, value in game.items():
            got = columns[key][i].as_py()
            if key == "branching":
                assert got == pytest.approx(value, rel=1e-6)
            elif key != "duration_ms":
                assert got == value, (i, key)
        assert game_moves(game)[: len(entry.moves)] == list(entry.moves)
        assert (
            game["opening_plies"] == len(entry.moves) + 2 or game["plies"] < game["opening_plies"]
        )


def test_a_searching_bot_plays_after_the_suite_line_and_the_game_replays() -> None:
    entry = parse_suite("startpos a3a4 a7a6 g3g4\n", "standard").entries[0]
    game = play_game(
        "standard", "alphabeta:depth=1", "greedy", 5, 1, 120,
        fen=entry.start_fen, opening_moves=entry.codes,
    )  # fmt: skip
    assert game_moves(game)[:3] == ["a3a4", "a7a6", "g3g4"]
    assert game["opening_plies"] == 4
    assert game["scores"][:4] == [None] * 4 and game["scores"][4] is not None  # Red's search
    replay = replay_game("standard", game["moves"], 120, None)
    assert replay.error is None and replay.plies == game["plies"]
    assert (replay.winner, replay.reason) == (game["winner"], game["reason"])


def test_the_documented_example_suite() -> None:
    path = ROOT / "docs" / "examples" / "openings.txt"
    suite = load_suite(path, "standard")
    assert len(suite) == 6 and suite.entries[2].moves == ("g3g4",)
    doc = (ROOT / "docs" / "openings.md").read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") in doc  # the page shows the file as it is
