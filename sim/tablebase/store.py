"""Where tables live, their file format, and loading them (checked, cached per process).

Layout under a data folder (``--data DIR``, else ``$DSQ_DATA``, else ``data/``)::

    DIR/tablebases/<rules key>/<material>.dsqtb      e.g. standard+no_capture_plies=0/LR_v_e.dsqtb

The rules key is the canonical spec of the rule set with the options about a game's
history rather than its position set to the values their declaration gives tables
(``table_value`` in :mod:`engine.ruleset_options`: ``rule_7_3=false``,
``rule_17_5=false``, ``no_capture_plies=0``): rule sets that differ only in those share
their tables.

A file is a header line and a zstd-compressed body: ``DSQTB <format version> <header
length>\\n``, a JSON header (rules key, material, index size, the counts of ``stats``, the
body's length and its CRC-32 before and after compression), then the body: one byte per
index entry (:mod:`sim.tablebase.outcomes`). Files are written atomically; a file whose
header, sizes or checksums do not match is refused with a message saying so (``dsq
tablebase build`` replaces it).
"""

from __future__ import annotations

import json
import os
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from engine.errors import DsqError
from engine.rules import Ruleset, parse_rules
from engine.ruleset_options import OPTIONS
from sim.storage.atomic import atomic_write_bytes
from sim.storage.paths import resolve_data_dir
from sim.tablebase.material import Material, parse_material

MAGIC = b"DSQTB"
FORMAT_VERSION = 2
SUFFIX = ".dsqtb"
TABLES_DIR = "tablebases"
CODEC = "zstd"
CACHE_BYTES = 512 * 1024 * 1024  # tables kept in memory per process (least recently used go)
TABLE_VALUES: dict[str, Any] = {o.name: o.table_value for o in OPTIONS if o.table_value is not None}


class TableError(DsqError):
    """A table file that is missing, damaged, or not what its name says."""


def table_ruleset(rules: Ruleset | str | None) -> Ruleset:
    """The rule set a table describes: ``rules`` without the anti-chasing rules and the
    no-capture clock (a table describes a position, not its history)."""
    return replace(parse_rules(rules), **TABLE_VALUES)


def rules_key(rules: Ruleset | str | None) -> str:
    """The folder name of a rule set's tables: the canonical spec of :func:`table_ruleset`."""
    return table_ruleset(rules).spec


def tables_root(data: str | os.PathLike[str] | None = None) -> Path:
    """The folder holding every rule set's tables: ``<data folder>/tablebases`` (the data
    folder: ``data`` if given, else ``$DSQ_DATA``, else ``data/`` in the project). Whoever
    builds a bot that probes hands it this folder (``sim.bots.context.BotContext``)."""
    return resolve_data_dir(data) / TABLES_DIR


def table_path(root: Path, rules: Ruleset | str, material: Material | str) -> Path:
    """The file of one table."""
    m = parse_material(material)
    return Path(root) / rules_key(rules) / f"{m.file_stem}{SUFFIX}"


@dataclass(frozen=True)
class Table:
    """A loaded table: its rules key, material, values (one byte per index entry) and the
    header it was stored with."""

    key: str
    material: Material
    values: np.ndarray
    header: dict[str, Any]


def encode_table(key: str, material: Material, values: np.ndarray, counts: dict[str, Any]) -> bytes:
    """The bytes of a table file."""
    raw = np.ascontiguousarray(values, dtype=np.uint8)
    body = pa.compress(raw.tobytes(), codec=CODEC, asbytes=True)
    header = {
        "format": FORMAT_VERSION,
        "rules": key,
        "material": material.name,
        "size": int(raw.size),
        "codec": CODEC,
        "body_bytes": len(body),
        "crc32": zlib.crc32(raw.tobytes()),
        "body_crc32": zlib.crc32(body),
        **counts,
    }
    header["header_crc32"] = header_crc(header)
    text = json.dumps(header, sort_keys=True).encode()
    return MAGIC + f" {FORMAT_VERSION} {len(text)}\n".encode() + text + body


def header_crc(header: dict[str, Any]) -> int:
    """The CRC-32 of a header's fields other than ``header_crc32`` (canonical JSON)."""
    rest = {k: v for k, v in header.items() if k != "header_crc32"}
    return zlib.crc32(json.dumps(rest, sort_keys=True, separators=(",", ":")).encode())


