"""The address of a whole-selection download: the selection in a query string and back.

``/dsq/games.<ext>?rules=...&bots=...`` names the same games as the Games page's sidebar
and filters (:class:`~sim.stats.query.Selection`, winners, end reasons). Reading a query
checks every name and value and bounds their number and length: bad input is one
:class:`DsqError` line.
"""

from __future__ import annotations

from urllib.parse import urlencode

from engine.errors import DsqError
from sim.stats.query import Selection
from sim.storage.schema import REASONS, WINNERS

ROUTE = "/dsq/games.{ext}"
EXTENSIONS = {"txt": "text", "csv": "csv", "jsonl": "jsonl", "parquet": "parquet"}
LISTS = ("rules", "bots", "batches", "winners", "reasons")
FLAGS = ("between", "humans", "adjudicated", "voids")
MAX_QUERY = 16_000  # characters of the whole query string
MAX_VALUES = 100  # values of one name
MAX_VALUE = 400  # characters of one value
MAX_PLIES = 10**6


def download_path(
    selection: Selection, winners: tuple[str, ...], reasons: tuple[str, ...], ext: str
) -> str:
    """The address (relative to the app's pages) that downloads the whole selection."""
    pairs: list[tuple[str, str]] = []
    values = selection.to_dict()
    for name in ("rules", "bots", "batches"):
        pairs += [(name, v) for v in values[name]]
    pairs += [("winners", w) for w in winners] + [("reasons", r) for r in reasons]
    if selection.colour:
        pairs.append(("colour", selection.colour))
    if selection.min_plies:
        pairs.append(("min_plies", str(selection.min_plies)))
    pairs += [(flag, "1" if values[flag] else "0") for flag in FLAGS]
    return ROUTE.format(ext=ext).lstrip("/") + "?" + urlencode(pairs)


def _flag(name: str, value: str) -> bool:
    if value in ("1", "true"):
        return True
    if value in ("0", "false"):
        return False
    raise DsqError(f"{name} must be 0 or 1, got {value[:40]!r}")


def parse_query(
    query: str, pairs: list[tuple[str, str]]
) -> tuple[Selection, tuple[str, ...], tuple[str, ...]]:
    """The selection, winners and end reasons of a query string (``query`` as sent, for
    its length; ``pairs`` its decoded names and values, in order)."""
    if len(query) > MAX_QUERY:
        raise DsqError(f"the query is longer than {MAX_QUERY} characters")
    lists: dict[str, list[str]] = {name: [] for name in LISTS}
    single: dict[str, str] = {}
    for name, value in pairs:
        if len(value) > MAX_VALUE:
            raise DsqError(f"a value of {name[:40]!r} is longer than {MAX_VALUE} characters")
        if name in lists:
            if len(lists[name]) >= MAX_VALUES:
                raise DsqError(f"more than {MAX_VALUES} values of {name!r}")
            lists[name].append(value)
        elif name in (*FLAGS, "colour", "min_plies"):
            if name in single:
                raise DsqError(f"{name!r} given twice")
            single[name] = value
        else:
            raise DsqError(f"unknown query name {name[:40]!r}")
    for name, allowed in (("winners", WINNERS), ("reasons", REASONS)):
        for value in lists[name]:
            if value not in allowed:
                raise DsqError(f"unknown {name[:-1]} {value[:40]!r}")
    plies = single.get("min_plies", "0")
    if not plies.isdigit() or not plies.isascii() or int(plies) > MAX_PLIES:
        raise DsqError(f"min_plies must be a whole number up to {MAX_PLIES}")
    flags = {name: _flag(name, single[name]) for name in FLAGS if name in single}
    selection = Selection(
        rules=tuple(lists["rules"]),
        bots=tuple(lists["bots"]),
        batches=tuple(lists["batches"]),
        colour=single.get("colour") or None,
        min_plies=int(plies),
        **flags,
    )
    return selection, tuple(lists["winners"]), tuple(lists["reasons"])
