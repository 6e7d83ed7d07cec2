"""What a game of a batch spec costs in CPU seconds, for ``dsq study plan``.

A cost comes from the first of: the games of finished batches of the same spec in the data
folder (their recorded time per game), a short calibration (a few games played here, timed
by the CPU time of the process that plays them, cached in ``DATA/studies/costs/costs.json``),
or the bots' rough per-move costs (:mod:`sim.bots.registry`). Specs are the same when they
differ only by seed and number of games (:func:`cost_key`).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import platform
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

import engine
from engine.errors import DsqError
from sim.batch.lifeline import follow_parent
from sim.core.batchspec import BatchSpec
from sim.storage.atomic import atomic_write_json
from sim.storage.paths import games_dir, read_bounded
from sim.storage.records import hostname, list_batches, now_iso

COSTS_FILE = Path("studies") / "costs" / "costs.json"
MIN_CPU_SECONDS = 0.2  # a calibration plays on until its games took this much CPU time
MAX_CALIBRATION_GAMES = 100_000  # (fast bots: thousands of games in that time)
MAX_BATCHES = 8  # the most finished batches read for one spec (the newest)
TYPICAL_PLIES = 300  # the rough model's plies in a game, when the ply cap allows as many
ANY_GAMES = 2**31 - 1  # a calibration's spec takes any game index


@dataclass(frozen=True)
class Cost:
    """CPU ``seconds`` per game and where they come from: ``source`` is ``batches``,
    ``measured`` (a calibration) or ``rough``; ``games`` were timed (their ``outcomes``:
    red, draw, blue) on ``cpu`` (a CPU model, or the host of the batches)."""

    seconds: float
    source: str
    games: int = 0
    outcomes: tuple[int, int, int] = (0, 0, 0)
    cpu: str = ""
    batches: tuple[str, ...] = ()
    cached: bool = False

    def text(self) -> str:
        """Where the cost comes from, in words."""
        if self.source == "batches":
            more = f" and {len(self.batches) - 1} more" if len(self.batches) > 1 else ""
            return f"from batch {self.batches[0]}{more} ({self.games:,} games)"
        if self.source == "measured":
            return f"measured in {self.games:,} games" + (" (cached)" if self.cached else "")
        return "rough model"

    def to_dict(self) -> dict[str, Any]:
        """Where the cost comes from, as JSON (the seconds are the cell's)."""
        return {
            "source": self.source,
            "text": self.text(),
            "games": self.games,
            "outcomes": dict(zip(("red", "draw", "blue"), self.outcomes, strict=True)),
            "cpu": self.cpu,
            "batches": list(self.batches),
            "cached": self.cached,
        }


def _triple(values: Any) -> tuple[int, int, int]:
    red, draw, blue = (int(v) for v in values)
    return red, draw, blue


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if text else ""


def cpu_model() -> str:
    """This machine's CPU model (``/proc/cpuinfo``'s model name, else the platform's)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name") and ":" in line:
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def cost_key(spec: BatchSpec) -> str:
    """The identity of ``spec`` minus its seed and games (the opening suite by its hash)."""
    d = spec.to_dict()
    del d["seed"], d["games"]
    d["openings"] = _digest(d["openings"])
    text = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _durations(data_dir: Path, batch_id: str) -> tuple[float, int]:
    """The recorded milliseconds of a batch's games and how many games have one."""
    total, n = 0.0, 0
    folder = games_dir(data_dir, batch_id)
    for p in sorted(folder.glob("*.parquet")) if folder.is_dir() else []:
        if p.name.startswith("."):
            continue
        try:
            col = pq.read_table(p, columns=["duration_ms"]).column("duration_ms")
        except Exception:  # noqa: BLE001 - a damaged file: its games are not counted
            continue
        values = [v for v in col.to_pylist() if v is not None]
        total, n = total + sum(values), n + len(values)
    return total, n


def batch_costs(data_dir: Path, keys: set[str]) -> dict[str, Cost]:
    """The costs of the specs ``keys`` from the finished batches of ``data_dir`` (the time
    per game its games recorded; batches recorded without moves have none)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for rec in list_batches(data_dir) if data_dir.is_dir() else []:
        if rec.get("status") != "done" or not rec.get("games_done"):
            continue
        key = cost_key(BatchSpec.from_dict(rec["spec"]))
        if key in keys:
            found.setdefault(key, []).append(rec)
    out: dict[str, Cost] = {}
    for key, recs in found.items():
        ms, n, ids, counts, hosts = 0.0, 0, [], [0, 0, 0], set()
        for rec in recs[-MAX_BATCHES:][::-1]:
            t, k = _durations(data_dir, rec["batch_id"])
            if k == 0:
                continue
            ms, n = ms + t, n + k
            ids.append(rec["batch_id"])
            hosts.add(str(rec.get("host") or "?"))
            c = rec.get("counts", {})
            for i, side in enumerate(("red", "draw", "blue")):
                counts[i] += int(c.get(side, 0))
        if n:
            where = "host " + ", ".join(sorted(hosts))
            out[key] = Cost(ms / 1000 / n, "batches", n, _triple(counts), where, tuple(ids))
    return out


def rough_cost(spec: BatchSpec) -> Cost:
    """The rough model: typical plies times the mean rough cost of a move of the two bots."""
    # lazy: start-up time (the bot catalogue)
    from sim.bots.registry import KINDS
    from sim.bots.spec import parse_bot

    per_move = 0.0
    for text in (spec.red, spec.blue):
        bot = parse_bot(text)
        per_move += KINDS[bot.name].move_seconds(bot.params) / 2
    return Cost(min(spec.ply_cap, TYPICAL_PLIES) * per_move, "rough")


def calibrate(spec_dict: dict[str, Any], games: int, cap: float, tables: str) -> dict[str, Any]:
    """Play at least ``games`` games of the spec (on, while they took under
    :data:`MIN_CPU_SECONDS`), none started after ``cap`` seconds; return the CPU seconds
    of this process, the games and their outcomes. A first short game, not timed, loads
    the bots' compiled code."""
    # lazy: start-up time (the referee and the compiled engine)
    from sim.batch.chunks import ChunkJob, play_chunk

    spec = replace(BatchSpec.from_dict(spec_dict), games=ANY_GAMES)
    warm = replace(spec, ply_cap=min(spec.ply_cap, spec.opening_plies + 4))
    try:
        play_chunk(ChunkJob("calibration", warm, (0,), max_seconds=0.0, tables=tables))
    except DsqError:
        pass  # the timed games say what is wrong
    start, cpu0 = time.monotonic(), time.process_time()
    played, wins = 0, {"red": 0, "draw": 0, "blue": 0}
    size = games
    while played < MAX_CALIBRATION_GAMES:
        left = cap - (time.monotonic() - start)
        indices = tuple(range(played, min(played + size, MAX_CALIBRATION_GAMES)))
        res = play_chunk(ChunkJob("calibration", spec, indices, max_seconds=left, tables=tables))
        assert res.table is not None
        for w in res.table.column("winner").to_pylist():
            wins[w] += 1
        played += len(res.played)
        cpu = time.process_time() - cpu0
        if played >= games and (cpu >= MIN_CPU_SECONDS or time.monotonic() - start >= cap):
            break
        size = max(size, played)  # doubling
    return {
        "cpu_seconds": time.process_time() - cpu0,
        "games": played,
        "outcomes": [wins["red"], wins["draw"], wins["blue"]],
    }


class CostCache:
    """The calibrations of a data folder (``DATA/studies/costs/costs.json``); entries of
    another engine version are stale (its games, and their cost, may differ)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / COSTS_FILE
        self.entries: dict[str, dict[str, Any]] = {}
        try:
            raw = json.loads(read_bounded(self.path).decode("utf-8"))
            self.entries = {k: v for k, v in raw["costs"].items() if isinstance(v, dict)}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # none yet, or unreadable: calibrated again

    def get(self, key: str) -> Cost | None:
        """The cached cost of ``key``, or None."""
        e = self.entries.get(key)
        try:
            if e is None or e["engine_version"] != engine.__version__ or e["games"] < 1:
                return None
            return Cost(
                float(e["cpu_seconds"]) / int(e["games"]), "measured", int(e["games"]),
                _triple(e["outcomes"]), str(e["cpu"]), cached=True,
            )  # fmt: skip
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, key: str, spec: BatchSpec, result: dict[str, Any], cpu: str) -> None:
        """Remember one calibration."""
        self.entries[key] = {
            **result,
            "cpu": cpu,
            "host": hostname(),
            "engine_version": engine.__version__,
            "measured_at": now_iso(),
            "spec": {k: v for k, v in spec.to_dict().items() if k not in ("seed", "games")}
            | {"openings": _digest(spec.openings)},
        }

    def save(self) -> None:
        """Write the cache (merged with what another process wrote meanwhile)."""
        merged = CostCache(self.data_dir).entries | self.entries
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_json(self.path, {"version": 1, "costs": merged})


def _calibrate_all(
    todo: dict[str, BatchSpec], games: int, cap: float, workers: int, tables: str,
    done: Callable[[str, dict[str, Any]], None],
) -> None:  # fmt: skip
    """Calibrate every spec of ``todo``: in this process, or on ``workers`` processes."""
    args = [(k, s.to_dict()) for k, s in todo.items()]
    if workers <= 1 or len(args) == 1:
        for key, d in args:
            done(key, calibrate(d, games, cap, tables))
        return
    with ProcessPoolExecutor(
        max_workers=min(workers, len(args)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=follow_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = {key: pool.submit(calibrate, d, games, cap, tables) for key, d in args}
        for key, fut in futures.items():
            done(key, fut.result())


def measure_costs(
    specs: dict[str, BatchSpec],
    data_dir: Path,
    *,
    games: int = 4,
    cap: float = 20.0,
    workers: int = 1,
    cache: bool = True,
    tables: str = "",
) -> tuple[dict[str, Cost], int]:
    """The cost of each spec (by :func:`cost_key`): from finished batches, else the cache,
    else a calibration of ``games`` games (none: ``games`` 0), else the rough model.
    Returns the costs and the games played to calibrate; ``cache`` writes new calibrations
    into the data folder."""
    costs = batch_costs(data_dir, set(specs))
    store = CostCache(data_dir)
    for key in specs.keys() - costs.keys():
        if (hit := store.get(key)) is not None:
            costs[key] = hit
    todo = {k: s for k, s in specs.items() if k not in costs}
    played = 0
    if games > 0 and todo:
        cpu = cpu_model()

        def done(key: str, result: dict[str, Any]) -> None:
            nonlocal played
            played += result["games"]
            store.put(key, todo[key], result, cpu)
            n = result["games"]
            costs[key] = Cost(
                result["cpu_seconds"] / n, "measured", n, _triple(result["outcomes"]), cpu
            )

        _calibrate_all(todo, games, cap, workers, tables, done)
        if cache:
            store.save()
    for key in specs.keys() - costs.keys():
        costs[key] = rough_cost(specs[key])
    return costs, played
