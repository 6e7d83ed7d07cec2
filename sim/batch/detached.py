"""Start ``dsq simulate`` as a detached process (the dashboard launches batches this way)."""

from __future__ import annotations

import os
import subprocess
import sys

from sim.storage.paths import project_root


def spawn_detached(
    argv: list[str], log_path: str | os.PathLike[str] | None = None, cwd: str | None = None
) -> int:
    """Start ``dsq simulate ARGV...`` as a detached process (own session, no stdin); return
    its pid.

    Output goes to ``log_path`` (appended) or is discarded; the process runs in ``cwd``
    (default: the project folder) with the project first on ``PYTHONPATH``. The batch
    writes its status to its record; pass ``--batch-id`` to know where to look.
    """
    cmd = [sys.executable, "-m", "sim.cli", "simulate", *argv]
    env = dict(os.environ)
    root = str(project_root())
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT if log_path else subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd=cwd or root,
            env=env,
        )
    finally:
        if log_path:
            out.close()  # type: ignore[union-attr]
    return proc.pid
