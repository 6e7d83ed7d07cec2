"""Hostile engines (tests/support/bad_engine.py) against the real CLI: no hang, no runaway
memory, no process left behind, no command injected through the registry.

Every ``dsq`` runs as a subprocess under an address-space limit; the tests print the peak
memory of ``dsq simulate`` against each flooding engine (``pytest -s`` shows it)."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sim.external import pool
from sim.external.registry import EngineRegistry
from sim.play.referee import play_game
from tests.support import ROOT
from tests.support.engines import bad_engine, processes_with, write_registry
from tests.support.procs import WAIT, dsq_peak, env, one_line_error, popen_dsq, wait_for

BIG = "x" * 100_000  # an option value longer than a pipe's buffer
MOVE = ["move", "--rules", "standard"]


def tag() -> str:
    return f"dsq-test-{secrets.token_hex(6)}"


def left_behind(marker: str) -> list[int]:
    """The processes an engine tagged ``marker`` left running (killed ones may take a
    moment to be reaped by init)."""
    try:
        wait_for(lambda: not processes_with(marker), "the engine's processes to end", 10)
    except AssertionError:
        pass
    return processes_with(marker)


def simulate(registry: Path, data: Path, red: str) -> list[str]:
    return ["simulate", "--engines", str(registry), "--data", str(data), "--red", red,
            "--blue", "random", "--games", "2", "--seed", "1"]  # fmt: skip


def test_an_engine_that_stops_reading_cannot_hang_a_write(tmp_path: Path) -> None:
    marker = tag()
    reg = write_registry(
        tmp_path / "engines.toml",
        bad_engine("deaf", "deaf", tag=marker, timeout=2, options=f'Big = "{BIG}"'),
        bad_engine("deaf2", "deaf", tag=marker, timeout=2),
    )
    res, _ = dsq_peak(*MOVE, "--engines", str(reg), "--bot", "engine:deaf,movetime=100")
    assert res.returncode != 0 and "did not read its input" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr
    # the same through a bot spec's option
    spec = f"engine:deaf2,movetime=100,Big={BIG}"
    res, _ = dsq_peak(*MOVE, "--engines", str(reg), "--bot", spec)
    assert res.returncode != 0 and "did not read its input" in res.stderr, res.stderr
    # and in the rules check before a batch
    res, peak = dsq_peak(*simulate(reg, tmp_path / "data", "engine:deaf,movetime=100"))
    assert res.returncode != 0 and "did not read its input" in res.stderr, res.stderr
    assert left_behind(marker) == []


@pytest.mark.parametrize("fault", ["flood_perft", "flood_options"])
def test_a_flooding_engine_costs_bounded_memory(tmp_path: Path, fault: str) -> None:
    marker = tag()
    reg = write_registry(tmp_path / "engines.toml", bad_engine("flood", fault, tag=marker))
    res, peak = dsq_peak(*simulate(reg, tmp_path / "data", "engine:flood,movetime=100"))
    print(f"\ndsq simulate against {fault}: exit {res.returncode}, peak RSS {peak:.0f} MiB")
    assert res.returncode != 0 and "Traceback" not in res.stderr, res.stderr
    assert "more than 10,000 lines or 4 MiB" in res.stderr, res.stderr
    assert peak < 1024  # MiB; it reached gigabytes when answers were unbounded
    assert left_behind(marker) == []


def test_what_an_engine_starts_ends_with_it(tmp_path: Path) -> None:
    marker = tag()
    reg = write_registry(tmp_path / "engines.toml", bad_engine("forks", "fork", tag=marker))
    res, _ = dsq_peak(*MOVE, "--engines", str(reg), "--bot", "engine:forks,movetime=2000")
    assert res.returncode == 0, res.stderr
    assert left_behind(marker) == []
    res, _ = dsq_peak(*simulate(reg, tmp_path / "data", "engine:forks,movetime=2000"))
    assert res.returncode == 0, res.stderr
    assert left_behind(marker) == []


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("fault", ["setsid", "daemon"])
def test_an_engine_that_daemonizes_a_child_leaves_nothing(
    tmp_path: Path, fault: str, workers: int
) -> None:
    """A child in a session of its own, or a daemon (double fork, empty environment)
    leaves the engine's process group: the process that started the engine adopts it
    (child subreaper) and ends it with the engine."""
    marker = tag()
    reg = write_registry(tmp_path / "engines.toml", bad_engine("d", fault, tag=marker))
    args = simulate(reg, tmp_path / "data", "engine:d,movetime=100")
    args[args.index("--games") + 1] = "4"
    res, _ = dsq_peak(*args, "--workers", str(workers))
    assert res.returncode == 0, res.stderr
    left = left_behind(marker)
    orphans = [pid for pid in left if parent_of(pid) == 1]
    print(f"\n{fault} on {workers} worker(s): {len(left)} left, {len(orphans)} with parent 1")
    for pid in left:  # a failing run cleans up after itself
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert left == []


@pytest.mark.parametrize(("fault", "signum"), [("daemon", "SIGTERM"), ("setsid", "SIGHUP")])
def test_a_dsq_stopped_by_a_signal_ends_what_its_engine_started(
    tmp_path: Path, fault: str, signum: str
) -> None:
    """``dsq play`` against an engine that daemonized a child, waiting for the person's
    move, stopped by SIGTERM (or SIGHUP: its terminal closed): it still dies of that signal,
    and takes the engine and the daemon with it."""
    marker = tag()
    reg = write_registry(tmp_path / "engines.toml", bad_engine("d", fault, tag=marker))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "play", "--engines", str(reg), "--red",
         "engine:d,movetime=100", "--blue", "human", "--quiet"],
        cwd=ROOT, env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: len(processes_with(marker)) == 2 or proc.poll() is not None,
                 "the engine and its daemon")  # fmt: skip
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(getattr(signal, signum))
        proc.communicate(timeout=WAIT)
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    left = left_behind(marker)
    for pid in left:  # a failing run cleans up after itself
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == -getattr(signal, signum)
    assert left == []


STOPPED_WHILE_STARTING = """
import os, signal, sys
from sim.external import reaper
from sim.external.process import EngineProcess

