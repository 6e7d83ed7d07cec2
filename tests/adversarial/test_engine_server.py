"""``dsq engine`` against a hostile client, as a real subprocess over pipes (its address
space limited to 1.5 GB): a huge line is skipped, not held; numbers above range clamp, below
range or garbage are refused in one line, as are bad positions (whole); ``perft`` and deep
searches never block ``isready``/``stop``/``quit``; end of input ends any search; a closed
output ends the server quietly."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
from collections.abc import Callable

import pytest

from engine.errors import DsqError
from sim.serve.server import EngineServer
from sim.serve.serverinput import LineReader, LineTooLong, go_args, parse_count
from tests.support import ROOT
from tests.support.procs import WAIT, env, limit

ADDRESS_SPACE = 1_500_000_000


class Engine:
    """``dsq engine --bot alphabeta:depth=2`` with its output read line by line."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sim.cli", "engine", "--bot", "alphabeta:depth=2"],
            cwd=ROOT,
            env=env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=limit("as", ADDRESS_SPACE),
        )
        self.buffer = b""
        self.send("isready")
        self.expect(lambda line: line == "readyok")

    def _line(self) -> str:
        """The next line of output (fails at end of output, or after ``WAIT`` seconds)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], WAIT)
            assert ready, f"no line within {WAIT} s"
            data = os.read(fd, 65536)
            assert data, "the engine ended its output"
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
        self.proc.stdin.flush()

    def expect(self, pred: Callable[[str], bool]) -> list[str]:
        """The lines read up to and including the first one ``pred`` accepts."""
        seen: list[str] = []
        while True:
            line = self._line()
            seen.append(line)
            if pred(line):
                return seen

    def close(self) -> tuple[int, str]:
        """End of input; the exit code and standard error once the engine is gone."""
        assert self.proc.stdin is not None and self.proc.stderr is not None
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        code = self.proc.wait(timeout=WAIT)
        return code, self.proc.stderr.read().decode()


@pytest.fixture
def engine() -> Engine:
    eng = Engine()
    yield eng
    if eng.proc.poll() is None:
        eng.proc.kill()
        eng.proc.wait()


def bestmove(line: str) -> bool:
    return line.startswith("bestmove ")


def test_a_100_mb_position_line_is_skipped_without_holding_it(engine: Engine) -> None:
    assert engine.proc.stdin is not None
    chunk = b" a3a4 a7a6 a4a3 a6a7" * 50_000  # 1 MB
    engine.proc.stdin.write(b"position startpos moves")
    for _ in range(100):
        engine.proc.stdin.write(chunk)
    engine.send("", "isready")
    seen = engine.expect(lambda line: line == "readyok")
    assert seen[0].startswith("info string error: a line of 100000024 bytes ignored")
    engine.send("position startpos moves a3a4", "go depth 1")
    assert engine.expect(bestmove)[-1] != "bestmove 0000"
    assert engine.close() == (0, "")


def test_perft_beyond_the_cap_is_refused_in_one_line(engine: Engine) -> None:
    engine.send("perft 99999999999999999999", "perft -3")
    seen = engine.expect(lambda line: line.startswith("perft("))
    refusal = "info string error: perft takes a depth from 0 to 32, not '99999999999999999999'"
    assert seen[0] == refusal
    assert seen[1].startswith("perft(0) = 1 ")  # negative numbers clamp to 0
    engine.send("isready")
    assert engine.expect(lambda line: line == "readyok") == ["readyok"]
    assert engine.close() == (0, "")


def test_a_long_perft_leaves_stop_isready_and_quit_answered(engine: Engine) -> None:
    engine.send("perft 12", "isready", "stop")  # readyok follows perft's answer
    seen = engine.expect(lambda line: line == "readyok")
    assert seen[0].startswith("info string perft(12) stopped after ") and len(seen) == 2
    engine.send("perft 2", "isready")
    assert engine.expect(lambda line: line == "readyok")[0].startswith("perft(2) = 576 ")
    engine.send("perft 32", "quit")
    assert engine.close() == (0, "")


def test_a_huge_depth_ends_at_end_of_input(engine: Engine) -> None:
    engine.send("position startpos", "go depth 2000000000")
    engine.expect(lambda line: line.startswith("info depth 1 "))
    assert engine.proc.stdin is not None
    engine.proc.stdin.close()  # the search is stopped after its grace period, and answers
    assert engine.expect(bestmove)[-1] != "bestmove 0000"
    assert engine.close() == (0, "")


HUGE_LIMITS = [
    "nodes 18446744073709551616",
    "movetime 18446744073709551616",
    "wtime 99999999999999999999999 btime 99999999999999999999999",
]


def test_limits_above_2_63_clamp_to_the_largest(engine: Engine) -> None:
    """Each in turn, in one server: it searches (not refused), stops, and answers."""
    for limits in HUGE_LIMITS:
        engine.send("position startpos", f"go {limits}")
        engine.expect(lambda line: line.startswith("info depth 2 "))  # searching, not refused
        engine.send("stop")
        seen = engine.expect(bestmove)
        assert seen[-1] != "bestmove 0000" and not any("error" in line for line in seen), limits
        engine.send("go movetime 1")  # the shortest search
        assert engine.expect(bestmove)[-1] != "bestmove 0000", limits
    assert engine.close() == (0, "")


BAD_LIMITS = [
    ("depth 0", "go depth 0: depth is at least 1"),
    ("movetime -5", "go movetime -5: movetime is at least 1"),
    ("nodes 0", "go nodes 0: nodes is at least 1"),
    ("wtime -1 btime 1000", "go wtime -1: wtime is at least 0"),
    ("depth x", "go depth takes a whole number, not 'x'"),
    ("movetime", "go movetime takes a whole number, not ''"),
    ("ponder wtime 1000 btime 1000", "go ponder: pondering is not supported"),
]


def test_bad_go_limits_are_refused_with_an_info_string(engine: Engine) -> None:
    """Each in turn, in one server: refused with an info string and bestmove 0000, and
    the position is kept for the next good go."""
    for limits, why in BAD_LIMITS:
        engine.send("position startpos", f"go {limits}")
        seen = engine.expect(bestmove)
        assert seen[-1] == "bestmove 0000" and len(seen) == 2, limits
        assert seen[0].startswith(f"info string error: {why}"), seen
        engine.send("go depth 1")  # the position is still there
        assert engine.expect(bestmove)[-1] != "bestmove 0000", limits
    assert engine.close() == (0, "")


def test_a_bad_position_is_refused_whole_until_the_next_good_one(engine: Engine) -> None:
    engine.send("position startpos moves a3a4 a7a6", "go depth 1")
    assert engine.expect(bestmove)[-1] != "bestmove 0000"
    # the fifth move is illegal: none of the command is applied, the old position is gone
    engine.send("position startpos moves a3a4 a7a6 a4a5 a6a5 a1a9", "moves", "go depth 1")
    seen = engine.expect(bestmove)
    assert seen[0].startswith("info string error: position refused: move 5 of the command (a1a9)")
    assert seen[1].startswith("info string error: no position: move 5 of the command")
    assert seen[2:] == [seen[1], "bestmove 0000"]
    engine.send("position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 r 0 1", "go depth 1")
    seen = engine.expect(bestmove)
    assert seen[0].startswith("info string error: position refused: ")
    assert seen[-2].startswith("info string error: no position: ") and seen[-1] == "bestmove 0000"
    engine.send("position startpos moves a3a4", "moves")
    assert engine.expect(lambda line: line.startswith("Legal moves"))[0].startswith("Legal moves")
    engine.send("go depth 1")
    assert engine.expect(bestmove)[-1] != "bestmove 0000"
    assert engine.close() == (0, "")


def test_unknown_commands_are_ignored_at_once_even_while_searching(engine: Engine) -> None:
    engine.send("position startpos", "go infinite")
    engine.expect(lambda line: line.startswith("info depth 1 "))
    engine.send("ponderhit", "frobnicate now", "isready")  # answered while the search runs
    seen = engine.expect(lambda line: line == "readyok")
    unknown = [line for line in seen if line.startswith("info string unknown command")]
    assert unknown == [
        "info string unknown command ponderhit",
        "info string unknown command frobnicate",
    ]
    engine.send("stop")
    assert engine.expect(bestmove)[-1] != "bestmove 0000"
    engine.send("uci")
    assert not any("onder" in line for line in engine.expect(lambda line: line == "uciok"))
    assert engine.close() == (0, "")


def test_a_closed_output_ends_the_search_and_the_server_quietly(engine: Engine) -> None:
    assert engine.proc.stdout is not None and engine.proc.stderr is not None
    engine.send("position startpos", "go infinite")
    engine.expect(lambda line: line.startswith("info depth 1 "))
    engine.proc.stdout.close()  # the next line the engine writes fails
    engine.send("stop")  # its bestmove goes to a closed pipe
    code = engine.proc.wait(timeout=WAIT)  # stdin still open: the server ends on its own
    assert engine.proc.stderr.read().decode() == ""
    assert code in (0, -13)  # SIGPIPE: the Unix way to end on a closed output


def test_the_line_reader_and_number_parsing() -> None:
    reader = LineReader(io.BytesIO(b"x" * 10 + b"\nok\n\xff\n"), limit=4)
    with pytest.raises(LineTooLong) as exc:
        reader.readline()
    assert exc.value.size == 11
    assert [reader.readline(), reader.readline(), reader.readline()] == ["ok\n", "\ufffd\n", ""]
    assert [parse_count(w, 100) for w in ("7", "-7", "+7", "0099", "9" * 5000, "1e3", "", "²")] == [
        7,
        0,
        7,
        99,
        100,
        None,
        None,
        None,
    ]
    assert go_args(["depth", "2000000000", "nodes", "9" * 30, "infinite"]) == {
        "depth": 60,
        "nodes": 2**63 - 1,
    }
    for bad in (["nodes", "-1"], ["movetime", "x"], ["depth", "0"], ["movestogo", "0"]):
        with pytest.raises(DsqError):
            go_args(bad)


def test_a_closed_output_in_process_stops_the_search_and_the_loop() -> None:
    server = EngineServer("alphabeta:depth=2", out=io.StringIO())
    server.out.close()  # every write now fails
    lines = "position startpos\ngo infinite\nisready\ngo infinite\n" + "isready\n" * 1000
    assert server.serve(io.StringIO(lines)) == 0
    assert server.closed.is_set() and not server.searching
