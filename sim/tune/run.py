"""``dsq tune`` from start to end: games (recorded, or played first), their quiet positions,
the fit, the evaluation file, and the match that accepts it (:mod:`sim.tune.accept`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import DsqError
from engine.rules import Ruleset
from sim.bots.evalfile import evals_dir
from sim.bots.evalformat import EvalFile
from sim.bots.evaluate import params_array
from sim.bots.params import DEFAULT_VALUES
from sim.bots.piece_values import values_array
from sim.tune.features import classic_start, danger_order, design, kernel_scores
from sim.tune.fit import DEFAULT_RIDGE, K, best_k, fit, loss
from sim.tune.positions import Collected, collect

Say = Callable[[str], None]
PLAY_BOT = "alphabeta:depth=3,noise=40"
PLAY_OPENING_PLIES = 6


@dataclass(frozen=True)
class TuneJob:
    """What to fit: the rules, the new evaluation's name, the games (``selection`` over
    ``data_dir``), the positions' cap and seed, the held-out share, the ridge, the
    iterations, the self-play games to play first (``play`` games of ``play_bot``), and
    the labels' weight of the game's result against the recorded search score."""

    rules: Ruleset
    name: str
    data_dir: Path
    selection: Any
    positions: int = 1_000_000
    seed: int = 0
    held_out: float = 0.1
    ridge: float = DEFAULT_RIDGE
    max_iter: int = 400
    play: int = 0
    play_bot: str = PLAY_BOT
    workers: int = 1
    result_weight: float = 0.5


@dataclass
class TuneResult:
    """What a fit found: the file, the counts and losses, and the seconds each step took."""

    evaluation: EvalFile
    games: int
    positions: int
    held_positions: int
    tabled: int
    classic_held_loss: float
    classic_best_k: float
    classic_held_loss_best_k: float
    seconds: dict[str, float] = field(default_factory=dict)
    played_batch: str | None = None

    def summary(self) -> dict[str, Any]:
        """Plain JSON values."""
        meta = self.evaluation.meta
        return {
            "name": self.evaluation.name,
            "rules": self.evaluation.rules,
            "games": self.games,
            "positions": self.positions,
            "held_out_positions": self.held_positions,
            "tabled_positions": self.tabled,
            "train_loss": meta.get("train_loss"),
            "held_out_loss": meta.get("held_out_loss"),
            "classic_held_out_loss": self.classic_held_loss,
            "classic_best_k": self.classic_best_k,
            "classic_held_out_loss_best_k": self.classic_held_loss_best_k,
            "iterations": meta.get("iterations"),
            "played_batch": self.played_batch,
            "seconds": self.seconds,
        }


def play_games(job: TuneJob, say: Say) -> str:
    """Play ``job.play`` self-play games of ``job.play_bot`` into the data folder (colours
    swapped, random opening plies); the batch id."""
    # lazy: start-up time (the batch machinery)
    from sim.batch import Plan, make_spec
    from sim.batch.progress import BatchProgress

    spec = make_spec(
        job.rules.spec, job.play_bot, job.play_bot, job.play, job.seed,
        swap=job.play % 2 == 0, opening_plies=PLAY_OPENING_PLIES,
    )  # fmt: skip
    say(f"playing {job.play} games of {spec.red} against itself under {job.rules.spec}")
    plan = Plan.new([spec], label=f"dsq tune {job.name}: self-play")
    records = plan.run(job.data_dir, workers=job.workers, progress=BatchProgress())
    rec = records[0]
    if rec.get("status") != "done":
        raise DsqError(f"the self-play batch {rec.get('batch_id')} ended {rec.get('status')}")
    return str(rec["batch_id"])


def _collect(job: TuneJob, order: tuple[int, ...], say: Say) -> Collected:
    # lazy: start-up time (duckdb)
    from sim.storage.reading import open_dataset
    from sim.tablebase.store import tables_root

    ds = open_dataset(job.data_dir)
    try:
        for path, reason in ds.skipped:
            say(f"skipped {path}: {reason}")
        got = ds.read(
            lambda: collect(
                ds.con, job.selection, job.rules, order, job.positions, job.seed,
                tables_root(job.data_dir),
                lambda g, n: say(f"positions: {g:,} games replayed, {n:,} quiet positions"),
            )
        )  # fmt: skip
        if not got.games:
            # lazy: start-up time (as the dataset)
            from sim.stats.empty import no_games

            raise no_games(ds.con, job.selection, job.data_dir)
        return got
    finally:
        ds.close()


def tune(job: TuneJob, say: Say) -> TuneResult:
    """Fit an evaluation for ``job`` (see the module docstring); DsqError when there is
    nothing to fit on. The file is not written here (see :func:`sim.tune.accept`)."""
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    played = play_games(job, say) if job.play > 0 else None
    seconds["play"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    order = danger_order(job.rules)
    got = _collect(job, order, say)
    pos = got.positions
    seconds["positions"] = time.perf_counter() - t1
    if got.refused:
        say(f"{got.refused} games refused: a move not legal under {job.rules.spec}")
    if len(pos) < 100:
        raise DsqError(
            f"{len(pos)} quiet positions in {got.games} games "
            f"({job.selection.describe()}): too few to fit on; play games first (--play N)"
        )
    games = np.unique(pos.game)
    gen = np.random.default_rng(job.seed)
    held_games = gen.choice(games, size=max(1, int(round(job.held_out * len(games)))),
                            replace=False)  # fmt: skip
    held = np.isin(pos.game, held_games)
    if held.all() or not held.any():
        raise DsqError(f"{len(games)} games: too few to hold some out for the held-out loss")
    say(
        f"positions: {len(pos):,} quiet of {got.seen:,} in {got.games:,} games "
        f"({int(held.sum()):,} held out, {int(pos.tabled.sum()):,} labelled by the tables)"
    )
    t2 = time.perf_counter()
    x = design(pos)
    train, test = pos.take(np.flatnonzero(~held)), pos.take(np.flatnonzero(held))
    xt, xh = x[~held], x[held]
    classic = params_array(values_array(DEFAULT_VALUES, job.rules), None)
    cl_train = kernel_scores(train, job.rules, classic)
    cl_held = kernel_scores(test, job.rules, classic)
    y_train, y_held = train.blended(job.result_weight), test.blended(job.result_weight)
    k_best = best_k(cl_train, y_train)
    classic_loss = loss(cl_held, y_held)
    say(f"classic evaluation: held-out loss {classic_loss:.5f} (k = 1/400), "
        f"{loss(cl_held, y_held, k_best):.5f} at its best k = 1/{1 / k_best:.0f}")  # fmt: skip
    fitted = fit(
        xt, y_train, xh, y_held, classic_start(job.rules), job.ridge, job.max_iter,
        lambda i, a, b: say(f"fit: iteration {i}, loss {a:.5f}, held-out {b:.5f}"),
    )  # fmt: skip
    seconds["fit"] = time.perf_counter() - t2
    say(f"fit: {fitted.iterations} iterations, loss {fitted.train_loss:.5f}, "
        f"held-out {fitted.held_loss:.5f}")  # fmt: skip
    meta = {
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "data": str(job.data_dir),
        "selection": job.selection.describe(),
        "games": got.games,
        "positions": len(pos),
        "held_out_positions": int(held.sum()),
        "tabled_positions": int(pos.tabled.sum()),
        "seed": job.seed,
        "ridge": job.ridge,
        "result_weight": job.result_weight,
        "k": K,
        "train_loss": round(fitted.train_loss, 6),
        "held_out_loss": round(fitted.held_loss, 6),
        "classic_held_out_loss": round(classic_loss, 6),
        "iterations": fitted.iterations,
    }
    ef = EvalFile(job.name, job.rules.spec, fitted.weights, meta)
    return TuneResult(
        evaluation=ef, games=got.games, positions=len(pos), held_positions=int(held.sum()),
        tabled=int(pos.tabled.sum()), classic_held_loss=classic_loss, classic_best_k=k_best,
        classic_held_loss_best_k=loss(cl_held, y_held, k_best), seconds=seconds,
        played_batch=played,
    )  # fmt: skip


def folder_of(job: TuneJob) -> Path:
    """Where the evaluation of ``job`` is written."""
    return evals_dir(job.data_dir)
