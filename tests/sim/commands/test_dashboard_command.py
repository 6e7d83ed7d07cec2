"""``dsq dashboard`` exactly as the README runs it (no flags) serves on a fresh account:
Streamlit's first-run e-mail prompt must never hold the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.procs import WAIT, alive, children, wait_for
from tests.support.server import ROOT, free_port, wait_healthy


def test_dashboard_serves_without_flags_on_a_fresh_home(tmp_path: Path, fixture_data: Path) -> None:
    home = tmp_path / "home"  # no ~/.streamlit/credentials.toml: a first run
    home.mkdir()
    port = free_port()
    env = dict(os.environ, HOME=str(home), DSQ_DATA=str(fixture_data))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    # stdin is a pipe nobody writes to, like a terminal nobody types in.
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "dashboard", "--port", str(port)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, proc)
        with urllib.request.urlopen(url, timeout=WAIT) as page:
            assert page.status == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        out, _ = proc.communicate(timeout=WAIT)
    assert b"Email" not in out


# SIGINT and SIGHUP are forwarded by the same handler as SIGTERM.
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_signal_to_dsq_dashboard_stops_the_server(
    signum: int, tmp_path: Path, fixture_data: Path
) -> None:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "dashboard", "--data", str(fixture_data),
         "--port", str(port), "--no-browser"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, proc)
        [server] = children(proc.pid)
        os.kill(proc.pid, signum)  # dsq's pid only, as `kill -TERM PID` does
        if signum == signal.SIGKILL:  # no chance to forward: the kernel tells the server
            assert proc.wait(timeout=WAIT) == -signal.SIGKILL
            wait_for(lambda: not alive(server), "the server to stop")
        else:
            assert proc.wait(timeout=WAIT) == 0
            assert not alive(server)  # waited for: the server stopped before dsq did
        with pytest.raises(OSError):
            urllib.request.urlopen(url + "/_stcore/health", timeout=5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