def write_table(
    path: Path, key: str, material: Material, values: np.ndarray, counts: dict[str, Any]
) -> None:
    """Write a table file atomically (temporary name, fsync, rename); TableError when the
    folder cannot be written (not a folder, no permission, disk full)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, encode_table(key, material, values, counts))
    except OSError as exc:
        raise TableError(f"cannot write table file {path}: {exc.strerror or exc}") from None


def _damaged(path: Path, why: str) -> TableError:
    return TableError(
        f"table file {path} is damaged or not a table ({why}); dsq tablebase build replaces it"
    )


def read_header(path: Path) -> tuple[dict[str, Any], int]:
    """The JSON header of a table file and where its body starts; TableError if unreadable."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(64)
            parts = first.split()
            sized = len(parts) == 3 and parts[2].isdigit() and 0 < int(parts[2]) < 1 << 20
            text = fh.read(int(parts[2])) if sized else b""
    except OSError as exc:
        raise TableError(f"cannot read table file {path}: {exc.strerror or exc}") from None
    if len(parts) != 3 or parts[0] != MAGIC or not text:
        raise _damaged(path, "no table header")
    if parts[1] != str(FORMAT_VERSION).encode():
        raise TableError(
            f"table file {path} has format {parts[1].decode(errors='replace')}, "
            f"this version reads format {FORMAT_VERSION}; dsq tablebase build replaces it"
        )
    try:
        header = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        header = None
    if not isinstance(header, dict):
        raise _damaged(path, "unreadable header")
    if header.get("header_crc32") != header_crc(header):
        raise _damaged(path, "header checksum mismatch: the header was changed")
    return header, len(first) + len(text)


def load_table(path: Path, key: str, material: Material) -> Table:
    """Read and check a table file: it must be the table of ``key`` and ``material``,
    whole and unchanged. Raises TableError (missing, foreign or damaged)."""
    if not path.is_file():
        raise TableError(f"no table {material.name} for rules {key} (looked for {path})")
    header, start = read_header(path)
    if header.get("rules") != key or header.get("material") != material.name:
        raise TableError(
            f"table file {path} holds {header.get('material')!r} for rules "
            f"{header.get('rules')!r}, not {material.name} for {key}; rebuild it"
        )
    want = header.get("body_bytes")
    if header.get("size") != material.size or not isinstance(want, int) or want < 0:
        raise _damaged(path, "wrong size")
    try:
        with open(path, "rb") as fh:
            fh.seek(start)
            body = fh.read(want + 1)  # never more than the header promises
    except OSError as exc:
        raise TableError(f"cannot read table file {path}: {exc.strerror or exc}") from None
    if len(body) != want:
        raise _damaged(path, "wrong size")
    if zlib.crc32(body) != header.get("body_crc32"):
        raise _damaged(path, "checksum mismatch")
    try:
        raw = pa.decompress(body, decompressed_size=material.size, codec=CODEC, asbytes=True)
    except (pa.ArrowException, ValueError, OSError):
        raise _damaged(path, "cannot decompress") from None
    if zlib.crc32(raw) != header.get("crc32"):
        raise _damaged(path, "checksum mismatch")
    values = np.frombuffer(raw, dtype=np.uint8)
    values.flags.writeable = False
    return Table(key, material, values, header)


class TableCache:
    """Tables loaded from one tables folder, kept in memory up to ``max_bytes`` (least
    recently used dropped first); a table whose file changed is read again."""

    def __init__(self, root: Path, max_bytes: int = CACHE_BYTES) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self._tables: OrderedDict[tuple[str, str], tuple[tuple[int, int], Table]] = OrderedDict()
        self._lock = threading.Lock()

    def path(self, key: str, material: Material) -> Path:
        """The file of a table in this folder."""
        return self.root / key / f"{material.file_stem}{SUFFIX}"

    def get(self, key: str, material: Material) -> Table | None:
        """The table of ``key`` and ``material``, or None when it is not on disk. A damaged
        file raises TableError."""
        path = self.path(key, material)
        try:
            st = path.stat()
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        with self._lock:
            hit = self._tables.get((key, material.name))
            if hit is not None and hit[0] == stamp:
                self._tables.move_to_end((key, material.name))
                return hit[1]
        table = load_table(path, key, material)
        with self._lock:
            self._tables[(key, material.name)] = (stamp, table)
            total = sum(t.values.nbytes for _, t in self._tables.values())
            while total > self.max_bytes and len(self._tables) > 1:
                _, (_, old) = self._tables.popitem(last=False)
                total -= old.values.nbytes
        return table

    def has(self, key: str, material: Material) -> bool:
        """Whether a file for the table exists (not checked)."""
        return self.path(key, material).is_file()

    def materials(self, key: str) -> list[Material]:
        """The materials with a file in this folder for ``key``."""
        folder = self.root / key
        out = []
        if folder.is_dir():
            for p in sorted(folder.glob(f"*{SUFFIX}")):
                try:
                    out.append(parse_material(p.name[: -len(SUFFIX)]))
                except DsqError:
                    continue
        return out


_CACHES: dict[Path, TableCache] = {}
_CACHES_LOCK = threading.Lock()


def cache_for(root: Path | str | None = None) -> TableCache:
    """The process's cache of one tables folder (default: the default data folder's,
    :func:`tables_root`)."""
    folder = Path(root) if root is not None else tables_root()
    with _CACHES_LOCK:
        cache = _CACHES.get(folder)
        if cache is None:
            cache = _CACHES[folder] = TableCache(folder)
        return cache
