"""Merging a batch's many small games files into few large ones, crash-safe.

A merge turns source files ``S1 .. Sk`` of one batch (dsq's own names, kept by the
readers, in the batch's folder) into one target file ``M`` holding exactly their games,
sorted by ``game_index``, in these steps:

1. the journal ``games/<batch_id>/.compact.json`` (hidden: readers never look at it) is
   written atomically, naming the sources, the target and the games it will hold;
2. ``M`` is written under a temporary name, read back (page checksums checked), renamed
   into place and its verdict cached (:func:`sim.storage.writing.write_games_chunk`);
3. the sources are removed, one at a time: first the one whose name sorts before ``M``'s
   (at most one, the source starting at the same game index), then the others;
4. the journal is removed.

Why a reader (:mod:`sim.storage.repeats`) counts each game exactly once at every moment:
``M`` carries a name dsq gives its own files, so readers rank it with the sources, by
name, and keep each file that repeats no game already kept. Other files of the batch hold
none of these games, so they are kept or left out as before. Before step 2 and after step
3 only the sources, or only ``M``, hold the games. During them: if no source sorts before
``M``, ``M`` is kept and every source left remaining repeats it; if ``S1`` sorts before
``M``, ``S1`` is kept, ``M`` repeats it and is left out, the other sources are kept, and
step 3 removes ``S1`` first, which hands every game to ``M`` in one unlink. A batch one of
whose own-named files already repeats kept games is not compacted (the ranking would no
longer decide from the sources and ``M`` alone).

After a crash (``kill -9`` at any point) the journal tells the next compaction what to do
(:func:`finish_journal`): with ``M`` in place and verified, finish step 3; without it
(or with ``M`` not as planned while every source is still there), roll back. Temporary files
of dead writers are removed first. The caller holds the batch's lock
(:class:`sim.storage.locks.BatchLock`) throughout.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from engine.errors import DsqError
from sim.storage.atomic import atomic_write_json, fsync_dir
from sim.storage.committing import COMMITTING, resolve_committing
from sim.storage.paths import (
    BATCH_ID_RE,
    GAMES_DIR,
    batch_path,
    games_dir,
    read_bounded,
    special_reason,
)
from sim.storage.repeats import ASIDE_DIR, PART_RE, find_repeats
from sim.storage.schema import GAME_SCHEMA
from sim.storage.verify import Games, inspect, verify_with_games
from sim.storage.writing import chunk_file_name, remove_stale_temp_files, write_games_chunk

JOURNAL_NAME = ".compact.json"
TARGET_GAMES = 1_000_000  # games per merged file at most (--target-games)
TARGET_BYTES = 32 << 20  # bytes of source files per merged file at most (memory bound)

# Called with the name of each step just done ("journal", "target", "removed <n>",
# "done"): tests stop the process there. None in normal use.
STEP_HOOK: Callable[[str], None] | None = None


def _step(name: str) -> None:
    if STEP_HOOK is not None:
        STEP_HOOK(name)


@dataclass(frozen=True)
class Merge:
    """One planned merge: the source names (in game order) into ``target``."""

    target: str
    sources: tuple[str, ...]
    first: int
    last: int
    rows: int

    def removal_order(self) -> list[str]:
        """The sources in the order step 3 removes them: the one sorting before the
        target's name first (see the module docstring)."""
        return sorted(self.sources, key=lambda s: (s > self.target, s))

    def to_json(self) -> dict[str, Any]:
        """The journal's content."""
        return {
            "version": 1,
            "target": self.target,
            "sources": list(self.sources),
            "first": self.first,
            "last": self.last,
            "rows": self.rows,
        }


@dataclass
class BatchPlan:
    """What one batch's folder holds and what compacting it does."""

    batch_id: str
    merges: list[Merge] = field(default_factory=list)
    left_alone: list[tuple[str, str]] = field(default_factory=list)
    blocked: str | None = None


@dataclass
class BatchResult:
    """One batch compacted: its files, games and bytes before and after, and notes."""

    batch_id: str
    files_before: int = 0
    files_after: int = 0
    games: int = 0
    bytes_before: int = 0
    bytes_after: int = 0
    merged: int = 0
    notes: list[str] = field(default_factory=list)
    left_alone: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The batch's object in ``dsq compact --json``."""
        return {
            "batch_id": self.batch_id,
            "files_before": self.files_before,
            "files_after": self.files_after,
            "games": self.games,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "merges": self.merged,
            "notes": self.notes,
            "left_alone": [{"file": f, "reason": r} for f, r in self.left_alone],
        }


def batch_folders(data_dir: Path) -> list[str]:
    """The batch ids that have a games folder, sorted."""
    root = Path(data_dir) / GAMES_DIR
    if not root.is_dir():
        return []
    return sorted(
        n
        for n in os.listdir(root)
        if BATCH_ID_RE.fullmatch(n) and ".." not in n and (root / n).is_dir()
    )


