"""``dsq engine``'s protocol loop (sim.serve.server), fed lines in-process."""

from __future__ import annotations

import io
import sys
import time

import pytest

from engine import Position
from engine.errors import DsqError
from sim.external.process import EngineProcess
from sim.serve.server import EngineServer, clock_ms
from tests.support import ROOT
from tests.support.procs import WAIT


def talk(server: EngineServer, *lines: str) -> list[str]:
    """Feed lines; return what the server wrote for them."""
    out = io.StringIO()
    server.out = out
    for line in lines:
        assert server.handle(line + "\n")
        server.finish()  # a search answers before the next line is fed
    return out.getvalue().splitlines()


@pytest.fixture
def server() -> EngineServer:
    return EngineServer("alphabeta:depth=2", "standard", out=io.StringIO())


def test_handshake_lists_the_bot_parameters_as_options(server: EngineServer) -> None:
    lines = talk(server, "jcei")
    assert lines[0] == "id name dsq alphabeta:depth=2"
    assert "option name depth type spin default 2 min 1 max 60" in lines
    assert "option name values type string default 450/200/300/350/500/800/900/1000" in lines
    assert "option name rules type string default standard" in lines
    assert lines[-1] == "jceiok"
    assert talk(server, "uci")[-1] == "uciok"
    mcts = EngineServer("mcts", out=io.StringIO())
    assert "option name rollout type combo default random var random var greedy" in talk(
        mcts, "uji"
    )


def test_position_go_and_the_optional_commands(server: EngineServer) -> None:
    assert talk(server, "isready") == ["readyok"]
    out = talk(server, "position startpos moves a3a4 a7a6", "go depth 1")
    assert out[0].startswith("info depth 1 ") and " pv " in out[0]
    move = out[-1].split()[1]
    pos = Position("standard")
    pos.play_moves("a3a4 a7a6")
    assert move in pos.legal_moves()
    assert talk(server, "perft 2")[0].startswith("perft(2) = ")
    listed = talk(server, "moves")[0]
    assert listed == f"Legal moves ({len(pos.legal_moves())}): " + " ".join(pos.legal_moves())
    # the side as w/b and a FEN without counters are understood
    out = talk(server, "position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w", "d")
    assert out[0] == "Fen: l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1"


def test_setoption_and_errors(server: EngineServer) -> None:
    talk(server, "setoption name depth value 3")
    assert server.spec.params["depth"] == 3
    assert talk(server, "setoption name depth value 0")[0].startswith("info string error:")
    assert server.spec.params["depth"] == 3
    assert "no option" in talk(server, "setoption name speed value 9")[0]
    talk(server, "setoption name rules value datou")
    assert server.rules.spec == "datou"
    assert talk(server, "position startpos moves a3a9")[0].startswith("info string error:")
    assert talk(server, "frobnicate") == ["info string unknown command frobnicate"]
    assert talk(server, "stop") == []
    assert not server.handle("quit\n")


def test_a_finished_game_answers_0000(server: EngineServer) -> None:
    finished = "7/7/7/7/3L3/7/7/7/7 b 0 1"  # blue has no pieces: red has won
    assert talk(server, f"position fen {finished}", "go depth 1") == ["bestmove 0000"]


def test_go_limits_replace_the_bot_limits_for_one_search(server: EngineServer) -> None:
    talk(server, "position startpos")
    out = talk(server, "go nodes 50")
    assert out[-1].startswith("bestmove ")
    assert server.bot.depth == 2 and server.bot.node_budget == 0  # restored after the search


def test_go_infinite_answers_after_stop_and_isready_meanwhile(server: EngineServer) -> None:
    out = io.StringIO()
    server.out = out
    for line in ("position startpos moves a3a4", "go infinite"):
        assert server.handle(line + "\n")
    assert server.handle("isready\n")  # answered while the search goes on
    assert out.getvalue().splitlines()[-1] == "readyok"
    lines = out.getvalue().splitlines()
    while not any(x.startswith("info depth 3 ") for x in lines):  # deeper than depth=2
        assert server.searching
        server.idle.wait(0.01)
        lines = out.getvalue().splitlines()
    assert not any(x.startswith("bestmove") for x in lines)
    assert server.handle("stop\n")
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("bestmove ") and not server.searching
    pos = Position("standard")
    pos.play("a3a4")
    assert lines[-1].split()[1] in pos.legal_moves()
    assert server.bot.depth == 2  # the bot's own limits are back for the next search
    assert talk(server, "go")[-1].startswith("bestmove ")


def test_a_command_during_a_search_waits_for_its_answer(server: EngineServer) -> None:
    out = io.StringIO()
    server.out = out
    for line in ("position startpos", "go depth 4", "d"):
        assert server.handle(line + "\n")
    lines = out.getvalue().splitlines()
    assert lines[-3].startswith("bestmove ") and lines[-2].startswith("Fen: ")
    assert [x.split()[2] for x in lines if x.startswith("info depth")] == ["1", "2", "3", "4"]


def test_clock_share() -> None:
    assert clock_ms({"movetime": 80}, True) == 80
    assert clock_ms({"wtime": 30_000, "btime": 1000}, True) == 1000  # 1/30 of red's clock
    assert clock_ms({"wtime": 30_000, "btime": 9000, "binc": 400}, False) == 600
    assert clock_ms({"wtime": 10_000, "movestogo": 1}, True) == 7500  # never over 3/4
    assert clock_ms({"depth": 3}, True) is None


def test_engine_bots_are_not_served() -> None:
    with pytest.raises(DsqError, match="own bots"):
        EngineServer("engine:x")


def test_a_real_dsq_engine_answers_isready_mid_search_and_stops() -> None:
    """Over real pipes: while ``go infinite`` searches (the compiled search runs without
    the GIL), ``isready`` is answered; ``stop`` brings the answer; ``quit`` ends a search
    that would take hours, and the process with it."""
    argv = [sys.executable, "-m", "sim.cli", "engine", "--bot", "alphabeta", "--rules", "datou"]
    proc = EngineProcess(argv, cwd=str(ROOT), label="dsq")

    def until(prefix: str, wait: float = WAIT) -> list[str]:
        seen, deadline = [], time.monotonic() + wait
        while True:
            seen.append(proc.readline(deadline))
            if seen[-1].startswith(prefix):
                return seen

    try:
        proc.send("uci")
        until("uciok")
        proc.send("isready")
        until("readyok")
        proc.send("position startpos moves c3d3")
        proc.send("go infinite")
        until("info depth 4 ")
        proc.send("isready")
        assert not any(x.startswith("bestmove") for x in until("readyok"))
        proc.send("stop")
        best = until("bestmove ")[-1].split()[1]
        pos = Position("datou")
        pos.play("c3d3")
        assert best in pos.legal_moves()
        proc.send("go depth 60")  # hours at this depth
        until("info depth 3 ")
        proc.send("quit")
        assert until("bestmove ")[-1].split()[1] in pos.legal_moves()
        assert proc.proc.wait(timeout=WAIT) == 0
    finally:
        proc.close()
