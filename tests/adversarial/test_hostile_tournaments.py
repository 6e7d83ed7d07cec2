"""A tournament's own file ``DATA/tournaments/ID.json``, damaged one field at a time:
``dsq tournament --report ID`` and ``--resume ID`` refuse each in one line, exit 2, before
anything is played (its checked reader: every field's type and range, the limits of the
flags, and the plan made again as the flags would make it)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.files import with_field
from tests.support.procs import dsq, in_process, one_line_error

TID = "ht"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round robin of three cheap bots really played (one round, 2 games a pair)."""
    data = tmp_path_factory.mktemp("tournament") / "d"
    code, _, err = in_process(["tournament", "--format", "swiss", "--players", "random",
                               "greedy", "alphabeta:depth=1", "--rounds", "2",
                               "--tournament-id", TID, "--data", str(data), "--quiet"])  # fmt: skip
    assert code == 0, err
    return data


INF = float("inf")
MANY = [f"mcts:playouts={k}" for k in range(10, 74)]  # 64 players, canonical specs
PAIRS = ("rounds", 0, "pairings")
# (case, field, its new value, the words the error must hold)
CASES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("rounds 10**12", ("plan", "rounds"), 10**12, "plan.rounds: must be from 1 to 1,000"),
    ("rounds 0", ("plan", "rounds"), 0, "plan.rounds"),
    ("rounds as text", ("plan", "rounds"), "x", "plan.rounds: must be a whole number"),
    ("rounds a fraction", ("plan", "rounds"), 1.5, "plan.rounds"),
    ("rounds true", ("plan", "rounds"), True, "plan.rounds"),
    ("seed Infinity", ("plan", "seed"), INF, "plan.seed: must be a whole number"),
    ("seed -Infinity", ("plan", "seed"), -INF, "plan.seed"),
    ("seed negative", ("plan", "seed"), -1, "plan.seed"),
    ("seed 2**64", ("plan", "seed"), 2**64, "plan.seed"),
    ("seed as text", ("plan", "seed"), "1", "plan.seed"),
    ("format x", ("plan", "format"), "x", "plan.format: must be one of"),
    ("format a number", ("plan", "format"), 3, "plan.format"),
    ("games_per_pair 0", ("plan", "games_per_pair"), 0, "plan.games_per_pair"),
    ("games_per_pair -2", ("plan", "games_per_pair"), -2, "plan.games_per_pair"),
    ("games_per_pair odd", ("plan", "games_per_pair"), 3, "plan.games_per_pair: must be even"),
    ("games_per_pair huge", ("plan", "games_per_pair"), 2**40, "plan.games_per_pair"),
    ("players an int", ("plan", "players"), 3, "plan.players"),
    ("one player", ("plan", "players"), ["random"], "plan.players"),
    ("players numbers", ("plan", "players"), [1, 2, 3], "plan.players[0]"),
    ("a player twice", ("plan", "players"), ["random", "random", "greedy"], "twice"),
    ("a player unknown", ("plan", "players", 0), "nosuchbot", "nosuchbot"),
    ("a player not canonical", ("plan", "players", 0), "RANDOM", "not as dsq writes it"),
    ("rules a number", ("plan", "rules"), 3, "plan.rules"),
    ("rules unknown", ("plan", "rules"), "nonsense", "plan:"),
    ("ply_cap 0", ("plan", "ply_cap"), 0, "plan.ply_cap"),
    ("opening plies huge", ("plan", "opening_plies"), 10**9, "plan.opening_plies"),
    ("openings_order x", ("plan", "openings_order"), "x", "plan.openings_order"),
    ("sprt a number", ("plan", "sprt"), 3, "plan.sprt"),
    ("suite not its digest", ("openings_text",), "startpos\n", "does not match its digest"),
    ("suite a number", ("openings_text",), 3, "openings_text"),
    ("an unknown plan key", ("plan", "extra"), 1, "not as dsq writes it"),
    ("the plan a list", ("plan",), [], "plan: must be an object"),
    ("the file a list", (), [], "not an object"),
    ("the id another", ("id",), "other", "id: must be"),
    ("rounds garbage", ("rounds",), 3, "rounds: must be a list"),
    ("more rounds than planned", ("rounds",), [{"pairings": []}] * 3, "rounds: must be a list"),
    ("a round a number", ("rounds", 0), 3, "rounds[0]"),
    ("pairings garbage", PAIRS, "x", "rounds[0]: must be an object with a list of pairings"),
    ("a pairing of one", (*PAIRS, 0), [0], "rounds[0].pairings[0]: must be a pair"),
    ("a player out of range", (*PAIRS, 0), [0, 9], "rounds[0].pairings[0]: must be from 0 to 2"),
    ("a player as text", (*PAIRS, 0), ["0", 1], "rounds[0].pairings[0]: must be a whole"),
    ("a player against itself", (*PAIRS, 0), [1, 1], "a player against itself"),
    ("a Swiss player twice", PAIRS, [[0, 1], [1, 2]], "plays twice in a round of a Swiss"),
    ("a pair twice", PAIRS, [[0, 1], [1, 0]], "a pair twice"),
    ("bye garbage", ("rounds", 0, "bye"), "x", "rounds[0].bye"),
    ("bye out of range", ("rounds", 0, "bye"), 7, "rounds[0].bye"),
    ("bye also paired", ("rounds", 0, "bye"), None, ""),  # set below to a paired player
    (
        "a gauntlet of 64 players over 1,000 rounds",
        ("plan",),
        lambda doc: {**doc["plan"], "format": "gauntlet", "players": MANY, "rounds": 1000},
        "would make 63,000 batches, more than the 20,000",
    ),
    ("a created_at object", ("created_at",), {"a": 1}, "created_at: must be text"),
]


