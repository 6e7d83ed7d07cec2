"""``--opening-plies auto`` for ``dsq simulate`` and ``dsq tournament``, the note saying
what it chose (or that the games repeat), and the distinct games of finished batches
(see :mod:`sim.bots.variety` and :mod:`sim.stats.distinct`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.bots.variety import (
    OPENING_PLIES_HELP,
    VARIETY_PLIES,
    deterministic,
    distinct_limit,
    opening_plies_arg,
    repeats_games,
    variety_note,
)

if TYPE_CHECKING:
    from sim.core.batchspec import BatchSpec


def opening_plies_kind() -> dict[str, Any]:
    """How argparse reads ``--opening-plies``: ``auto`` (None, the default) or N."""
    return {"type": opening_plies_arg, "metavar": "N|auto", "help": OPENING_PLIES_HELP}


def spec_note(spec: BatchSpec, auto: bool, command: str = "dsq simulate") -> str | None:
    """The line said before playing when the batch's bots are deterministic: the random
    plies ``auto`` chose, or that its games repeat; None otherwise."""
    if spec.opening_plies and not auto:
        return None
    if spec.opening_plies:
        note = variety_note(spec.red, spec.blue, spec.opening_plies, spec.openings,
                            spec.swap, chosen=True)  # fmt: skip
    elif repeats_games(spec.red, spec.blue, 0, spec.openings, spec.games, spec.swap):
        note = variety_note(spec.red, spec.blue, 0, spec.openings, spec.swap)
    else:
        return None
    return f"{command}: note: {note}"


def tournament_plies(
    players: list[str], fmt: str, games: int, openings: str, given: int | None
) -> tuple[int, str | None]:
    """A tournament's opening plies (``given``, or ``auto``'s choice when None) and the
    note to say when pairings of deterministic players would repeat their games: each
    plays ``games`` games (over every round), colour-swapped. In a gauntlet only the
    first player's pairings count."""
    same = [p for p in players if deterministic(p)]
    if fmt == "gauntlet":
        same = same if players[0] in same else []
    repeats = len(same) >= 2 and repeats_games(same[0], same[1], 0, openings, games)
    if not repeats or (given is not None and given > 0):
        return (0 if given is None else given), None
    plies = VARIETY_PLIES if given is None else 0
    note = variety_note(same[0], same[1], plies, openings, chosen=given is None, players=same)
    return plies, f"dsq tournament: note: {note}"


def attach_distinct(data: str | None, records: list[dict[str, Any]]) -> None:
    """Give each finished batch record its ``distinct`` counts (see
    :func:`sim.stats.distinct.batch_distinct`); a batch that cannot be read gets none."""
    # lazy: start-up time (DuckDB)
    from sim.stats.distinct import batch_distinct

    for rec in records:
        if not rec.get("games_done"):
            continue
        by_seed = _seeded_outcomes(rec)
        if by_seed is not None:
            rec["distinct"] = by_seed
            continue
        try:
            found = batch_distinct(data, str(rec.get("batch_id")))
        except (DsqError, OSError):
            continue
        if found is not None:
            rec["distinct"] = found.to_dict()


def _seeded_outcomes(rec: dict[str, Any]) -> dict[str, Any] | None:
    """The distinct counts of a batch recorded without moves whose games its seeds decide
    (each one distinct, as :mod:`sim.stats.distinct` counts them), from its record's
    counts without reading its games; None for any other batch."""
    # lazy: start-up time
    from sim.core.tally import bot_results

    spec = rec.get("spec") or {}
    if spec.get("record") != "outcomes":
        return None
    try:
        limit = distinct_limit(
            spec["red"], spec["blue"], spec["opening_plies"], spec.get("openings", "")
        )
    except (DsqError, KeyError):
        return None
    res = bot_results(rec.get("counts") or {}, bool(spec.get("swap")))
    if limit is not None or res is None:
        return None
    games, ptnml = int(rec["games_done"]), res.get("pentanomial")
    pairs = sum(ptnml) if ptnml else 0
    return {
        "games": games, "distinct": games, "pairs": pairs, "distinct_pairs": pairs,
        "wdl": [res["wins"], res["draws"], res["losses"]], "ptnml": ptnml,
    }  # fmt: skip
