"""Whether a batch may play an external engine: the rules it claims must be the batch's
and must pass the rules check.

Check results are kept in the data folder (``DIR/engines/checks/<name>-<key>.json``),
keyed on the registry entry, the program file's SHA-256 and the rules, so a quick check
runs once per engine build and rule set; ``dsq engines check`` writes the same files.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.external.registry import EngineEntry, EngineRegistry
from sim.storage.atomic import atomic_write_json
from sim.storage.paths import dsq_line, read_bounded, resolve_data_dir

QUICK: dict[str, Any] = {"games": 4, "plies": 120, "perft_depth": 3}

DataDir = str | os.PathLike[str] | None  # a data folder (None: the default one)


def checks_dir(data_dir: str | os.PathLike[str] | None) -> Path:
    """``DIR/engines/checks`` of a data folder."""

    return resolve_data_dir(data_dir) / "engines" / "checks"


def check_path(data_dir: DataDir, entry: EngineEntry, rules: str) -> Path:
    """Where the check of ``entry`` under ``rules`` is kept."""
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.client import file_sha256

    d = json.loads(entry.key_json())
    text = json.dumps([d, file_sha256(entry.program), rules], sort_keys=True)
    key = hashlib.sha1(text.encode()).hexdigest()[:16]
    return checks_dir(data_dir) / f"{entry.name}-{key}.json"


def save_check(data_dir: DataDir, entry: EngineEntry, report: dict[str, Any]) -> Path:
    """Keep a check report (``CheckReport.to_dict()``); returns its path."""

    path = check_path(data_dir, entry, report["rules"])
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, report)
    return path


def load_check(data_dir: DataDir, entry: EngineEntry, rules: str) -> dict[str, Any] | None:
    """The kept check of ``entry`` under ``rules``, or None."""
    try:
        text = read_bounded(check_path(data_dir, entry, rules)).decode("utf-8")
        return json.loads(text)
    except (OSError, ValueError, RecursionError):
        return None


def engine_names(bots: list[str]) -> list[str]:
    """The registry names of the engine bots among ``bots`` (specs)."""
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots import parse_bot

    specs = [parse_bot(b) for b in bots]
    return sorted({s.params["engine"] for s in specs if s.name == "engine"})


def admit(
    registry: EngineRegistry,
    bots: list[str],
    rules: list[str],
    data_dir: DataDir = None,
    force: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[str, ...]:
    """The ``registry``'s entries (JSON, for the chunks) of the engines among ``bots``, after
    checking each plays ``rules``: the rules it claims (when it claims some) must be the
    batch's, and they must pass the (kept or quick) rules check. DsqError otherwise.
    ``force`` skips both (no check runs); ``progress(engine, done, total)`` hears of a
    quick check's positions."""
    names = engine_names(bots)
    for name in [] if force else names:
        entry = registry.find(name)
        for spec in rules:
            if entry.rules is not None and entry.rules != spec:
                raise DsqError(
                    f"engine {name} plays {entry.rules}, not {spec} (its registry entry's "
                    "rules); --force-engines plays it anyway"
                )
            target = entry.rules or spec
            report = load_check(data_dir, entry, target) or _quick_check(
                data_dir, entry, target, progress
            )
            if not report["passed"]:
                found = (
                    "; ".join(f"{d['clause']}: {d['moves']} moves" for d in report["differences"])
                    or "perft differs"
                )
                named = [] if registry.path is None else ["--engines", str(registry.path)]
                check = dsq_line("engines", "check", name, "--rules", target, *named, data=data_dir)
                raise DsqError(
                    f"engine {name} fails the rules check under {target} ({found}); "
                    f"{check} shows the differences; --force-engines plays it anyway"
                )
    return registry.entries_json(names)


def _quick_check(
    data_dir: DataDir,
    entry: EngineEntry,
    rules: str,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    # lazy: start-up time (numba kernels)
    from sim.external.check import check_engine

    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.process import EngineFault

    heard = None if progress is None else (lambda done, total: progress(entry.name, done, total))
    try:
        report = check_engine(entry, rules, progress=heard, **QUICK).to_dict()
    except EngineFault as exc:
        raise DsqError(
            f"the rules check of engine {entry.name} under {rules} stopped: {exc}; "
            "--force-engines plays it without the check"
        ) from None
    try:
        save_check(data_dir, entry, report)
    except OSError:
        pass  # a read-only data folder: the check runs again next time
    return report
