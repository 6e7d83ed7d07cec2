"""The worker side of a batch: play a chunk of games and return them as an Arrow table.

:func:`play_chunk` runs in the driver (one worker), in a pool process, or on a Dask
worker; it is a pure function of its :class:`ChunkJob` apart from the timing column and
how many of the job's games fit in its time budget.

A job with a ``spool`` folder (the batch's games folder, given to workers on the driver's
machine) has its worker encode and verify the games file itself under a hidden temporary
name (:mod:`sim.storage.spool`), so the driver only commits it; other jobs return their
games as a table and never touch the file system.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

import engine
from sim.core.batchspec import BatchSpec
from sim.core.seeds import plan_game, plan_games
from sim.storage.schema import GAME_SCHEMA, SCHEMA_VERSION
from sim.storage.spool import SpooledFile, spool_games
from sim.storage.writing import rows_to_table

if TYPE_CHECKING:
    from sim.external.registry import EngineRegistry
    from sim.openings.suite import Entry, Suite

DEFAULT_PLAY_FN = "sim.play.referee:play_game"


@dataclass(frozen=True)
class ChunkJob:
    """A chunk of one batch's games: the batch's spec and the game indices to play.

    ``spec.red`` is bot *a* (red on even indices with ``swap``, always without);
    ``play_fn`` names the game function as ``"module:function"``; ``tables`` is the batch's
    folder of endgame tables (read by ``adjudicate="tablebase"`` and by bots that probe);
    ``spool`` the folder where the worker writes its games file itself ("": return a table).
    ``engines`` carries the registry entries of the external engines the bots name (JSON
    texts, see :func:`sim.external.registry.entries_json`), so any worker can start them.
    """

    batch_id: str
    spec: BatchSpec
    indices: tuple[int, ...]
    max_seconds: float = 5.0
    play_fn: str = DEFAULT_PLAY_FN
    tables: str = ""
    spool: str = ""
    engines: tuple[str, ...] = ()


@dataclass
class ChunkResult:
    """The games a job played (a prefix of its indices): a GAME_SCHEMA table, or with a
    ``spool`` folder the verified file the worker wrote there (``table`` is then None)."""

    job: ChunkJob
    table: pa.Table | None
    played: tuple[int, ...]
    file: SpooledFile | None = None
    seconds: float | None = None  # playing them took (loading kernels and bots not counted)


@lru_cache(maxsize=8)
def _resolve(play_fn: str) -> Callable[..., dict[str, Any]]:
    module, _, attr = play_fn.partition(":")
    return getattr(importlib.import_module(module), attr)


def engine_version() -> str:
    """The version recorded with every game: the project's, ``engine.__version__``."""
    return engine.__version__


