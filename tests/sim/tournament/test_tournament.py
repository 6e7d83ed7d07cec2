"""``dsq tournament``: pairings, ordinary batches, the cross table against ``dsq stats``,
Swiss rounds without rematches, resume after a kill, and one-line errors."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from sim.storage.reading import open_dataset
from sim.tournament import pairing
from tests.support.procs import dsq_here, in_process, one_line_error, popen_dsq

CHEAP = ["random", "greedy", "alphabeta:depth=1"]
WAIT = 240.0


def tournament(data: Path, *args: str) -> dict:
    """Run ``dsq tournament ... --json --quiet`` in this process; its report."""
    code, out, err = in_process(["tournament", *args, "--data", str(data), "--json", "--quiet"])
    assert code == 0, err
    return json.loads(out)


def games(data: Path) -> list[tuple]:
    """Every game of the data folder, timing left out, in a fixed order."""
    with open_dataset(data) as ds:
        return ds.con.execute(
            "SELECT batch_id, game_index, red, blue, winner, reason, plies, moves, seed "
            "FROM games ORDER BY batch_id, game_index"
        ).fetchall()


def test_pairing_rules() -> None:
    assert pairing.round_robin(3).pairings == ((0, 1), (0, 2), (1, 2))
    assert pairing.gauntlet(4).pairings == ((0, 1), (0, 2), (0, 3))
    first = pairing.swiss(0, [0.0] * 6, set(), set())
    assert first.bye is None
    assert {frozenset(p) for p in first.pairings} == {
        frozenset(p) for p in ((0, 3), (1, 4), (2, 5))
    }  # the fold: top half against bottom half


def test_swiss_pairing_avoids_rematches_and_gives_byes() -> None:
    n, points = 5, [0.0] * 5
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for k in range(5):  # as many rounds as a 5-player Swiss can have without rematches
        rnd = pairing.swiss(k, points, met, byes)
        assert rnd.bye is not None and rnd.bye not in byes
        seen = {p for pair in rnd.pairings for p in pair}
        assert seen == set(range(n)) - {rnd.bye}
        for a, b in rnd.pairings:
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            points[min(a, b)] += 2  # the lower index wins every game
        byes.add(rnd.bye)
        points[rnd.bye] += 2
    assert len(met) == 10  # every pair met once


def test_round_robin_plays_every_pair_as_ordinary_batches(tmp_path: Path) -> None:
    data = tmp_path / "d"
    rep = tournament(
        data, "--format", "round-robin", "--players", *CHEAP, "--games-per-pair", "4",
        "--ply-cap", "120", "--seed", "5", "--tournament-id", "rr",
    )  # fmt: skip
    assert rep["complete"] and rep["games"] == 12
    assert [b["batch"] for b in rep["batches"]] == ["rr-r01-p1p2", "rr-r01-p1p3", "rr-r01-p2p3"]
    for b in rep["batches"]:
        i, j = b["players"]
        code, out, err = in_process(["stats", "--data", str(data), "--batch", b["batch"], "--json"])
        assert code == 0, err
        g = json.loads(out)["general"]
        cell, mirror = rep["cross"][i][j], rep["cross"][j][i]
        assert cell["games"] == g["games"] == 4
        decisive = g["red"]["count"] + g["blue"]["count"]
        assert cell["draws"] == g["draw"]["count"] and cell["wins"] + cell["losses"] == decisive
        assert (cell["wins"], cell["losses"]) == (mirror["losses"], mirror["wins"])
        assert cell["points"] + mirror["points"] == 4
        rec = json.loads((data / "batches" / f"{b['batch']}.json").read_text())
        assert rec["label"].startswith("tournament rr round 1")
        assert rec["spec"]["swap"] and rec["spec"]["red"] == rep["players"][i]
    with open_dataset(data) as ds:  # each pair's two games swap colours
        rows = ds.con.execute(
            "SELECT batch_id, pair_id, count(DISTINCT red) FROM games GROUP BY 1, 2"
        ).fetchall()
    assert rows and all(n == 2 for _, _, n in rows)
    assert {s["player"] for s in rep["standing"]} == set(rep["players"])
    assert sum(s["points"] for s in rep["standing"]) == 12
    assert len(rep["ratings"]["table"]) == 3 and rep["first_move"]["games"] == 12
    code, text, _ = in_process(["tournament", "--report", "rr", "--data", str(data)])
    assert code == 0 and "cross table" in text and "ptnml" in text


def test_gauntlet_pairs_only_the_first_player(tmp_path: Path) -> None:
    rep = tournament(
        tmp_path / "d", "--format", "gauntlet", "--players", "greedy", "random",
        "alphabeta:depth=1", "--ply-cap", "100", "--tournament-id", "g",
    )  # fmt: skip
    assert [b["players"] for b in rep["batches"]] == [[0, 1], [0, 2]]
    assert rep["cross"][1][2] is None and rep["cross"][2][1] is None


def test_swiss_of_five_over_three_rounds(tmp_path: Path) -> None:
    players = [*CHEAP, "alphabeta:depth=1,noise=20", "alphabeta:depth=1,contempt=0"]
    rep = tournament(
        tmp_path / "d", "--format", "swiss", "--players", *players, "--rounds", "3",
        "--ply-cap", "80", "--seed", "2", "--tournament-id", "sw",
    )  # fmt: skip
    assert rep["complete"] and rep["rounds_played"] == 3
    pairs = [frozenset(b["players"]) for b in rep["batches"]]
    assert len(pairs) == 6 and len(set(pairs)) == 6  # two boards a round, no rematch
    plan = json.loads((tmp_path / "d" / "tournaments" / "sw.json").read_text())
    assert all(r["bye"] is not None for r in plan["rounds"])
    assert len({r["bye"] for r in plan["rounds"]}) == 3
    assert sum(s["byes"] for s in rep["standing"]) == 3
    assert sum(s["points"] for s in rep["standing"]) == 6 * 2 + 3 * 2  # games + byes


def test_same_command_plays_nothing_more_and_a_changed_one_is_refused(tmp_path: Path) -> None:
    args = ["--format", "gauntlet", "--players", "greedy", "random", "--ply-cap", "60"]
    a = tournament(tmp_path / "d", *args)
    b = tournament(tmp_path / "d", *args)  # the same id (a digest of the command)
    assert a["id"] == b["id"] and a["games"] == b["games"] == 2
    code, _, err = in_process(
        ["tournament", *args[:-1], "80", "--tournament-id", a["id"], "--data", str(tmp_path / "d")]
    )
    assert code == 2 and "ply_cap: 60 -> 80" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["term", "kill9"])
def test_killed_tournament_resumes_to_the_same_games(tmp_path: Path, sig: int) -> None:
    args = [
        "tournament", "--format", "round-robin", "--players", *CHEAP, "--games-per-pair", "40",
        "--ply-cap", "300", "--seed", "9", "--tournament-id", "k", "--quiet",
    ]  # fmt: skip
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    code, _, err = in_process([*args, "--data", str(whole)])  # uninterrupted: in this process
    assert code == 0, err
    proc = popen_dsq(*args, "--data", str(cut))
    first = cut / "batches" / "k-r01-p1p2.json"
    deadline = time.monotonic() + WAIT
    while not (first.exists() and '"done"' in first.read_text()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the first batch never finished"
        time.sleep(0.01)
    proc.send_signal(sig)
    proc.communicate(timeout=WAIT)
    assert proc.returncode == (130 if sig == signal.SIGTERM else -9)
    code, out, _ = in_process(["tournament", "--report", "k", "--data", str(cut), "--json"])
    assert code == 0 and not json.loads(out)["complete"]
    code, _, err = in_process(["tournament", "--resume", "k", "--data", str(cut), "--quiet"])
    assert code == 0, err
    assert games(cut) == games(whole)


@pytest.mark.parametrize(
    "argv",
    [
        ["--format", "ladder", "--players", "random", "greedy"],
        ["--format", "round-robin", "--players", "random"],
        ["--format", "round-robin", "--players", "random", "greedy", "--games-per-pair", "3"],
        ["--format", "round-robin", "--players", "random", "nosuchbot"],
        ["--format", "round-robin", "--players", "random", "alphabeta:depth=99"],
        ["--format", "round-robin", "--players", "random", "random"],
        ["--format", "swiss", "--players", "random", "greedy", "--rounds", "5"],
        ["--format", "round-robin", "--players", "random", "greedy", "--sprt", "elo0=0"],
        ["--report", "nope"],
        ["--resume", "x", "--format", "swiss"],
        ["--players", "random", "greedy"],
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, argv: list[str]) -> None:
    (tmp_path / "d").mkdir()
    # in this process: an exception would raise here
    one_line_error(dsq_here("tournament", *argv, "--data", str(tmp_path / "d")), "tournament")
    assert not (tmp_path / "d" / "tournaments").exists()


def test_every_pair_of_a_round_plays_the_same_openings(tmp_path: Path) -> None:
    rep = tournament(
        tmp_path / "d", "--format", "round-robin", "--players", *CHEAP, "--games-per-pair", "4",
        "--openings", "docs/examples/openings.txt", "--ply-cap", "100", "--tournament-id", "o",
    )  # fmt: skip
    assert rep["complete"]
    with open_dataset(tmp_path / "d") as ds:
        rows = ds.con.execute(
            "SELECT pair_id, batch_id, start_fen, opening_plies, moves[1:opening_plies] "
            "FROM games ORDER BY pair_id, batch_id, game_index"
        ).fetchall()
    by_pair: dict[int, set] = {}
    for pair, _, fen, plies, line in rows:
        by_pair.setdefault(pair, set()).add((fen, plies, tuple(line or ())))
    assert len(by_pair) == 2 and all(len(v) == 1 for v in by_pair.values())
    assert len({next(iter(v)) for v in by_pair.values()}) == 2  # two openings


def test_gauntlet_sprt_stops_each_pairing(tmp_path: Path) -> None:
    tournament(
        tmp_path / "d", "--format", "gauntlet", "--players", "greedy", "random",
        "--games-per-pair", "400", "--sprt", "elo0=0,elo1=300", "--tournament-id", "s",
    )  # fmt: skip
    rec = json.loads((tmp_path / "d" / "batches" / "s-r01-p1p2.json").read_text())
    assert rec["sprt"].startswith("elo0=0") and rec["games_done"] < 400
