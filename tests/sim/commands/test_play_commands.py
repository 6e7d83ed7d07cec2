"""The bot commands of the CLI: ``dsq bots``, ``dsq move`` and ``dsq play`` (a human
playing through standard input, in a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sim.cli import main

FEN_BLUE_WINS = "7/7/7/7/7/7/7/3l3/L6 b 0 1"  # Blue's lion beside Red's den


def dsq(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_bots_lists_every_parameter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for word in (
        "random",
        "greedy",
        "alphabeta",
        "mcts",
        "depth=4",
        "playouts=2000",
        "rollout=random",
        "time_ms=0",
        "values=450/",
    ):
        assert word in out
    # Each parameter's text names the animals' order once (the values= parameter).
    values_block = out.split("\n    values=450/")[1].split("\n\n")[0]
    assert values_block.count("rat/cat/dog/wolf/leopard/tiger/lion/elephant") == 1
    assert "alphabeta:time_ms=300" in out  # how budgets lift the depth cap
    assert main(["bots", "--json"]) == 0
    bots = json.loads(capsys.readouterr().out)
    assert [b["name"] for b in bots] == ["random", "greedy", "alphabeta", "mcts", "engine"]
    assert bots[-1]["canonical"] == "engine:NAME,movetime=1000,margin=1000"


def test_move_prints_the_move_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", "--bot", "alphabeta:depth=3", "--fen", FEN_BLUE_WINS]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "d2d1"
    args = ["move", "--bot", "alphabeta:depth=4", "--moves", "c3d3 e7d7", "--json"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    info = json.loads(lines[0])
    assert lines[-1] == info["move"]
    assert info["depth"] == 4 and info["nodes"] > 0 and info["pv"][0] == info["move"]
    assert {"score", "time_ms", "bot", "fen", "mate_in"} <= set(info)
    assert main(["move", "--bot", "mcts:playouts=50", "--seed", "3", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0])["playouts"] == 50
    assert main(["move", "--bot", "mcts:playouts=50", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == lines[-1]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["move", "--bot", "minimax"], "unknown bot"),
        (["move", "--bot", "greedy", "--fen", "7/7/7 r 0 1"], "ranks"),
        (["move", "--bot", "greedy", "--moves", "a1a9"], "illegal"),
        (["move", "--bot", "greedy", "--fen", "7/7/7/7/7/7/7/7/L6 b 0 1"], "game is over"),
        (["play", "--red", "greedy", "--blue", "alphabeta:depth=x"], "depth takes"),
        (["play", "--red", "greedy", "--blue", "random", "--rules", "nope"], "unknown rules"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and fragment in err


def test_play_between_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--red", "greedy", "--blue", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "~" in out and "#" in out and "@" in out  # river, traps and dens are drawn
    assert "ply 1: red" in out and "result: " in out and "moves: " in out
    assert main(["play", "--red", "greedy", "--blue", "random", "--quiet", "--seed", "1"]) == 0
    quiet = capsys.readouterr().out.strip().splitlines()
    assert len(quiet) == 1 and quiet[0].startswith("result: ")
    assert (
        main(
            [
                "play",
                "--red",
                "random",
                "--blue",
                "random",
                "--ply-cap",
                "3",
                "--quiet",
                "--rules",
                "standard+no_capture_plies=0",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.strip() == "result: draw (ply_cap) after 3 plies"


def test_human_plays_through_stdin() -> None:
    done = dsq(
        "play",
        "--red",
        "random",
        "--blue",
        "human",
        "--fen",
        FEN_BLUE_WINS,
        stdin="d9d9\nb2b3\nmoves\nd2d1\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "not a square" not in out or "not played" in out
    assert "not played: illegal move b2b3: no blue piece on b2" in out
    assert "legal moves: d2c2 d2d1 d2d3 d2e2" in out
    assert "result: blue wins (den) after 1 plies" in out
    assert done.stderr == ""


def test_human_end_of_input_stops_cleanly() -> None:
    done = dsq("play", "--red", "human", "--blue", "greedy", stdin="a3a4\n")
    assert done.returncode == 0, done.stderr
    assert "ply 1: red a3a4" in done.stdout and "ply 2: blue" in done.stdout
    assert "game stopped by red after 2 plies" in done.stdout
    assert "Traceback" not in done.stderr


def test_play_shows_the_wolf_as_a_fox_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "--red", "greedy", "--blue", "greedy", "--seed", "3", "--ply-cap", "2"]
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert main([*args, "--fox"]) == 0
    fox = capsys.readouterr().out
    first = fox.splitlines()[3:12]  # the initial board, ranks 9..1
    assert " F " in first[6] and " f " in first[2]  # red's wolf c3, blue's wolf e7
    assert "W" not in "".join(first) and "w" not in "".join(first)
    assert "F fox" in fox and "W wolf" in plain
    # Display only: the same game is played, the moves and result are unchanged.
    assert plain.splitlines()[-1] == fox.splitlines()[-1]


def test_a_person_takes_back_resigns_and_the_saved_game_replays(tmp_path) -> None:
    data = tmp_path / "data"
    typed = "help\nundo\na3a4\nundo\na3a4\nmoves\nresign\n"
    done = dsq("play", "--red", "human", "--blue", "random", "--seed", "1", "--save",
               "--data", str(data), stdin=typed)  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out = done.stdout
    assert "commands: a move such as a3a4 plays it; 'moves' lists" in out
    assert all(f"'{word}'" in out for word in ("moves", "undo", "resign", "help", "quit"))
    assert "nothing to undo" in out and "took back 2 plies" in out
    assert out.count("ply 1: red a3a4") == 2
    assert "result: blue wins (resign) after 2 plies" in out
    saved = out.splitlines()[-1]
    assert saved.startswith("saved as play-") and f"--data {data})" in saved
    batch = saved.split()[2]
    replayed = dsq("replay", "--game", f"{batch}:0", "--data", str(data))
    assert replayed.returncode == 0, replayed.stderr
    report = json.loads(replayed.stdout)
    assert report["agrees"] is True and report["result"] is None
    assert report["recorded"] == {"winner": "blue", "reason": "resign", "plies": 2}


def test_the_terminal_explains_a_chase_and_saves_only_finished_games(tmp_path) -> None:
    chase = ["a3a4", "a4a5", "a5a4", "a4a3"] * 4 + ["a3a4", "a4a5", "quit"]
    data = tmp_path / "data"
    done = dsq("play", "--rules", "datou", "--red", "human", "--blue", "random", "--seed", "1",
               "--fen", "6l/7/7/7/7/7/E6/7/6C r 0 1", "--quiet", "--save", "--data", str(data),
               stdin="\n".join(chase) + "\n")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "not played: a4a5 is forbidden now by the 17-5 rule (no chasing)" in done.stdout
    assert "game stopped by red after 34 plies (no result)" in done.stdout
    assert "saved as" not in done.stdout and not data.exists()
    bots = dsq("play", "--red", "random", "--blue", "random", "--save", "--data", str(data))
    assert bots.returncode == 2 and bots.stderr.count("\n") == 1 and "'human'" in bots.stderr