note = reaper.started


def noted_after_a_stop_signal(pid, token=None):
    os.kill(os.getpid(), signal.SIGTERM)  # the engine runs, and is not noted yet
    note(pid, token)


reaper.started = noted_after_a_stop_signal
engine = EngineProcess([sys.executable, "-m", "tests.support.bad_engine", "daemon",
                        "--tag", sys.argv[1]])
print("not stopped", flush=True)
"""


def test_a_stop_signal_while_an_engine_starts_ends_that_engine_too(tmp_path: Path) -> None:
    """SIGTERM delivered after an engine process is started and before it is noted as one
    (as when a pool worker's driver dies at that moment): the process still dies of it, and
    the engine and the daemon it goes on to start are ended, not left to init."""
    marker = tag()
    res = subprocess.run([sys.executable, "-c", STOPPED_WHILE_STARTING, marker], cwd=ROOT,
                         env=env(), capture_output=True, text=True, timeout=WAIT)  # fmt: skip
    left = left_behind(marker)
    for pid in left:  # a failing run cleans up after itself
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert res.returncode == -signal.SIGTERM, res.stdout + res.stderr
    assert left == []


def test_a_driver_killed_leaves_no_daemon_of_its_workers_engines(tmp_path: Path) -> None:
    """``kill -9`` of ``dsq simulate`` on two workers, each playing an engine that daemonized
    a child: the workers end their engines and the daemons before they die with it."""
    marker = tag()
    reg = write_registry(tmp_path / "engines.toml", bad_engine("d", "daemon", tag=marker))
    args = simulate(reg, tmp_path / "data", "engine:d,movetime=100")
    args[args.index("--games") + 1] = "400"
    proc = popen_dsq(*args, "--workers", "2")

    def in_the_workers() -> bool:  # two engines and two daemons, none the driver's own
        found = processes_with(marker)
        return len(found) == 4 and all(parent_of(p) not in (proc.pid, 1) for p in found)

    try:
        wait_for(lambda: in_the_workers() or proc.poll() is not None, "the workers' engines")
        assert proc.poll() is None, proc.communicate()
    finally:
        proc.kill()
        proc.communicate(timeout=WAIT)
    left = left_behind(marker)
    for pid in left:  # a failing run cleans up after itself
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert left == []


def test_a_handshake_that_never_ends_leaves_no_engine(tmp_path: Path) -> None:
    marker = tag()
    reg = write_registry(tmp_path / "engines.toml", bad_engine("mute", "mute", tag=marker))
    for args in (
        ["engines", "show", "mute", "--engines", str(reg)],
        ["engines", "check", "mute", "--engines", str(reg), "--games", "1"],
        simulate(reg, tmp_path / "data", "engine:mute,movetime=100"),
    ):
        res, _ = dsq_peak(*args)
        assert res.returncode != 0 and "handshake" in res.stderr, res.stderr
        assert left_behind(marker) == [], args


def test_an_engine_that_exits_while_its_child_holds_the_pipes_crashed(tmp_path: Path) -> None:
    marker = tag()
    path = write_registry(tmp_path / "e.toml", bad_engine("orphan", "orphan", tag=marker))
    engines = EngineRegistry.load(path)
    try:
        game = play_game("standard", "random", "engine:orphan,movetime=5000", 1, engines=engines)
    finally:
        pool.close_all()
    assert (game["winner"], game["reason"]) == ("red", "forfeit")
    assert game["forfeit_note"].startswith("crash"), game["forfeit_note"]
    assert left_behind(marker) == []


@pytest.mark.parametrize(
    "table",
    [
        'command = ["/bin/e\\u0000cho"]',
        'command = ["/bin/echo"]\nargs = ["a\\u0000b"]',
        'command = ["/bin/echo"]\ncwd = "/tm\\u0000p"',
        'command = ["/bin/echo"]\n[engines.x.options]\nX = "1\\nquit"',
        'command = ["/bin/echo"]\n[engines.x.options]\n"A\\rB" = 1',
    ],
    ids=["nul-command", "nul-args", "nul-cwd", "newline-value", "cr-name"],
)
def test_a_registry_cannot_smuggle_a_nul_or_a_command(tmp_path: Path, table: str) -> None:
    reg = tmp_path / "engines.toml"
    reg.write_text(f"[engines.x]\n{table}\n", encoding="utf-8")
    for args, command in (
        ([*MOVE, "--engines", str(reg), "--bot", "engine:x"], "move"),
        (["engines", "show", "x", "--engines", str(reg)], "engines"),
        (simulate(reg, tmp_path / "data", "engine:x"), "simulate"),
    ):
        res, _ = dsq_peak(*args)
        line = one_line_error(res, command)
        assert "NUL" in line or "line break" in line, line
