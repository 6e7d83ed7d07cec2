"""Playing a tournament: round by round, each pairing an ordinary colour-swapped batch.

A round's batches are played in one :func:`sim.batch.run_batches` call (the workers start
once for all of them). A batch already ``done`` is kept, one interrupted or killed is
resumed with exactly its missing games, so running the tournament again after any stop
ends with the same games as an uninterrupted run. A Swiss round is paired from the
results of the rounds before it only, and stored in the tournament's file before it is
played; a rerun pairs it again and checks it gets the same pairings.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, TextIO

from engine.errors import DsqError
from sim.batch import make_spec
from sim.batch.plan import NewSpec, plan_batches, recorded
from sim.batch.progress import BatchProgress
from sim.batch.spec import RunOptions
from sim.tournament import pairing
from sim.tournament.pairing import Round
from sim.tournament.plan import Tournament, save


def pair_points(rec: dict[str, Any]) -> tuple[float, float]:
    """The points of the batch's ``red`` and ``blue`` players (its bots a and b)."""
    c = rec.get("counts", {})
    a, b, d = int(c.get("a_wins", 0)), int(c.get("b_wins", 0)), int(c.get("draw", 0))
    return a + d / 2, b + d / 2


def round_batches(t: Tournament, k: int, rnd: Round) -> list[tuple[str, int, int]]:
    """``(batch id, i, j)`` of each pairing of round ``k``."""
    return [(t.batch_id(k, i, j), i, j) for i, j in rnd.pairings]


def next_round(t: Tournament, k: int, data_dir: Path) -> Round:
    """The pairings of round ``k``: fixed for a round robin and a gauntlet, from the
    recorded results of rounds ``0..k-1`` for a Swiss (every one of them done)."""
    n = len(t.players)
    if t.format == "round-robin":
        return pairing.round_robin(n)
    if t.format == "gauntlet":
        return pairing.gauntlet(n)
    points = [0.0] * n
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for r in range(k):
        rnd = t.rounds_played[r]
        if rnd.bye is not None:
            byes.add(rnd.bye)
            points[rnd.bye] += t.games_per_pair
        for bid, i, j in round_batches(t, r, rnd):
            rec = recorded(data_dir, bid)
            if rec is None or rec.get("status") != "done":
                raise DsqError(f"round {r + 1} is not finished: batch {bid} is not done")
            pi, pj = pair_points(rec)
            points[i] += pi
            points[j] += pj
            met.add(frozenset((i, j)))
    return pairing.swiss(k, points, met, byes)


def _round(t: Tournament, k: int, data_dir: Path) -> Round:
    """Round ``k``'s pairings, stored in the tournament's file the first time."""
    rnd = next_round(t, k, data_dir)
    if k < len(t.rounds_played):
        if t.rounds_played[k] != rnd:
            raise DsqError(
                f"tournament {t.id}: round {k + 1} pairs differently from its record; "
                "its earlier batches were changed"
            )
        return rnd
    t.rounds_played.append(rnd)
    save(data_dir, t)
    return rnd


def _say(stream: TextIO, quiet: bool, text: str) -> None:
    if not quiet:
        stream.write(text + "\n")
        stream.flush()


def run_tournament(
    t: Tournament,
    data_dir: Path,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    options: RunOptions | None = None,
    stream: TextIO | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """Play (or resume) every round of ``t`` (registered in ``data_dir``); return
    ``{"seconds", "games", "batches", "complete"}``: this run's wall time, games played
    and batches played or resumed, and whether every batch of every round is done."""
    out = stream or sys.stderr
    progress = BatchProgress(out, mode="quiet" if quiet else "plain")
    t0 = time.monotonic()
    games = batches = 0
    for k in range(t.rounds):
        rnd = _round(t, k, data_dir)
        pairs = round_batches(t, k, rnd)

        def new(n: int, pairs: list[tuple[str, int, int]] = pairs, k: int = k) -> NewSpec:
            _, i, j = pairs[n]
            spec = make_spec(
                t.rules, t.players[i], t.players[j], t.games_per_pair, seed=t.round_seed(k),
                swap=True, opening_plies=t.opening_plies, ply_cap=t.ply_cap,
                openings=t.openings, openings_order=t.openings_order,
            )  # fmt: skip
            return spec, t.label(k, i, j)

        plan = plan_batches(data_dir, [bid for bid, _, _ in pairs], new)
        games -= sum(int(r.get("games_done", 0)) for r in plan.resume)  # counted again below
        bye = f", bye: {t.players[rnd.bye]}" if rnd.bye is not None else ""
        todo = len(plan.create) + len(plan.resume)
        _say(out, quiet, f"tournament {t.id}: round {k + 1}/{t.rounds}, {todo} batches{bye}")
        records = plan.run(
            data_dir, group=f"{t.id}-r{k + 1:02d}", sprt=t.sprt, workers=workers,
            scheduler=scheduler, options=options, progress=progress,
        )  # fmt: skip
        batches += len(records)
        games += sum(int(r.get("games_done", 0)) for r in records)
        unfinished = [r["batch_id"] for r in records if r.get("status") != "done"]
        if unfinished:
            return _summary(t0, games, batches, complete=False)
    return _summary(t0, games, batches, complete=True)


def _summary(t0: float, games: int, batches: int, complete: bool) -> dict[str, Any]:
    seconds = round(time.monotonic() - t0, 3)
    return {"seconds": seconds, "games": games, "batches": batches, "complete": complete}
