"""Deterministic bots from one start: ``dsq simulate`` and ``dsq tournament`` say so before
playing, choose seeded random opening plies unless told ``--opening-plies 0``, and report
the distinct games, with no interval where too few are distinct."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.procs import dsq_here as dsq  # in this process: no start-up per call
from tests.support.procs import one_line_error

BOTS = ["--red", "alphabeta:depth=1", "--blue", "alphabeta:depth=2"]
PLAYERS = ["--players", "alphabeta:depth=1", "alphabeta:depth=2"]


def _record(data: Path) -> dict:
    (path,) = (data / "batches").glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_simulate_kept_identical_says_so_and_gives_no_interval(tmp_path: Path) -> None:
    data = tmp_path / "d"
    res = dsq("simulate", *BOTS, "--games", "8", "--swap", "--opening-plies", "0",
              "--seed", "5", "--data", str(data))  # fmt: skip
    assert res.returncode == 0, res.stderr
    notes = [ln for ln in res.stderr.splitlines() if "deterministic" in ln]
    assert notes == [
        "dsq simulate: note: these bots are deterministic: from one start they play at most "
        "2 distinct games (one per colour); --opening-plies 0 keeps them identical, so the "
        "games repeat (--opening-plies 8 gives seeded variety)"
    ]
    assert _record(data)["spec"]["opening_plies"] == 0
    assert "8/8 games, 2 distinct" in res.stdout
    assert "(2 distinct games in 8: no interval)" in res.stdout
    assert "colour-swapped pairs" not in res.stdout  # not an interval from 4 copies


def test_simulate_chooses_seeded_variety_by_default(tmp_path: Path) -> None:
    data = tmp_path / "d"
    res = dsq("simulate", *BOTS, "--games", "8", "--swap", "--seed", "5", "--data", str(data),
              "--json")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert (
        "dsq simulate: note: these bots are deterministic: from one start they play at most "
        "2 distinct games (one per colour); adding 8 seeded random opening plies "
        "(--opening-plies 0 to keep them identical)"
    ) in res.stderr.splitlines()
    (rec,) = json.loads(res.stdout)["batches"]
    assert rec["spec"]["opening_plies"] == 8 == _record(data)["spec"]["opening_plies"]
    assert rec["distinct"]["games"] == rec["distinct"]["distinct"] == 8
    assert rec["distinct"]["distinct_pairs"] == 4


def test_auto_leaves_varied_or_short_batches_alone(tmp_path: Path) -> None:
    for n, argv in enumerate(
        [
            ["--red", "greedy", "--blue", "alphabeta:depth=1", "--games", "4", "--swap"],
            [*BOTS, "--games", "2", "--swap", "--opening-plies", "auto"],  # no game repeats
        ]
    ):
        data = tmp_path / str(n)
        res = dsq("simulate", *argv, "--seed", "1", "--data", str(data))
        assert res.returncode == 0, res.stderr
        assert "deterministic" not in res.stderr
        assert _record(data)["spec"]["opening_plies"] == 0
        assert "all distinct" in res.stdout
    bad = dsq("simulate", *BOTS, "--games", "2", "--opening-plies", "some", "--data", str(data))
    assert "expected auto or a whole number" in one_line_error(bad, "simulate")


def test_tournament_of_deterministic_players(tmp_path: Path) -> None:
    data = tmp_path / "d"
    same = dsq("tournament", "--format", "round-robin", *PLAYERS, "--games-per-pair", "4",
               "--opening-plies", "0", "--tournament-id", "same", "--data", str(data))  # fmt: skip
    assert same.returncode == 0, same.stderr
    (note,) = [ln for ln in same.stderr.splitlines() if "deterministic" in ln]
    assert note.startswith("dsq tournament: note: alphabeta:depth=1") and " and alphabeta" in note
    assert note.endswith(
        " are deterministic: from one start each pairing of two of them plays at most 2 "
        "distinct games (one per colour); --opening-plies 0 keeps them identical, so the games "
        "repeat (--opening-plies 8 gives seeded variety)"
    )
    assert "4 games, 2 distinct" in same.stdout
    assert "(1 distinct pair: no interval)" in same.stdout
    assert "fitted on the 2 distinct games of 4" in same.stdout

    varied = dsq("tournament", "--format", "round-robin", *PLAYERS, "--games-per-pair", "4",
                 "--tournament-id", "varied", "--data", str(data), "--json")  # fmt: skip
    assert varied.returncode == 0, varied.stderr
    assert "adding 8 seeded random opening plies" in varied.stderr
    rep = json.loads(varied.stdout)
    assert rep["plan"]["opening_plies"] == 8
    assert rep["distinct"]["distinct"] == rep["distinct"]["games"] == 4
    assert rep["cross"][0][1]["elo_from"] != "none"

    # auto, for a recorded tournament, keeps what it was started with (not a changed plan)
    again = dsq("tournament", "--format", "round-robin", *PLAYERS, "--games-per-pair", "4",
                "--tournament-id", "same", "--data", str(data))  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "--opening-plies 0 keeps them identical" in again.stderr
    assert "4 games, 2 distinct" in again.stdout
