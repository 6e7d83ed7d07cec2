"""Games recorded without their moves (``dsq simulate --record outcomes``), played again
from their seeds: the one place that says which bots may be recorded so and that
recomputes such a game.

A game of a batch is decided by the batch's spec (rules, bots, batch seed, opening plies
and suite, ply cap, adjudication) and its game index (:mod:`sim.core.seeds`). dsq's own
bots draw every random choice from the generator the referee seeds, so when neither side
is an external engine nor stops its search on the clock (``time_ms``), playing the game
again (:func:`sim.batch.chunks.play_one`, the same function the batch played it with,
or its columnar twin) gives the same moves. :func:`recompute` does that and checks the
game ends as recorded (winner, reason, plies).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import DsqError


def not_replayable(bot: str) -> str | None:
    """Why the games of bot spec ``bot`` cannot be replayed from their seeds, or None."""
    # lazy: start-up time (the bot catalogue: only when --record outcomes is asked for)
    from sim.bots.registry import KINDS
    from sim.bots.spec import parse_bot

    spec = parse_bot(bot)
    if not KINDS[spec.name].seeded:
        return f"{spec.name} is not a dsq bot whose moves its seed decides"
    if int(spec.params.get("time_ms") or 0) > 0:
        return "a search stopped by time_ms depends on the machine's speed"
    return None


def check_outcomes(red: str, blue: str) -> None:
    """``DsqError`` (one line) unless both bots replay from their seeds (``--record
    outcomes`` stores no moves: they must be recomputable)."""
    for bot in dict.fromkeys((red, blue)):
        why = not_replayable(bot)
        if why is not None:
            # lazy: start-up time (as in not_replayable)
            from sim.bots.spec import short_spec

            raise DsqError(
                f"--record outcomes: {short_spec(bot)} cannot be replayed from its seed ({why}); "
                "record its games with --record moves"
            )


@dataclass(frozen=True)
class Recomputed:
    """A game recomputed from its seed: its ``moves`` (codes) and ``start_fen``, and
    whether it ends as recorded (``agrees``; ``why`` says how it differs, or why it
    could not be played)."""

    moves: list[int] | None
    start_fen: str | None
    agrees: bool
    why: str = ""


def recompute(data_dir: Path | str, record: Mapping[str, Any]) -> Recomputed:
    """Play recorded game ``record`` (a row of the ``games`` view: ``batch_id``,
    ``game_index``, ``winner``, ``reason``, ``plies``) again from its batch's spec and its
    seed; never raises for a game that cannot be replayed (``agrees`` False, ``why``)."""
    # lazy: start-up time (the batch runner's chunks and the referee: pyarrow, numba)
    from sim.batch.chunks import ChunkJob, play_one
    from sim.core.batchspec import BatchSpec
    from sim.storage.records import read_batch_record
    from sim.tablebase.store import tables_root

    bid, index = str(record["batch_id"]), int(record["game_index"])
    try:
        spec = BatchSpec.from_dict(read_batch_record(Path(data_dir), bid)["spec"])
        why = next(filter(None, (not_replayable(spec.red), not_replayable(spec.blue))), None)
        if why is not None:
            return Recomputed(None, None, False, why)
        job = ChunkJob(batch_id=bid, spec=spec, indices=(index,), tables=str(tables_root(data_dir)))
        row = play_one(job, index)
    except (DsqError, OSError, KeyError, TypeError, ValueError) as exc:
        return Recomputed(None, None, False, str(exc).splitlines()[0] if str(exc) else "?")
    got = (row["winner"], row["reason"], int(row["plies"]), int(row["seed"]))
    want = (record["winner"], record["reason"], int(record["plies"]), int(record["seed"]))
    moves = [int(m) for m in row["moves"]]
    if got[3] != want[3]:
        return Recomputed(None, None, False, "its batch's spec gives the game another seed")
    if got != want:
        said = f"{got[0]} by {got[2]} plies ({got[1]})"
        return Recomputed(moves, row.get("start_fen"), False, f"the seed plays {said}")
    return Recomputed(moves, row.get("start_fen"), True)


def with_moves(
    data_dir: Path | str, record: Mapping[str, Any]
) -> tuple[dict[str, Any], Recomputed | None]:
    """``record`` with its ``moves`` (and ``start_fen``) recomputed from its seed when they
    are not stored (then also the :class:`Recomputed`; None when the moves were stored)."""
    if record.get("moves") is not None:
        return dict(record), None
    again = recompute(data_dir, record)
    if again.agrees:
        return {**record, "moves": again.moves, "start_fen": again.start_fen}, again
    return dict(record), again
