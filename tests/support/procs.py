"""Real processes for the adversarial tests: ``dsq`` as a subprocess (optionally under a
resource limit), the children of a process, whether a process is alive, and an
in-process ``dsq`` call that reports a traceback instead of hiding it."""

from __future__ import annotations

import contextlib
import io
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.support import ROOT

WAIT = 600.0  # generous deadline for an event (only reached on failure; never a speed check)

AWAIT_RELEASE = 'print("ready", flush=True); sys.stdin.readline()'
"""Python lines for a script started by :func:`release_together`: say it is ready (its
imports done), then wait for the release (needs ``import sys``)."""


def env() -> dict[str, str]:
    """The environment of a ``dsq`` subprocess: this worktree's code first."""
    return dict(os.environ, PYTHONPATH=str(ROOT))


def limit(kind: str, value: int) -> Callable[[], None]:
    """A ``preexec_fn`` setting one resource limit: ``fsize`` (bytes a file may grow to;
    SIGXFSZ ignored, so a write past it fails with EFBIG: a portable stand-in for a full
    disk) or ``as`` (bytes of address space: allocations past it fail)."""

    def apply() -> None:
        if kind == "fsize":
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (value, value))
        else:
            resource.setrlimit(resource.RLIMIT_AS, (value, value))

    return apply


def dsq(
    *args: str, stdin: str | None = None, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m sim.cli ARGS`` and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=preexec,
    )


def popen_dsq(*args: str) -> subprocess.Popen[str]:
    """Start ``python -m sim.cli ARGS`` in the background (output captured)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def one_line_error(res: subprocess.CompletedProcess[str], command: str) -> str:
    """Assert ``res`` exited 2 with one ``dsq COMMAND: error:`` line (or ``dsq COMMAND
    SUBCOMMAND: error:``) and no traceback; return that line."""
    assert "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2, (res.returncode, res.stderr)
    head = re.compile(rf"dsq {re.escape(command)}( [a-z]+)?: error:")
    assert len(lines) == 1 and head.match(lines[0]), res.stderr
    return lines[0]


def in_process(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``sim.cli.main(argv)`` in this process: (exit code, stdout, stderr). Any exception
    other than the parser's ``SystemExit`` propagates (it would be a traceback)."""
    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def dsq_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """:func:`in_process` as a finished process's result (what :func:`dsq` returns), for
    tests whose point is not the process boundary: no interpreter start-up per call."""
    code, out, err = in_process(list(args), stdin)
    return subprocess.CompletedProcess(["dsq", *args], code, out, err)


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(d.name))
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def release_together(procs: list[subprocess.Popen[str]]) -> None:
    """Once every process (started with stdin and stdout pipes, running
    :data:`AWAIT_RELEASE`) says it is ready, release them all at once: none is held back
    by a slow start (a loaded machine), none spins while it waits."""
    got = [p.stdout.readline().strip() for p in procs]  # type: ignore[union-attr]
    assert got == ["ready"] * len(procs), got
    for p in procs:
        p.stdin.write("go\n")  # type: ignore[union-attr]
    for p in procs:
        p.stdin.flush()  # type: ignore[union-attr]


def wait_for(pred: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Poll ``pred`` until true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def dsq_peak(
    *args: str, address_space: int = 3 << 30, timeout: float = 300.0
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``python -m sim.cli ARGS`` under an address-space limit (never the machine's
    whole memory); its result and its peak resident memory in MiB (from ``wait4``)."""
    import tempfile

    with (
        tempfile.TemporaryFile("w+") as out,
        tempfile.TemporaryFile("w+") as err,
        tempfile.TemporaryDirectory() as tmp,
    ):
        peak = os.path.join(tmp, "peak")
        cmd = [sys.executable, "-m", "sim.cli", *args]
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.peak", str(address_space), peak, "--", *cmd],
            cwd=ROOT,
            env=env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            text=True,
            start_new_session=True,
        )
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise AssertionError(
                f"dsq {' '.join(args)[:200]} did not end within {timeout:g} s"
            ) from None
        out.seek(0)
        err.seek(0)
        res = subprocess.CompletedProcess(cmd, proc.returncode, out.read(), err.read())
        with open(peak, encoding="utf-8") as fh:
            rss = int(fh.read())
    return res, rss / 1024
