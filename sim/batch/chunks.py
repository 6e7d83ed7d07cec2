"""The worker side of a batch: play a chunk of games and return them as an Arrow table.

:func:`play_chunk` runs in the driver (one worker), in a pool process, or on a Dask
worker; it is a pure function of its :class:`ChunkJob` apart from the timing column and
how many of the job's games fit in its time budget. It never touches the file system.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pyarrow as pa

from sim.play.seeds import plan_game
from sim.storage.schema import SCHEMA_VERSION

DEFAULT_PLAY_FN = "sim.play.referee:play_game"


@dataclass(frozen=True)
class ChunkJob:
    """A chunk of one batch's games: the batch's spec and the game indices to play.

    ``bot_a`` is the ``--red`` bot (red on even indices with ``swap``, always without);
    ``play_fn`` names the game function as ``"module:function"``; ``tables`` is the batch's
    folder of endgame tables (read by ``adjudicate="tablebase"`` and by bots that probe);
    ``engines`` carries the registry entries of the external engines the bots name (JSON
    texts, see :func:`sim.engines.registry.entries_json`), so any worker can start them.
    """

    batch_id: str
    rules: str
    bot_a: str
    bot_b: str
    batch_seed: int
    swap: bool
    opening_plies: int
    ply_cap: int
    indices: tuple[int, ...]
    max_seconds: float = 5.0
    play_fn: str = DEFAULT_PLAY_FN
    adjudicate: str = "none"
    tables: str = ""
    engines: tuple[str, ...] = ()


@dataclass
class ChunkResult:
    """The games a job played (a prefix of its indices) as a GAME_SCHEMA table."""

    job: ChunkJob
    table: pa.Table
    played: tuple[int, ...]


@lru_cache(maxsize=8)
def _resolve(play_fn: str) -> Callable[..., dict[str, Any]]:
    module, _, attr = play_fn.partition(":")
    return getattr(importlib.import_module(module), attr)


@lru_cache(maxsize=1)
def engine_version() -> str:
    """The version string of the engine recorded with every game."""
    try:
        import engine

        return str(getattr(engine, "__version__", "unknown"))
    except ImportError:  # pragma: no cover
        return "unknown"


def play_one(job: ChunkJob, game_index: int) -> dict[str, Any]:
    """Play game ``game_index`` of the job's batch and return its full GAME_SCHEMA row."""
    plan = plan_game(job.batch_seed, game_index, job.bot_a, job.bot_b, job.swap)
    fn = _resolve(job.play_fn)
    t0 = time.perf_counter()
    extra: dict[str, Any] = {}
    if job.adjudicate != "none":  # only then, so game functions without it keep working
        extra = {"adjudicate": job.adjudicate, "tables": job.tables or None}
    with _tables(job):
        row = dict(
            fn(
                job.rules,
                plan.red,
                plan.blue,
                plan.seed,
                opening_plies=job.opening_plies,
                ply_cap=job.ply_cap,
                opening_seed=plan.opening_seed,
                **extra,
            )
        )
    if row.get("duration_ms") is None:
        row["duration_ms"] = (time.perf_counter() - t0) * 1000.0
    row.update(
        schema_version=SCHEMA_VERSION,
        batch_id=job.batch_id,
        game_index=game_index,
        pair_id=plan.pair_id,
        seed=plan.seed,
        engine_version=engine_version(),
    )
    return row


def _tables(job: ChunkJob) -> contextlib.AbstractContextManager[None]:
    """While a game plays, bots that probe endgame tables read the batch's folder."""
    if not job.tables:
        return contextlib.nullcontext()
    from sim.tablebase.store import use_root

    return use_root(job.tables)


FAST_SLICE = 64  # games per compiled call on the fast path, between deadline checks


def play_chunk(job: ChunkJob) -> ChunkResult:
    """Play the job's games in order until all are done or ``max_seconds`` have passed
    (at least one game is always played); return them as a table.

    Games between fast bots (``random``, ``greedy``) take the referee's columnar path
    (:mod:`sim.play.columnar`): the same games, with no Python object per game or move.
    """
    from sim.storage.writing import rows_to_table

    deadline = time.monotonic() + job.max_seconds
    if job.engines:  # engine processes stay up in this worker, reused by its next chunks
        from sim.engines.registry import use_entries_json

        use_entries_json(job.engines)
    if job.play_fn == DEFAULT_PLAY_FN:
        from sim.play.columnar import fast_pair

        if fast_pair(job.bot_a, job.bot_b):
            return _play_chunk_fast(job, deadline)
    rows: list[dict[str, Any]] = []
    for gi in job.indices:
        rows.append(play_one(job, gi))
        if time.monotonic() >= deadline:
            break
    played = tuple(r["game_index"] for r in rows)
    return ChunkResult(job=job, table=rows_to_table(rows), played=played)


def _play_chunk_fast(job: ChunkJob, deadline: float) -> ChunkResult:
    """:func:`play_chunk` for fast bots: slices of games per compiled call, as columns."""
    from sim.play.columnar import play_fast_games
    from sim.storage.schema import GAME_SCHEMA

    tables = []
    played: list[int] = []
    for start in range(0, len(job.indices), FAST_SLICE):
        indices = job.indices[start : start + FAST_SLICE]
        plans = [plan_game(job.batch_seed, gi, job.bot_a, job.bot_b, job.swap) for gi in indices]
        columns = play_fast_games(
            job.rules,
            [p.red for p in plans],
            [p.blue for p in plans],
            [p.seed for p in plans],
            [p.opening_seed for p in plans],
            job.opening_plies,
            job.ply_cap,
            adjudicate=job.adjudicate,
            tables=job.tables or None,
        )
        n = len(indices)
        columns.update(
            schema_version=pa.array([SCHEMA_VERSION] * n, type=pa.int16()),
            batch_id=pa.array([job.batch_id] * n, type=pa.string()),
            game_index=pa.array(indices, type=pa.int32()),
            pair_id=pa.array([p.pair_id for p in plans], type=pa.int32()),
            seed=pa.array([p.seed for p in plans], type=pa.int64()),
            engine_version=pa.array([engine_version()] * n, type=pa.string()),
        )
        tables.append(
            pa.Table.from_arrays([columns[f.name] for f in GAME_SCHEMA], schema=GAME_SCHEMA)
        )
        played.extend(indices)
        if time.monotonic() >= deadline:
            break
    return ChunkResult(job=job, table=pa.concat_tables(tables), played=tuple(played))
