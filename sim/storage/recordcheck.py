"""The schema of a batch record, checked on every read.

A record any of whose known fields has the wrong type or an impossible value is an
*unreadable record*: readers name it and leave it out of the list of batches (the games
of its batch are still counted: statistics read the parquet files, not the records), and
``dsq simulate --resume`` rebuilds it from its ``spec`` when the spec itself is intact.
Unknown keys are allowed (a newer version may add some).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from sim.core.batchspec import (
    MAX_GAMES,
    MAX_OPENING_PLIES,
    MAX_PLY_CAP,
    SPEC_DEFAULTS,
    SPEC_INFO,
    SpecError,
    check_pair,
    check_value,
)
from sim.storage.committing import committing_ok
from sim.storage.paths import BATCH_ID_RE

__all__ = [
    "MAX_GAMES",
    "MAX_OPENING_PLIES",
    "MAX_PLY_CAP",
    "RECORD_FIELDS",
    "SPEC_FIELDS",
    "STATUSES",
    "RecordError",
    "check_record",
    "check_spec",
]

STATUSES = ("queued", "running", "done", "failed", "cancelled", "interrupted")


class RecordError(ValueError):
    """A batch record that does not follow the schema (the message names the field)."""


def _int(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _opt(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or check(v)


def _str(v: Any) -> bool:
    return isinstance(v, str)


# The spec's fields and their checks, from :class:`sim.core.batchspec.BatchSpec`.
SPEC_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    name: (partial(check_value, info), info.describe()) for name, info in SPEC_INFO.items()
}

_COUNT = _int(0, MAX_GAMES)
RECORD_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "group": (_opt(_str), "text or null"),
    "label": (_opt(_str), "text or null"),
    "status": (lambda v: v in STATUSES, "one of " + ", ".join(STATUSES)),
    "games_planned": (_COUNT, "a whole number of games"),
    "games_done": (_COUNT, "a whole number of games"),
    "created_at": (_opt(_str), "a timestamp or null"),
    "started_at": (_opt(_str), "a timestamp or null"),
    "updated_at": (_opt(_str), "a timestamp or null"),
    "finished_at": (_opt(_str), "a timestamp or null"),
    "host": (_opt(_str), "text or null"),
    "pid": (_opt(_int(0, 2**63 - 1)), "a process id or null"),
    "engine_version": (_opt(_str), "text or null"),
    "schema_version": (_opt(_int(0, 2**15 - 1)), "a whole number or null"),
    "error": (_opt(_str), "text or null"),
    "sprt": (_opt(_str), "an --sprt spec or null"),
    "stopped_early": (lambda v: isinstance(v, bool), "true or false"),
    "decided_at": (_COUNT, "a whole number of games"),
    "stop_check": (_opt(lambda v: isinstance(v, dict)), "an object or null"),
    "committing": (committing_ok, "a list of files being committed"),
    "imported": (_opt(lambda v: isinstance(v, dict)), "an object or null"),
}
REQUIRED = ("batch_id", "spec", "status", "games_done", "counts")


def check_spec(spec: Any) -> dict[str, Any]:
    """``spec`` if it is a valid batch spec object (every field of the right type and
    range), else :class:`RecordError` naming the first bad field."""
    if not isinstance(spec, dict):
        raise RecordError(f"spec: expected an object, got {type(spec).__name__}")
    for name, (ok, what) in SPEC_FIELDS.items():
        if name not in spec:
            if name in SPEC_DEFAULTS:  # a record written before the field existed
                continue
            raise RecordError(f"spec.{name}: missing")
        if not ok(spec[name]):
            raise RecordError(f"spec.{name}: expected {what}, got {_show(spec[name])}")
    try:
        check_pair({**SPEC_DEFAULTS, **spec})
    except SpecError as exc:
        raise RecordError(f"spec.{exc.field}: {exc}") from None
    return spec


def check_record(record: Any, batch_id: str | None = None) -> dict[str, Any]:
    """``record`` if it follows the schema of a batch record (and names ``batch_id`` when
    given), else :class:`RecordError` naming the first bad field."""
    if not isinstance(record, dict):
        raise RecordError(f"expected a JSON object, got {type(record).__name__}")
    for name in REQUIRED:
        if name not in record:
            raise RecordError(f"{name}: missing")
    bid = record["batch_id"]
    if not isinstance(bid, str) or not BATCH_ID_RE.fullmatch(bid) or ".." in bid:
        raise RecordError(f"batch_id: not a batch id: {_show(bid)}")
    if batch_id is not None and bid != batch_id:
        raise RecordError(f"batch_id: {bid!r} in the record of {batch_id!r}")
    check_spec(record["spec"])
    for name, (ok, what) in RECORD_FIELDS.items():
        if name in record and not ok(record[name]):
            raise RecordError(f"{name}: expected {what}, got {_show(record[name])}")
    counts = record["counts"]
    if not isinstance(counts, dict) or any(not _COUNT(counts.get(k)) for k in WINNER_KEYS):
        raise RecordError(f"counts: expected red, blue and draw counts, got {_show(counts)}")
    for k in BOT_KEYS:
        if k in counts and not _COUNT(counts[k]):
            raise RecordError(
                f"counts.{k}: expected a whole number of games, got {_show(counts[k])}"
            )
    penta = counts.get("pentanomial")
    if penta is not None and not (
        isinstance(penta, list) and len(penta) == 5 and all(_COUNT(c) for c in penta)
    ):
        raise RecordError(f"counts.pentanomial: expected 5 pair counts, got {_show(penta)}")
    return record


WINNER_KEYS = ("red", "blue", "draw")
BOT_KEYS = ("a_wins", "b_wins")  # wins of the --red bot (a) and the --blue bot (b)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