def play_one(
    job: ChunkJob, game_index: int, engines: EngineRegistry | None = None
) -> dict[str, Any]:
    """Play game ``game_index`` of the job's batch and return its full GAME_SCHEMA row; its
    bots start their engines from ``engines`` (default: the job's entries)."""
    spec = job.spec
    plan = plan_game(spec.seed, game_index, spec.red, spec.blue, spec.swap)
    fn = _resolve(job.play_fn)
    t0 = time.perf_counter()
    extra: dict[str, Any] = {}
    if spec.adjudicate != "none":  # only then, so game functions without it keep working
        extra = {"adjudicate": spec.adjudicate, "tables": job.tables or None}
    for rule in ("resign", "draw"):  # likewise: score adjudication only when asked
        if getattr(spec, rule) != "none":
            extra[rule] = getattr(spec, rule)
    if job.play_fn == DEFAULT_PLAY_FN:  # its bots read the batch's tables and engines
        extra["tables"] = job.tables or None
        if job.engines:
            extra["engines"] = engines or _registry(job)
    entry = opening_entry(spec, plan.pair_id)
    if entry is not None:  # only then, so game functions without a suite keep working
        extra.update(fen=entry.start_fen, opening_moves=entry.codes)
    row = dict(
        fn(
            spec.rules,
            plan.red,
            plan.blue,
            plan.seed,
            opening_plies=spec.opening_plies,
            ply_cap=spec.ply_cap,
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
    if entry is not None:
        row["start_fen"] = entry.start_fen
    return row


def _suite(spec: BatchSpec) -> Suite | None:
    """The batch's opening suite (parsed once per process), or None."""
    if not spec.openings:
        return None
    # lazy: start-up time (the engine's Position: only for a batch with a suite)
    from sim.openings.suite import cached_suite

    return cached_suite(spec.openings, spec.rules)


def opening_entry(spec: BatchSpec, pair: int) -> Entry | None:
    """The suite entry pair ``pair`` of the batch plays (None: the batch has no suite)."""
    suite = _suite(spec)
    if suite is None:
        return None
    # lazy: start-up time (as above)
    from sim.openings.suite import opening_indices

    k = opening_indices(spec.seed, spec.openings_order, len(suite), np.array([pair]))[0]
    return suite.entries[int(k)]


def _registry(job: ChunkJob) -> EngineRegistry:
    """The engine registry of the entries the job carries."""
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.registry import EngineRegistry

    return EngineRegistry.from_json(job.engines)


def play_chunk(job: ChunkJob) -> ChunkResult:
    """Play the job's games in order until all are done or ``max_seconds`` have passed
    (at least one game is always played); return them as a table, or as the file the
    worker wrote into the job's ``spool`` folder.

    Games between fast bots (``random``, ``greedy``) take the referee's columnar path
    (:mod:`sim.play.columnar`): the same games, with no Python object per game or move.
    """

    started = time.monotonic()
    deadline = started + job.max_seconds
    # engine processes stay up in this worker (sim.external.pool), reused by its next chunks
    engines = _registry(job) if job.engines else None
    result = None
    if job.play_fn == DEFAULT_PLAY_FN:
        # lazy: start-up time (numba kernels)
        from sim.play.columnar import fast_pair, load_kernels

        if fast_pair(job.spec.red, job.spec.blue):
            load_kernels()  # a new worker's first chunk does not spend its time loading them
            started = time.monotonic()
            deadline = started + job.max_seconds
            result = _play_chunk_fast(job, deadline)
        else:  # the bots' kernels loaded before the clock starts (once per worker)
            _warm_up(job.spec, job.tables)
            started = time.monotonic()
            deadline = started + job.max_seconds
    if result is None:
        rows: list[dict[str, Any]] = []
        for gi in job.indices:
            rows.append(play_one(job, gi, engines))
            if time.monotonic() >= deadline:
                break
        played = tuple(r["game_index"] for r in rows)
        table = rows_to_table(rows)
        if job.spec.record == "outcomes":
            table = outcomes_only(table)
        result = ChunkResult(job=job, table=table, played=played)
    result.seconds = time.monotonic() - started
    return spool_result(result, job) if job.spool else result


def _warm_up(spec: BatchSpec, tables: str) -> None:
    """Load the kernels both bots of ``spec`` play with (:func:`sim.bots.protocol.warm_up`:
    once per kind and process), as the games build them: reading the batch's ``tables``
    and the evaluations beside them (a data folder's own, ``eval=NAME``)."""
    # lazy: start-up time (the bots)
    from sim.bots.context import BotContext
    from sim.bots.protocol import warm_up

    context = BotContext.of(tables)
    for bot in {spec.red, spec.blue}:
        warm_up(bot, spec.rules, context)


def spool_result(result: ChunkResult, job: ChunkJob) -> ChunkResult:
    """``result`` with its table written and verified as a games file in ``job.spool``
    (:func:`sim.storage.spool.spool_games`): what :func:`play_chunk` returns for ``job``."""
    if result.table is None:
        return result
    file = spool_games(job.spool, result.table)
    return ChunkResult(job=job, table=None, played=result.played, file=file, seconds=result.seconds)


# What --record outcomes does not store of a game (null): its moves and what goes with them
NOT_OUTCOMES = ("moves", "captures", "duration_ms", "move_ms", "scores")


def outcomes_only(table: pa.Table) -> pa.Table:
    """``table`` (GAME_SCHEMA) with the columns ``--record outcomes`` does not store null."""
    for name in NOT_OUTCOMES:
        k = table.schema.get_field_index(name)
        table = table.set_column(k, name, pa.nulls(table.num_rows, table.schema.field(k).type))
    return table


def _play_chunk_fast(job: ChunkJob, deadline: float) -> ChunkResult:
    """:func:`play_chunk` for fast bots: the chunk's games in one compiled call (which looks
    at the clock every ``sim.bots.fast.SLICE`` games), as columns."""
    # lazy: start-up time (numba kernels)
    from sim.play.columnar import play_fast_columns

    spec = job.spec
    # no random opening ply: the opening generator is never drawn from, its seed unneeded
    plan = plan_games(spec.seed, job.indices, spec.swap, openings=spec.opening_plies > 0)
    red = np.where(plan.a_is_red, 0, 1)  # indices into (spec.red, spec.blue): bots a and b
    suite, which = _suite(spec), None
    if suite is not None:
        # lazy: start-up time (as in _suite)
        from sim.openings.suite import opening_indices

        which = opening_indices(spec.seed, spec.openings_order, len(suite), plan.pair_id)
    columns, n = play_fast_columns(
        spec.rules,
        (spec.red, spec.blue),
        red,
        1 - red,
        plan.seed,
        plan.opening_seed,
        spec.opening_plies,
        spec.ply_cap,
        deadline=time.perf_counter() + (deadline - time.monotonic()),
        adjudicate=spec.adjudicate,
        tables=job.tables or None,
        suite=suite,
        which=which,
        moves=spec.record != "outcomes",
    )
    columns.update(
        schema_version=pa.repeat(pa.scalar(SCHEMA_VERSION, pa.int16()), n),
        batch_id=pa.repeat(pa.scalar(job.batch_id, pa.string()), n),
        game_index=pa.array(plan.game_index[:n], type=pa.int32()),
        pair_id=pa.array(plan.pair_id[:n], type=pa.int32()),
        seed=pa.array(plan.seed[:n], type=pa.int64()),
        engine_version=pa.repeat(pa.scalar(engine_version(), pa.string()), n),
    )
    table = pa.Table.from_arrays([columns[f.name] for f in GAME_SCHEMA], schema=GAME_SCHEMA)
    return ChunkResult(job=job, table=table, played=tuple(job.indices[:n]))
