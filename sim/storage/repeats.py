"""Each game counts once: a game is identified by (batch id, game index).

A copy of a part file beside it (a file-sync tool's "conflict copy", a backup restored
twice) repeats its games; so does a file moved into another batch's folder. Readers keep,
for each batch, the files dsq named itself (``part-<first>-<n>-<token>.parquet`` whose
games are indeed ``first .. first+n-1``) first, then the others by name, and leave out
every file that repeats a game already kept, naming the file it repeats (wherever it lies:
the batch is the one its rows name). A file whose rows name no valid batch id
(``../../etc``) is left out too. ``dsq simulate --resume``
moves such files, and links and special files, aside into the batch folder's hidden
``.set-aside/`` folder (:func:`set_aside`), which no reader looks into.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from sim.storage.paths import BATCH_ID_RE, games_dir, special_reason
from sim.storage.verify import Games, verify_with_games

PART_RE = re.compile(r"part-(\d+)-(\d+)-[0-9a-f]+\.parquet")
ASIDE_DIR = ".set-aside"


def _own_name(path: Path, games: Games) -> bool:
    m = PART_RE.fullmatch(path.name)
    return m is not None and int(m[1]) == games[1] and int(m[2]) == games[3]


def find_repeats(data_dir: Path, files: dict[Path, Games | None]) -> list[tuple[Path, str]]:
    """The files to leave out of ``files`` (verified files and the games they hold), with
    why: their rows name no valid batch id, or they repeat games already kept."""
    out: list[tuple[Path, str]] = []
    by_batch: dict[str, list[tuple[Path, Games]]] = {}
    for p, games in files.items():
        if games is None:
            continue
        if not BATCH_ID_RE.fullmatch(games[0]) or ".." in games[0]:
            out.append((p, f"its rows name batch {games[0][:100]!r}, not a batch id"))
            continue
        by_batch.setdefault(games[0], []).append((p, games))
    for batch, items in by_batch.items():
        items.sort(key=lambda item: (not _own_name(*item), item[0].name))
        out += _repeats_in(batch, items)
    return out


def _repeats_in(batch: str, items: list[tuple[Path, Games]]) -> list[tuple[Path, str]]:
    """The files of one batch (in the order they are kept) that repeat a kept game. Files
    whose index ranges do not overlap are decided from the ranges alone; where ranges
    overlap (a driver that gathers games may write non-contiguous indices), the files'
    game indices are read and compared."""
    by_first = sorted(items, key=lambda item: item[1][1])
    overlapping: set[Path] = set()
    reach, holder = -1, None
    for p, (_, first, last, _) in by_first:
        if first <= reach and holder is not None:
            overlapping.update((p, holder))
        if last > reach:
            reach, holder = last, p
    if not overlapping:
        return []
    low = min(g[1] for p, g in items if p in overlapping)
    high = max(g[2] for p, g in items if p in overlapping)
    dense = high - low < 1 << 26  # else a sparse map (a hostile file's far-apart indices)
    owner = np.full(high - low + 1 if dense else 0, -1, dtype=np.int32)
    sparse: dict[int, int] = {}
    out = []
    for k, (p, (_, first, last, rows)) in enumerate(items):
        if p not in overlapping:
            continue
        if last - first + 1 == rows:
            index = np.arange(first, last + 1, dtype=np.int64)
        else:
            try:
                index = pq.read_table(p, columns=["game_index"]).column(0).to_numpy()
            except Exception:  # noqa: BLE001 - changed since verified: the next read decides
                continue
            index = index.astype(np.int64)
        if dense:
            held = owner[index - low]
            first_held = int(held[held >= 0][0]) if (held >= 0).any() else -1
        else:
            first_held = next((sparse[i] for i in index.tolist() if i in sparse), -1)
        if first_held >= 0:
            other = items[first_held][0]
            out.append((p, f"repeats games of batch {batch} already counted from {other.name}"))
            continue
        if dense:
            owner[index - low] = k
        else:
            sparse.update(dict.fromkeys(index.tolist(), k))
    return out


def set_aside(data_dir: Path, batch_id: str) -> list[str]:
    """Move the files of a batch's folder that must not count (repeats, files of another
    batch, links and special files) into its ``.set-aside/`` folder; one line per file
    moved, saying why."""
    folder = games_dir(Path(data_dir), batch_id)
    if not folder.is_dir():
        return []
    names = sorted(n for n in os.listdir(folder) if n.endswith(".parquet") and n[0] != ".")
    bad = [(folder / n, special_reason(folder / n)) for n in names]
    moves = [(p, why) for p, why in bad if why is not None]
    regular = [p for p, why in bad if why is None]
    verdicts = verify_with_games(regular)
    moves += find_repeats(Path(data_dir), {p: v[1] for p, v in verdicts.items() if v[0] is None})
    notes = []
    for p, why in moves:
        aside = folder / ASIDE_DIR
        aside.mkdir(exist_ok=True)
        dest = aside / p.name
        n = 1
        while os.path.lexists(dest):
            n += 1
            dest = aside / f"{p.stem}.{n}{p.suffix}"
        os.replace(p, dest)
        notes.append(f"moved {p} aside to {dest}: {why}")
    return notes
