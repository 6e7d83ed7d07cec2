"""``dsq dashboard`` exactly as the README runs it (no flags) serves on a fresh account:
Streamlit's first-run e-mail prompt must never hold the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

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
        wait_healthy(url, proc, timeout=60)
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert b"Email" not in out
