"""The record of a batch as a typed object: :class:`BatchRecord`.

Records are stored as JSON (``DIR/batches/<batch_id>.json``) and checked on every read
(:mod:`sim.storage.recordcheck`); :meth:`BatchRecord.from_dict` takes a checked record,
:meth:`BatchRecord.to_dict` gives the object that is stored. Keys this version does not
know are kept in ``extra`` and written back unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.core.batchspec import BatchSpec

# Keys written only when they hold something (a batch that never stopped early, ...).
OPTIONAL = ("stopped_early", "stop_check", "committing", "repaired")


@dataclass
class BatchRecord:
    """A batch's record: its ``spec``, status and progress (``games_done`` of
    ``games_planned``, ``counts`` by colour and by bot), when and where it ran, and what
    stopped it (``error``, the ``sprt`` it runs and the ``stop_check``'s last result)."""

    batch_id: str
    spec: BatchSpec
    status: str = "queued"
    games_done: int = 0
    counts: dict[str, Any] = field(default_factory=lambda: {"red": 0, "blue": 0, "draw": 0})
    group: str | None = None
    label: str | None = None
    games_planned: int | None = None
    created_at: str | None = None
    started_at: str | None = None
    updated_at: str | None = None
    finished_at: str | None = None
    host: str | None = None
    pid: int | None = None
    engine_version: str | None = None
    schema_version: int | None = None
    error: str | None = None
    sprt: str | None = None
    stopped_early: bool | None = None
    stop_check: dict[str, Any] | None = None
    committing: list[Any] | None = None
    repaired: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.games_planned is None:
            self.games_planned = self.spec.games
        if self.group is None:
            self.group = self.batch_id

    def to_dict(self) -> dict[str, Any]:
        """The record as stored (the spec as :meth:`BatchSpec.to_dict`)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "extra" or (f.name in OPTIONAL and value is None):
                continue
            out[f.name] = value.to_dict() if f.name == "spec" else value
        return {**out, **self.extra}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BatchRecord:
        """The record of a (checked) stored record; unknown keys go to ``extra``."""
        names = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        known = {k: v for k, v in d.items() if k in names}
        known["spec"] = BatchSpec.from_dict(d["spec"])
        return cls(**known, extra={k: v for k, v in d.items() if k not in names})
