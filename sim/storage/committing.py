"""The files a batch record announces before they are committed, and how readers count them.

A games file and the batch record are two files: no single rename updates both. So the
recorder writes the record *before* it puts a file in place, naming the file in the
record's ``committing`` list with the totals the batch has once that file is there::

    "games_done": 4000, "counts": {...},            # games in files already in place
    "committing": [{"file": "part-000004000-2000-1a2b3c4d.parquet",
                    "games_done": 6000, "counts": {...}}, ...]

Entries are in commit order and each holds the totals once it *and every entry before
it* are in place. A reader (:func:`resolve_committing`, applied by every reader of
records) takes the totals of the last entry of the longest run of entries whose file
exists, and empties the list. So at every moment, before, during and after a commit, and
after a crash between any two of its steps, the record a reader gets counts exactly the
games of the files in place: never fewer, never more.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.storage.paths import games_dir

COMMITTING = "committing"


def entry_ok(entry: Any) -> bool:
    """Whether ``entry`` is a well-formed ``committing`` entry (the file is a plain name
    in the batch's games folder; the totals are whole numbers)."""
    if not isinstance(entry, dict):
        return False
    name, done, counts = entry.get("file"), entry.get("games_done"), entry.get("counts")
    if not isinstance(name, str) or not name.endswith(".parquet") or name.startswith("."):
        return False
    if "/" in name or "\\" in name:
        return False
    if not isinstance(done, int) or isinstance(done, bool) or done < 0:
        return False
    return isinstance(counts, dict) and all(
        isinstance(counts.get(k), int) and counts[k] >= 0 for k in ("red", "blue", "draw")
    )


def committing_ok(value: Any) -> bool:
    """Whether ``value`` is a valid ``committing`` list (see :func:`entry_ok`)."""
    return isinstance(value, list) and all(entry_ok(e) for e in value)


def resolve_committing(record: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """``record`` with its ``committing`` list folded into ``games_done`` and ``counts``
    as the files in place say, and emptied (see the module docstring); a record without a
    list, or with an empty one, is returned as it is. Costs one ``stat`` per listed file."""
    entries = record.get(COMMITTING)
    if not entries:
        return record
    out = {**record, COMMITTING: []}
    if not committing_ok(entries):
        return out
    folder = games_dir(Path(data_dir), str(record["batch_id"]))
    for entry in entries:
        if not (folder / entry["file"]).is_file():
            break
        out["games_done"], out["counts"] = entry["games_done"], dict(entry["counts"])
    return out
