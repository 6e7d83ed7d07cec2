"""Start ``dsq simulate`` as a detached process (the dashboard launches batches this way).

:func:`launch_detached` hands the batches to the process as data: it writes their specs
and how to run them to a launch file (JSON) and starts ``dsq simulate --spec-file FILE``,
which reads them back with :func:`read_launch_file`; no command line is rebuilt from a
spec. :func:`spawn_detached` starts ``dsq simulate`` with any arguments.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.batch.spec import BatchSpec, RunOptions, make_spec
from sim.storage.atomic import atomic_write_json
from sim.storage.paths import check_batch_id, project_root
from sim.storage.recordcheck import RecordError, check_spec

LAUNCH_FORMAT = "dsq-launch/1"
# What a launch file may set of RunOptions (the game function and engines are not data).
LAUNCH_OPTIONS = ("chunk_games", "chunk_seconds", "flush_games", "flush_seconds", "max_seconds")


@dataclass
class Launch:
    """New batches to play in a detached process: their specs, the group's ``batch_id``,
    the ``label``, the local ``workers`` and the :data:`LAUNCH_OPTIONS` of RunOptions."""

    specs: list[BatchSpec]
    batch_id: str
    label: str | None = None
    workers: int = 1
    options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The launch as written to its file."""
        return {
            "format": LAUNCH_FORMAT,
            "specs": [s.to_dict() for s in self.specs],
            "batch_id": self.batch_id,
            "label": self.label,
            "workers": self.workers,
            "options": self.options,
        }


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


def launch_detached(
    specs: Sequence[BatchSpec],
    data_dir: str | os.PathLike[str],
    *,
    batch_id: str,
    launch_file: str | os.PathLike[str],
    label: str | None = None,
    workers: int = 1,
    options: RunOptions | None = None,
    log_path: str | os.PathLike[str] | None = None,
) -> int:
    """Play ``specs`` as new batches of the group ``batch_id`` in ``data_dir``, in a
    detached ``dsq simulate``; return its pid.

    The specs and how to run them are written to ``launch_file`` (atomically, before the
    process starts), which the process reads; only :data:`LAUNCH_OPTIONS` of ``options``
    are passed on. ``log_path`` as in :func:`spawn_detached`.
    """
    opts = options or RunOptions()
    launch = Launch(
        specs=list(specs),
        batch_id=check_batch_id(batch_id),
        label=label,
        workers=workers,
        options={k: getattr(opts, k) for k in LAUNCH_OPTIONS},
    )
    atomic_write_json(Path(launch_file), launch.to_dict())
    argv = ["--spec-file", str(launch_file), "--data", str(data_dir), "--quiet"]
    return spawn_detached(argv, log_path=log_path)


def read_launch_file(path: str | os.PathLike[str]) -> Launch:
    """The launch a file written by :func:`launch_detached` holds; ``DsqError`` naming
    what is wrong (every spec is checked and canonicalised by ``make_spec``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise DsqError(f"launch file {path} is unreadable: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != LAUNCH_FORMAT:
        raise DsqError(f"launch file {path} is not a {LAUNCH_FORMAT} file")
    raw = data.get("specs")
    if not isinstance(raw, list) or not raw:
        raise DsqError(f"launch file {path}: specs: expected a list of batch specs")
    specs = []
    for d in raw:
        try:
            check_spec(d)
        except RecordError as exc:
            raise DsqError(f"launch file {path}: {exc}") from None
        specs.append(make_spec(**BatchSpec.from_dict(d).to_dict()))
    batch_id, label, workers = data.get("batch_id"), data.get("label"), data.get("workers", 1)
    if not isinstance(batch_id, str):
        raise DsqError(f"launch file {path}: batch_id: expected a batch id")
    if label is not None and not isinstance(label, str):
        raise DsqError(f"launch file {path}: label: expected text or null")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise DsqError(f"launch file {path}: workers: expected a whole number from 1")
    options = data.get("options") or {}
    known = {f.name: f for f in fields(RunOptions) if f.name in LAUNCH_OPTIONS}
    if not isinstance(options, dict) or any(
        k not in known or not _number(v, allow_none=k == "max_seconds") for k, v in options.items()
    ):
        raise DsqError(f"launch file {path}: options: expected {', '.join(LAUNCH_OPTIONS)}")
    return Launch(specs, check_batch_id(batch_id), label, workers, dict(options))


def _number(value: Any, allow_none: bool) -> bool:
    if value is None:
        return allow_none
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0
