"""Run the real dashboard (``dsq dashboard``, i.e. ``streamlit run``) on 127.0.0.1 for
browser tests, and launch Debian's Chromium through Playwright (never a downloaded one)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.procs import WAIT

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = WAIT) -> None:
    """Wait until Streamlit answers its health check (or the process died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the dashboard exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("the dashboard did not start in time")


@contextmanager
def dashboard_server(
    data_dir: Path, log: Path, *args: str, host: str = "127.0.0.1", **env: str
) -> Iterator[str]:
    """``dsq dashboard --data DATA --port FREE --host HOST --no-browser ARGS`` running;
    yields its URL on 127.0.0.1 (tests never reach it by another address)."""
    port = free_port()
    environ = dict(os.environ, **env)
    environ["PYTHONPATH"] = str(ROOT) + os.pathsep + environ.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "sim.cli", "dashboard", "--data", str(data_dir),
           "--port", str(port), "--host", host, "--no-browser", *args]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=environ, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