def _all_parquet(data_dir: Path) -> list[Path]:
    """Every ``*.parquet`` file a reader looks at (hidden names and folders excluded)."""
    out: list[Path] = []
    for root, dirs, files in os.walk(data_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out += [Path(root) / n for n in files if n.endswith(".parquet") and n[0] != "."]
    return sorted(out)


def _own(name: str, games: Games) -> bool:
    m = PART_RE.fullmatch(name)
    return m is not None and int(m[1]) == games[1] and int(m[2]) == games[3]


def _folder_files(folder: Path) -> list[Path]:
    return sorted(folder / n for n in os.listdir(folder) if n.endswith(".parquet") and n[0] != ".")


def folder_totals(folder: Path) -> tuple[int, int]:
    """The number of ``*.parquet`` files in a batch folder and their bytes."""
    files = _folder_files(folder)
    return len(files), sum(p.lstat().st_size for p in files)


def plan_batch(
    data_dir: Path,
    batch_id: str,
    target_games: int = TARGET_GAMES,
    target_bytes: int = TARGET_BYTES,
) -> BatchPlan:
    """Decide which files of a batch merge into which (see :class:`BatchPlan`): runs of
    consecutive own files, in game order, of at most ``target_games`` games and
    ``target_bytes`` bytes of files each. Files that are not dsq's own, or that the
    readers leave out, are listed in ``left_alone`` with why."""
    data_dir = Path(data_dir)
    folder = games_dir(data_dir, batch_id)
    plan = BatchPlan(batch_id)
    aside = folder / ASIDE_DIR
    if aside.is_dir():
        for n in sorted(os.listdir(aside)):
            plan.left_alone.append((f"{ASIDE_DIR}/{n}", "set aside"))
    everything = _all_parquet(data_dir)
    regular = [p for p in everything if special_reason(p) is None]
    verdicts = verify_with_games(regular)
    games: dict[Path, Games | None] = {
        p: v[1] for p, v in verdicts.items() if v[0] is None and v[1] is not None
    }
    repeats = dict(find_repeats(data_dir, games))
    for p in everything:
        g = games.get(p)
        if g is not None and g[0] == batch_id and p in repeats and _own(p.name, g):
            plan.blocked = (
                f"{p.name} is named like dsq's own files but {repeats[p]}: "
                "move it out of the data folder first"
            )
    candidates: list[tuple[Path, Games]] = []
    for p in _folder_files(folder):
        g = games.get(p)
        why = special_reason(p) or (verdicts[p][0] if p in verdicts else None)
        if why is None and g is None:
            why = "holds no games"
        if why is None and g is not None:
            why = repeats.get(p)
            if why is None and g[0] != batch_id:
                why = f"holds games of batch {g[0]}"
            if why is None and not _own(p.name, g):
                why = "not named as dsq names its files"
        if why is None and g is not None:
            candidates.append((p, g))
        else:
            plan.left_alone.append((p.name, str(why)))
    if plan.blocked is None:
        plan.merges = _group(folder, candidates, target_games, target_bytes)
    return plan


def _group(
    folder: Path, files: list[tuple[Path, Games]], target_games: int, target_bytes: int
) -> list[Merge]:
    """Runs of consecutive files (in game order) within the limits, of two files or more."""
    files = sorted(files, key=lambda item: item[1][1])
    runs: list[list[tuple[Path, Games]]] = []
    run: list[tuple[Path, Games]] = []
    rows = size = 0
    for p, g in files:
        b = p.stat().st_size
        if run and (rows + g[3] > target_games or size + b > target_bytes):
            runs.append(run)
            run, rows, size = [], 0, 0
        run.append((p, g))
        rows, size = rows + g[3], size + b
    runs.append(run)
    merges = []
    for r in runs:
        if len(r) < 2:
            continue
        first, last, n = r[0][1][1], max(g[2] for _, g in r), sum(g[3] for _, g in r)
        target = chunk_file_name(first, n)
        while (folder / target).exists():
            target = chunk_file_name(first, n)
        m = Merge(target, tuple(p.name for p, _ in r), first, last, n)
        if sum(s < target for s in m.sources) <= 1:  # always so below 10^9 games
            merges.append(m)
    return merges


def _read_source(path: Path) -> pa.Table:
    """A games file as a GAME_SCHEMA table (columns its version lacks are null)."""
    t = pq.read_table(path)
    cols = [
        t.column(f.name).cast(f.type) if f.name in t.column_names else pa.nulls(len(t), f.type)
        for f in GAME_SCHEMA
    ]
    return pa.Table.from_arrays(cols, schema=GAME_SCHEMA)


def _unlink(path: Path) -> None:
    path.unlink(missing_ok=True)
    fsync_dir(path.parent)


def merge(data_dir: Path, batch_id: str, m: Merge) -> None:
    """Carry out one merge, steps 1 to 4 of the module docstring (the lock held)."""
    folder = games_dir(Path(data_dir), batch_id)
    atomic_write_json(folder / JOURNAL_NAME, m.to_json())
    _step("journal")
    tables = []
    for name in m.sources:  # one file at a time; the group is bounded by the plan
        tables.append(_read_source(folder / name))
    table = pa.concat_tables(tables)
    del tables
    write_games_chunk(Path(data_dir), batch_id, table, name=m.target)
    del table
    _step("target")
    _remove_sources(folder, m)


def _remove_sources(folder: Path, m: Merge) -> None:
    for k, name in enumerate(m.removal_order(), 1):
        _unlink(folder / name)
        _step(f"removed {k}")
    _unlink(folder / JOURNAL_NAME)
    _step("done")


def _load_journal(path: Path) -> Merge:
    data = json.loads(read_bounded(path).decode("utf-8"))
    names = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(names, list) or not names:
        raise ValueError("not a compaction journal")
    ok = (
        isinstance(data.get("target"), str)
        and all(isinstance(n, str) and PART_RE.fullmatch(n) for n in [*names, data["target"]])
        and all(isinstance(data[k], int) for k in ("first", "last", "rows"))
    )
    if not ok:
        raise ValueError("not a compaction journal")
    return Merge(data["target"], tuple(names), data["first"], data["last"], data["rows"])


def finish_journal(data_dir: Path, batch_id: str) -> str | None:
    """Finish or roll back a merge a crash interrupted (see the module docstring); say
    which, or None when there was none. ``DsqError`` when neither is safe."""
    folder = games_dir(Path(data_dir), batch_id)
    remove_stale_temp_files(folder)
    path = folder / JOURNAL_NAME
    if not os.path.lexists(path):
        return None
    try:
        m = _load_journal(path)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DsqError(f"batch {batch_id}: unreadable {path} ({exc}); remove it") from None
    target = folder / m.target
    verdict, games = inspect(target) if target.is_file() else ("missing", None)
    if verdict is None and games == (batch_id, m.first, m.last, m.rows):
        _remove_sources(folder, m)
        return f"finished an interrupted merge into {m.target}"
    if all((folder / s).is_file() for s in m.sources):
        if verdict != "missing":
            _unlink(target)
        _unlink(path)
        return f"rolled back an interrupted merge into {m.target}"
    raise DsqError(
        f"batch {batch_id}: an interrupted merge into {m.target} cannot be finished "
        f"({verdict}) and some of its sources are gone; see {path}"
    )


def fold_committing(data_dir: Path, batch_id: str) -> bool:
    """Fold the batch record's ``committing`` list into its totals (as every reader does)
    and write it back, so removing files never changes what the record says; return
    whether it was rewritten. An unreadable record is left alone."""
    path = batch_path(Path(data_dir), batch_id)
    try:
        record = json.loads(read_bounded(path).decode("utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(record, dict) or not record.get(COMMITTING):
        return False
    atomic_write_json(path, resolve_committing(record, Path(data_dir)))
    return True


def compact_batch(
    data_dir: Path,
    batch_id: str,
    target_games: int = TARGET_GAMES,
    target_bytes: int = TARGET_BYTES,
) -> BatchResult:
    """Compact one batch (its lock held by the caller): finish an interrupted merge, plan,
    merge group after group; return what changed."""
    data_dir = Path(data_dir)
    folder = games_dir(data_dir, batch_id)
    res = BatchResult(batch_id)
    note = finish_journal(data_dir, batch_id)
    if note:
        res.notes.append(note)
    res.files_before, res.bytes_before = folder_totals(folder)
    plan = plan_batch(data_dir, batch_id, target_games, target_bytes)
    res.left_alone = plan.left_alone
    if plan.blocked:
        res.notes.append(f"not compacted: {plan.blocked}")
    elif plan.merges and fold_committing(data_dir, batch_id):
        res.notes.append("folded the record's committing list into its totals")
    for m in plan.merges:
        merge(data_dir, batch_id, m)
        res.merged += 1
    res.files_after, res.bytes_after = folder_totals(folder)
    res.games = sum(g[3] for _, g in _kept(folder, batch_id))
    return res


def _kept(folder: Path, batch_id: str) -> list[tuple[Path, Games]]:
    """The batch's files in its folder that readers count, with their games."""
    files = [p for p in _folder_files(folder) if special_reason(p) is None]
    v = verify_with_games(files)
    games: dict[Path, Games | None] = {
        p: g for p, (r, g) in v.items() if r is None and g is not None and g[0] == batch_id
    }
    left_out = dict(find_repeats(folder.parent.parent, games))
    return [(p, g) for p, g in games.items() if g is not None and p not in left_out]
