"""The one plan every orchestrator plays: which of the batches it wants are done, which
were started and are to be resumed, and which are to be created, computed once from what
the data folder records. Studies, tournaments, tuning and ``dsq simulate`` each say which
batches they want (ids, and for new ones their specs and labels); :meth:`Plan.run` plays
the plan through :func:`sim.batch.run.run_batches` on one set of workers.

    plan = plan_batches(data_dir, ids, lambda i: (specs[i], labels[i]))
    records = plan.run(data_dir, group="cmp", workers=2)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.core.batchspec import BatchSpec
from sim.storage.paths import batch_ids, new_batch_id, resolve_data_dir
from sim.storage.records import read_batch_record

if TYPE_CHECKING:
    from sim.batch.progress import BatchProgress
    from sim.batch.spec import RunOptions
    from sim.core.tally import StopCheck


NewSpec = tuple[BatchSpec, "str | None"]  # what a new batch plays, and its label


@dataclass(frozen=True)
class NewBatch:
    """A batch the plan creates: its id, what it plays and its label."""

    batch_id: str
    spec: BatchSpec
    label: str | None = None


@dataclass
class Plan:
    """The batches to resume (recorded, unfinished: their missing games) and to create,
    and the records of those already done."""

    create: list[NewBatch] = field(default_factory=list)
    resume: list[dict[str, Any]] = field(default_factory=list)  # their records
    done: list[dict[str, Any]] = field(default_factory=list)  # their records
    group: str | None = None  # the new batches' group id (None: given when run, or fresh)

    @classmethod
    def new(
        cls, specs: Sequence[BatchSpec], ids: Sequence[str] | None = None, label: str | None = None
    ) -> Plan:
        """A plan that creates one batch per spec, named by ``ids`` (default: a fresh group
        id, :func:`batch_ids`), each labelled ``label``."""
        group = new_batch_id() if ids is None else None
        ids = batch_ids(group, len(specs)) if group is not None else ids
        if ids is None or len(specs) != len(ids):
            raise ValueError("give one batch id per spec")
        new = [NewBatch(b, s, label) for b, s in zip(ids, specs, strict=True)]
        return cls(create=new, group=group)

    @classmethod
    def resuming(cls, ids: Sequence[str]) -> Plan:
        """A plan that plays the missing games of the recorded batches ``ids`` (checked and
        read when it runs: ``DsqError`` then for one that is not recorded)."""
        return cls(resume=[{"batch_id": b} for b in ids])

    @property
    def resume_ids(self) -> list[str]:
        """The ids of the batches to resume, in order."""
        return [str(r["batch_id"]) for r in self.resume]

    def games_done(self) -> int:
        """Games already recorded by the batches done and those to resume."""
        return sum(int(r.get("games_done", 0)) for r in self.done + self.resume)

    def games_left(self) -> int:
        """Games the plan plays at most: the new batches' games and the resumed ones'
        missing games."""
        missing = sum(
            max(0, int(r.get("spec", {}).get("games", 0)) - int(r.get("games_done", 0)))
            for r in self.resume
        )
        return missing + sum(b.spec.games for b in self.create)

    def __bool__(self) -> bool:
        return bool(self.create or self.resume)

    def run(
        self,
        data_dir: str | os.PathLike[str] | None,
        *,
        group: str | None = None,
        sprt: str | None = None,
        workers: int = 1,
        scheduler: str | None = None,
        options: RunOptions | None = None,
        progress: BatchProgress | None = None,
        stop_check: StopCheck | None = None,
    ) -> list[dict[str, Any]]:
        """Play the plan: the batches to resume first, then the new ones (group id
        ``group``, default the plan's, each with ``sprt``); their final records, in that
        order."""
        # lazy: start-up time (the runner loads the workers' machinery; a plan is read first)
        from sim.batch.run import run_batches

        common: dict[str, Any] = dict(
            workers=workers, scheduler=scheduler, options=options, progress=progress
        )
        records: list[dict[str, Any]] = []
        if self.resume:
            records += run_batches(
                data_dir=data_dir, resume=self.resume_ids, stop_check=stop_check, **common
            )
        if self.create:
            labels = [b.label for b in self.create]
            one = len(set(labels)) == 1  # else every batch has its own (a study's cells)
            records += run_batches(
                [b.spec for b in self.create],
                data_dir,
                ids=[b.batch_id for b in self.create],
                label=labels[0] if one else None,
                labels=None if one else [x for x in labels if x is not None],
                batch_id=group or self.group,
                sprt=sprt,
                stop_check=stop_check,
                **common,
            )
        return records


def recorded(data_dir: Path, batch_id: str) -> dict[str, Any] | None:
    """The record of batch ``batch_id``, or None when it is not (readably) recorded."""
    try:
        return read_batch_record(data_dir, batch_id)
    except DsqError:
        return None


def plan_batches(
    data_dir: str | os.PathLike[str] | None,
    ids: Sequence[str],
    new: Callable[[int], NewSpec],
) -> Plan:
    """The plan for the batches ``ids``: each one done is kept, each one recorded and
    unfinished (interrupted, killed or cancelled) is resumed, and each one missing is
    created from ``new(i)`` (its spec and label; called only for those)."""
    d = resolve_data_dir(data_dir)
    plan = Plan()
    for i, bid in enumerate(ids):
        rec = recorded(d, bid)
        if rec is None:
            spec, label = new(i)
            plan.create.append(NewBatch(bid, spec, label))
        elif rec.get("status") == "done":
            plan.done.append(rec)
        else:
            plan.resume.append(rec)
    return plan


def _flat(obj: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(obj, dict):
        out: dict[str, Any] = {}
        for k, v in obj.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: obj}


def plan_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two recorded plans of a study or a tournament, in words
    (``games.per_cell: 200 -> 300``)."""
    changes: list[str] = []
    oc, nc = old.get("cells", []), new.get("cells", [])
    if oc != nc:
        gone = [" ".join(map(str, c)) for c in oc if c not in nc]
        added = [" ".join(map(str, c)) for c in nc if c not in oc]
        text = "cells"
        if gone:
            text += f" removed: {'; '.join(gone[:3])}" + (" ..." if len(gone) > 3 else "")
        if added:
            text += f" added: {'; '.join(added[:3])}" + (" ..." if len(added) > 3 else "")
        changes.append(text if gone or added else "cells reordered")
    fo = _flat({k: v for k, v in old.items() if k != "cells"})
    fn = _flat({k: v for k, v in new.items() if k != "cells"})
    for key in sorted(set(fo) | set(fn)):
        if fo.get(key) != fn.get(key):
            changes.append(f"{key}: {fo.get(key)!r} -> {fn.get(key)!r}")
    return changes
