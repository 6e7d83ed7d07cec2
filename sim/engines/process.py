"""One engine subprocess: lines written to its stdin, lines read from its stdout with
deadlines, its stderr's tail kept for messages, and a fault for anything that goes wrong.

Reading uses ``select`` on the raw pipes (no thread per engine): a protocol round trip
costs a few system calls. The engine runs in its own session, so a Ctrl-C meant for dsq
does not reach it mid-game; it is closed by :meth:`EngineProcess.close` (``quit``, then a
kill), and in any case reads end of file on its stdin when dsq's process ends.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Sequence

from engine.errors import DsqError

MAX_LINE = 1 << 20  # a longer line is garbage
STDERR_TAIL = 2000  # characters of stderr kept for messages


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

    def __init__(self, argv: Sequence[str], cwd: str | None = None, label: str = "") -> None:
        self.label = label or os.path.basename(argv[0])
        try:
            self.proc = subprocess.Popen(
                list(argv),
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineFault(
                "handshake", f"engine {self.label} cannot start: {exc.strerror or exc}"
            ) from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        self._watch = [self._out, self._err]  # stderr leaves once it is closed
        self._buf = bytearray()
        self._tail = ""
        self._eof = False

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self.proc.pid

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.proc.poll() is None and not self._eof

    def send(self, line: str) -> None:
        """Write one line; a closed pipe is a ``crash`` fault."""
        data = (line + "\n").encode()
        try:
            while data:
                n = os.write(self._in, data)
                data = data[n:]
        except OSError:
            raise self.crashed() from None

    def readline(self, deadline: float | None) -> str:
        """The next line (without its end), waiting until ``deadline`` (``time.monotonic``
        seconds; None: for ever). Raises ``TimeoutError`` at the deadline and a ``crash``
        fault at end of file."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                raw = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                return raw.decode("utf-8", "replace").rstrip("\r")
            if len(self._buf) > MAX_LINE:
                raise EngineFault("garbage", f"engine {self.label} wrote a line over 1 MiB")
            if self._eof:
                raise self.crashed()
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select(self._watch, [], [], timeout)
            if not ready:
                raise TimeoutError
            if self._err in ready:
                self._read_stderr()
            if self._out in ready:
                chunk = os.read(self._out, 65536)
                if chunk:
                    self._buf += chunk
                else:
                    self._eof = True

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
        self._tail = (self._tail + chunk.decode("utf-8", "replace"))[-STDERR_TAIL:]
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
        """``quit``, wait up to ``grace`` seconds, then kill; never raises."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except EngineFault:
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def kill(self) -> None:
        """Kill the process at once and reap it."""
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
