"""One engine subprocess: lines written to its stdin, lines read from its stdout with
deadlines, its stderr's tail kept for messages, and a fault for anything that goes wrong.

Reading and writing use ``select`` on the raw pipes (no thread per engine): a protocol
round trip costs a few system calls. Every read and every write has a deadline (an engine
that stops reading its input is a ``no_answer`` fault, not a hang), a line is at most
:data:`MAX_LINE` bytes, and an engine whose process has exited is a ``crash`` even when a
child it left behind still holds its pipes open.

The engine runs in its own session (its own process group), so a Ctrl-C meant for dsq
does not reach it mid-game; :meth:`EngineProcess.close` sends ``quit``, then kills the
whole group and every process the engine started, even one that daemonized
(:mod:`sim.external.reaper`), so none outlives it. In any case it reads end
of file on its stdin when dsq's process ends.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence

from engine.errors import DsqError
from sim.external import reaper
from sim.external.enginelog import EngineLog

MAX_LINE = 1 << 20  # a longer line is garbage
STDERR_TAIL = 2000  # characters of stderr kept for messages
WRITE_TIMEOUT = 10.0  # seconds an engine may leave a command unread
POLL = 0.25  # seconds between checks that a silent engine's process still runs


class EngineFault(DsqError):
    """An engine misbehaved. ``kind`` is one of ``handshake``, ``crash``, ``no_answer``,
    ``garbage``, ``null_move``, ``illegal``; the message says what happened."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind

    @property
    def note(self) -> str:
        """The forfeit note of a game this fault lost: ``kind: message`` (the
        ``forfeit_note`` column)."""
        return f"{self.kind}: {self}"


class EngineProcess:
    """A started engine process (``argv`` run in ``cwd``)."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | None = None,
        label: str = "",
        log_dir: str | None = None,
    ) -> None:
        self.label = label or os.path.basename(argv[0])
        self.log: EngineLog | None = None
        self.token = reaper.new_token()
        with reaper.starting():  # a stop signal meanwhile ends this engine too
            reaper.adopt_orphans()
            try:
                self.proc = subprocess.Popen(
                    list(argv),
                    cwd=cwd,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    bufsize=0,
                    start_new_session=True,
                    env=reaper.engine_env(self.token),
                )
            except (OSError, ValueError) as exc:  # ValueError: a NUL in the command line
                raise EngineFault(
                    "handshake",
                    f"engine {self.label} cannot start {str(argv[0])[:300]!r}"
                    f"{f' in {cwd}' if cwd else ''}: {getattr(exc, 'strerror', None) or exc}",
                ) from None
            reaper.started(self.proc.pid, self.token)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        os.set_blocking(self._in, False)
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        self._watch = [self._out, self._err]  # stderr leaves once it is closed
        self._buf = bytearray()
        self._tail = ""
        self._eof = False
        if log_dir is not None:
            self.log = EngineLog(log_dir, self.label, self.proc.pid)

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self.proc.pid

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.proc.poll() is None and not self._eof

    def send(self, line: str, timeout: float = WRITE_TIMEOUT) -> None:
        """Write one line within ``timeout`` seconds: a closed pipe is a ``crash`` fault, an
        engine that leaves it unread a ``no_answer`` fault. Its output is read meanwhile
        (up to :data:`MAX_LINE` bytes), so an engine that writes as it reads cannot block."""
        if self.log is not None:
            self.log.write(">", line)
        data = memoryview((line + "\n").encode())
        deadline = time.monotonic() + timeout
        while data:
            try:
                n = os.write(self._in, data)
                data = data[n:]
                continue
            except BlockingIOError:
                pass
            except OSError:
                raise self.crashed() from None
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                if self.proc.poll() is not None:
                    raise self.crashed()
                raise EngineFault(
                    "no_answer",
                    f"engine {self.label} did not read its input for {timeout:g} s",
                )
            watch = [w for w in self._watch if w != self._out or len(self._buf) <= MAX_LINE]
            readable, _, _ = select.select(watch, [self._in], [], min(left, POLL))
            if self._err in readable:
                self._read_stderr()
            if self._out in readable:
                self._read_out()

    def _read_out(self) -> None:
        chunk = os.read(self._out, 65536)
        if chunk:
            self._buf += chunk
        else:
            self._eof = True

    def readline(self, deadline: float | None) -> str:
        """The next line (without its end), waiting until ``deadline`` (``time.monotonic``
        seconds; None: for ever). Raises ``TimeoutError`` at the deadline and a ``crash``
        fault at end of file."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                raw = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                text = raw.decode("utf-8", "replace").rstrip("\r")
                if self.log is not None:
                    self.log.write("<", text)
                return text
            if len(self._buf) > MAX_LINE:
                raise EngineFault("garbage", f"engine {self.label} wrote a line over 1 MiB")
            if self._eof:
                raise self.crashed()
            left = POLL if deadline is None else deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select(self._watch, [], [], min(left, POLL))
            if not ready:
                if self.proc.poll() is not None:  # exited; a child may hold the pipe open
                    self._eof = True
                continue
            if self._err in ready:
                self._read_stderr()
            if self._out in ready:
                self._read_out()

    def _read_stderr(self) -> bool:
        """Keep what stderr has to say; False once it is closed (then it is not watched)."""
        if self._err not in self._watch:
            return False
        try:
            chunk = os.read(self._err, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            self._watch.remove(self._err)
            return False
        text = chunk.decode("utf-8", "replace")
        self._tail = (self._tail + text)[-STDERR_TAIL:]
        if self.log is not None:
            for part in text.splitlines():
                self.log.write("!", part)
        return True

    def crashed(self) -> EngineFault:
        """The ``crash`` fault of an engine whose output ended (with its exit code)."""
        try:
            code = self.proc.wait(timeout=0.5)
            how = f"exit code {code}" if code >= 0 else f"killed by signal {-code}"
        except subprocess.TimeoutExpired:
            how = "output closed"
        self._drain_stderr()
        last = self._tail.strip().splitlines()[-1:] if self._tail.strip() else []
        said = f": {last[0][:200]}" if last else ""
        return EngineFault("crash", f"engine {self.label} crashed ({how}){said}")

    def _drain_stderr(self) -> None:
        while self._err in self._watch and select.select([self._err], [], [], 0.05)[0]:
            if not self._read_stderr():
                return

    def close(self, grace: float = 0.5) -> None:
        """``quit``, wait up to ``grace`` seconds, then kill; the engine's process group
        is killed in any case (what it started goes with it); never raises."""
        if self.proc.poll() is None:
            try:
                self.send("quit", timeout=grace)
            except EngineFault:
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        if self.log is not None:
            self.log.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def kill(self) -> None:
        """Kill the process, its process group and every process it started (even one
        that left the group, see :mod:`sim.external.reaper`) at once, and reap it."""
        pid = self.proc.pid
        below: set[int] = set()
        if self.proc.poll() is None:  # what it started, while they are still below it
            below = reaper.freeze(pid)
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:  # the group is gone already
            pass
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        last = reaper.stopped(pid)
        reaper.end_descendants(pid, self.token, everything=last, also=below)