def _damage(data: Path, tmp_path: Path, field: tuple[Any, ...], value: Any) -> Path:
    d = tmp_path / "d"
    shutil.copytree(data, d)
    f = d / "tournaments" / f"{TID}.json"
    doc = json.loads(f.read_text())
    if field == ("rounds", 0, "bye") and value is None:
        value = doc["rounds"][0]["pairings"][0][0]  # a player who plays in the round
    if callable(value):
        value = value(doc)
    f.write_text(json.dumps(with_field(doc, field, value)))
    return d


@pytest.mark.parametrize(
    ("field", "value", "words"), [pytest.param(f, v, w, id=c) for c, f, v, w in CASES]
)
def test_a_damaged_tournament_file_is_one_line(
    played: Path, tmp_path: Path, field: tuple[Any, ...], value: Any, words: str
) -> None:
    d = _damage(played, tmp_path, field, value)
    before = sorted(p.name for p in (d / "batches").iterdir())
    for mode in ("--report", "--resume"):
        code, out, err = in_process(["tournament", mode, TID, "--data", str(d), "--quiet"])
        assert code == 2 and out == "", (mode, code, err)
        (line,) = err.strip().splitlines()
        path = d / "tournaments" / f"{TID}.json"
        assert line.startswith(f"dsq tournament: error: {path}: unreadable tournament file:")
        assert words in line, line
    assert sorted(p.name for p in (d / "batches").iterdir()) == before  # nothing played


def test_rounds_of_a_trillion_never_play_a_batch(played: Path, tmp_path: Path) -> None:
    """The real CLI: ``--resume`` of a file whose rounds say 10**12 exits 2 at once (it
    once kept playing, 266 batches in 120 s), as ``--rounds`` refuses more than 1000."""
    d = _damage(played, tmp_path, ("plan", "rounds"), 10**12)
    res = dsq("tournament", "--resume", TID, "--data", str(d))
    assert "plan.rounds: must be from 1 to 1,000" in one_line_error(res, "tournament")
    flag = dsq("tournament", "--format", "gauntlet", "--players", "random", "greedy",
               "--rounds", str(10**12), "--data", str(tmp_path / "e"))  # fmt: skip
    assert "1000" in one_line_error(flag, "tournament")


def test_the_intact_file_still_reports_and_resumes(played: Path, tmp_path: Path) -> None:
    """The reader refuses damage, not tournaments: the file as written reads back."""
    d = tmp_path / "d"
    shutil.copytree(played, d)
    code, out, err = in_process(["tournament", "--report", TID, "--data", str(d), "--json"])
    assert code == 0 and json.loads(out)["id"] == TID, err
    code, _, err = in_process(["tournament", "--resume", TID, "--data", str(d), "--quiet"])
    assert code == 0, err


@pytest.mark.parametrize(
    ("fmt", "rounds", "batches"),
    [("round-robin", 1000, "2,016,000"), ("gauntlet", 1000, "63,000"),
     ("round-robin", 10, "20,160")],
)  # fmt: skip
def test_rounds_times_players_are_counted_before_any_batch(
    tmp_path: Path, fmt: str, rounds: int, batches: str
) -> None:
    """The flags: rounds times a round's pairings above 20,000 batches is refused with
    their number, before the tournament's file or any batch is written (a round robin of
    64 players over 1,000 rounds once registered 2,016 batches and kept playing)."""
    d = tmp_path / "d"
    code, out, err = in_process(["tournament", "--format", fmt, "--players", *MANY,
                                 "--rounds", str(rounds), "--data", str(d)])  # fmt: skip
    assert code == 2 and out == "", err
    (line,) = err.strip().splitlines()
    assert f"would make {batches} batches, more than the 20,000" in line, line
    assert not d.exists()
