"""Which games a statistic looks at: the :class:`Selection` and its parametrized SQL.

Every statistics function takes a DuckDB connection with a ``games`` view (the columns of
:data:`sim.storage.schema.GAME_SCHEMA`) and a :class:`Selection`; user values only ever reach SQL
as ``?`` parameters.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import duckdb
import pandas as pd

from engine.errors import DsqError
from engine.rules import canonical_rules
from sim.bots import BOT_NAMES, BOTS
from sim.bots.spec import HUMAN, canonical_bot, short_spec
from sim.storage.gamesql import (  # noqa: F401 - FIRST_SIDE_SQL, VOID_ROUNDS_SQL re-exported
    ADJUDICATED,
    FIRST_SIDE_SQL,
    VOID_ROUNDS_SQL,
    VOID_SQL,
)
from sim.storage.summary_cache import ensure_views

COLOURS = ("red", "blue")
_ADJUDICATED = ADJUDICATED
# What a selection reads: the games, or the summaries' cells and capture cells.
GAMES, CELLS, CAPTURES = "games", "cells", "capture_cells"


def _tuple(values: Iterable[str] | str | None, what: str) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = (values,)
    out: list[str] = []
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise DsqError(f"empty {what} in the selection")
        if v.strip() not in out:
            out.append(v.strip())
    return tuple(out)


@dataclass(frozen=True)
class Selection:
    """A subset of the recorded games.

    Attributes:
        rules: keep games whose canonical rules spec is one of these (empty: all).
        bots: keep games in which at least one player is one of these (empty: all): a
            canonical bot spec names that player, a bare kind (``alphabeta``) every
            parameter set of that kind (see :func:`bot_filter` and :func:`bot_matches`).
        batches: keep games of these batch ids (empty: all).
        colour: with ``bots``: keep only games in which a listed bot played this colour
            (``"red"`` = moved first, ``"blue"``).
        min_plies: leave out games shorter than this many plies (a plain length filter;
            the Chinese page's 10 rounds are ``yeshou``'s scoring rule, ``void_rounds``).
        between: with ``bots``: keep only games in which *both* players are listed bots.
        humans: also count games a person played (a player recorded as ``human``). They
            are left out by default, so that the figures describe the bots and the rules;
            naming ``human`` among ``bots`` asks for them too.
        adjudicated: count the games the referee adjudicated on the players' search
            scores (reasons ``adjudicated_resign``, ``adjudicated_draw``: results, a
            resign the other side's win, each under its own reason); False leaves them
            out.
        voids: also count the games void under their rule set's scoring rule
            (``void_rounds``: a ``yeshou`` game ending within 10 rounds), as results. They
            are left out of every figure by default and counted apart
            (:func:`void_games`); a list of games (:meth:`where` with ``scored=False``)
            holds them either way.
    """

    rules: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()
    batches: tuple[str, ...] = ()
    colour: str | None = None
    min_plies: int = 0
    between: bool = False
    humans: bool = False
    adjudicated: bool = True
    voids: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", _tuple(self.rules, "rules spec"))
        object.__setattr__(self, "bots", _tuple(self.bots, "bot spec"))
        object.__setattr__(self, "batches", _tuple(self.batches, "batch id"))
        if self.colour is not None and self.colour not in COLOURS:
            raise DsqError(f"colour must be red or blue, got {self.colour!r}")
        if self.colour is not None and not self.bots:
            raise DsqError(
                "a colour selects the games a given bot played as that colour: name a bot"
            )
        if self.between and not self.bots:
            raise DsqError("'between' needs bots to be named")
        if isinstance(self.min_plies, bool) or not isinstance(self.min_plies, int):
            raise DsqError(f"min_plies must be a whole number, got {self.min_plies!r}")
        if self.min_plies < 0:
            raise DsqError(f"min_plies must be 0 or more, got {self.min_plies}")
        if not isinstance(self.humans, bool):
            raise DsqError(f"humans must be true or false, got {self.humans!r}")
        if not isinstance(self.adjudicated, bool):
            raise DsqError(f"adjudicated must be true or false, got {self.adjudicated!r}")
        if not isinstance(self.voids, bool):
            raise DsqError(f"voids must be true or false, got {self.voids!r}")

    @property
    def with_humans(self) -> bool:
        """Whether games a person played are counted (asked for, or ``human`` named)."""
        return self.humans or HUMAN in self.bots

    def names(self, player: str) -> bool:
        """Whether the recorded player ``player`` is one of the selection's bots (True
        when it names none)."""
        return not self.bots or any(bot_matches(b, player) for b in self.bots)

    def with_rules(self, *rules: str) -> Selection:
        """The same selection restricted to other rules specs."""
        return replace(self, rules=tuple(rules))

    def where(self, scored: bool = True, source: str = GAMES) -> tuple[str, list[Any]]:
        """The SQL condition (``?`` placeholders) and its parameters; ``scored=False``
        keeps the void games (a list of games rather than a figure). ``source`` is the
        relation it is for: the games, the summary's cells (the same columns, and whether
        they are void) or its capture cells (which know whether a game is void or
        adjudicated, not its length: a selection with ``min_plies`` reads the games for
        captures)."""
        captures = source == CAPTURES
        conds: list[str] = []
        params: list[Any] = []

        def in_list(column: str, values: tuple[str, ...]) -> str:
            params.extend(values)
            return f"{column} IN ({', '.join('?' for _ in values)})"

        if self.rules:
            conds.append(in_list("rules", self.rules))
        if self.batches:
            conds.append(in_list("batch_id", self.batches))
        if self.bots:
            if self.colour == "red":
                conds.append(bot_condition("red", self.bots, params))
            elif self.colour == "blue":
                conds.append(bot_condition("blue", self.bots, params))
            elif self.between:
                conds.append(bot_condition("red", self.bots, params))
            else:
                a = bot_condition("red", self.bots, params)
                b = bot_condition("blue", self.bots, params)
                conds.append(f"({a} OR {b})")
            if self.between:
                other = "blue" if self.colour != "blue" else "red"
                conds.append(bot_condition(other, self.bots, params))
        if self.min_plies > 0:
            if captures:
                raise DsqError("capture cells do not hold lengths: read the games")
            conds.append("plies >= ?")
            params.append(int(self.min_plies))
        if not self.with_humans:
            conds.append("red <> ? AND blue <> ?")
            params.extend((HUMAN, HUMAN))
        if not self.adjudicated:
            conds.append(
                "NOT adjudicated"
                if captures
                else "NOT " + in_list("coalesce(reason, '')", _ADJUDICATED)
            )
        if scored and not self.voids:
            conds.append(f"NOT {VOID_SQL}" if source == GAMES else "NOT void")
        return (" AND ".join(conds) if conds else "TRUE"), params

    def cte(self, source: str = GAMES) -> tuple[str, list[Any]]:
        """``WITH sel AS (...)`` over the selected rows of ``source`` (the games, or the
        summary's ``cells`` or ``capture_cells``: see :meth:`where`), and its parameters."""
        cond, params = self.where(source=source)
        return f"WITH sel AS (SELECT * FROM {source} WHERE {cond})", params

    def describe(self) -> str:
        """A one-line human description of the selection (bots by their short spec)."""
        parts = [
            "rules: " + (", ".join(self.rules) if self.rules else "all"),
            "bots: " + (", ".join(bot_label(b) for b in self.bots) or "all"),
        ]
        if self.bots and self.between:
            parts[-1] += " (games between them)"
        if self.colour:
            parts.append(f"listed bot as {self.colour}")
        if self.batches:
            parts.append("batches: " + ", ".join(self.batches))
        if self.min_plies:
            parts.append(f"at least {self.min_plies} plies")
        if self.with_humans:
            parts.append("games against people included")
        if not self.adjudicated:
            parts.append("games adjudicated on scores left out")
        if self.voids:
            parts.append("void games counted")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the public fields."""
        return {
            "rules": list(self.rules),
            "bots": list(self.bots),
            "batches": list(self.batches),
            "colour": self.colour,
            "min_plies": self.min_plies,
            "between": self.between,
            "humans": self.humans,
            "adjudicated": self.adjudicated,
            "voids": self.voids,
        }


ALL = Selection()


def void_games(con: duckdb.DuckDBPyConnection, selection: Selection) -> int:
    """How many of the selected games are void under their rule set's scoring rule
    (``void_rounds``), whether or not the selection counts them (``voids``)."""
    cond, params = selection.where(scored=False, source=CELLS)
    sql = f"SELECT coalesce(sum(games), 0) FROM cells WHERE {cond} AND void"
    return int(summary_con(con).execute(sql, params).fetchall()[0][0])


def summary_con(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """``con`` with the summary views (``cells``, ``capture_cells``, ``pair_cells``): those
    of an opened dataset, or, on a connection holding only a ``games`` view, views that
    summarise the games at each query (:func:`sim.storage.summary_cache.define_views`)."""
    return ensure_views(con)


def query_df(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    body: str,
    extra: list[Any] | None = None,
    source: str = GAMES,
) -> pd.DataFrame:
    """Run ``WITH sel AS (selected rows of source) <body>`` and return a DataFrame; rows of
    the summary (``source`` :data:`CELLS` or :data:`CAPTURES`) count ``games`` each."""
    cte, params = selection.cte(source)
    if source != GAMES:
        summary_con(con)
    return con.execute(f"{cte} {body}", params + list(extra or [])).df()


def query_rows(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    body: str,
    extra: list[Any] | None = None,
    source: str = GAMES,
) -> list[tuple[Any, ...]]:
    """Like :func:`query_df`, returning plain tuples."""
    cte, params = selection.cte(source)
    if source != GAMES:
        summary_con(con)
    return con.execute(f"{cte} {body}", params + list(extra or [])).fetchall()


def _kinds() -> tuple[str, ...]:
    return BOT_NAMES


def is_kind(value: str) -> bool:
    """Whether a bot filter value is a bare kind (``alphabeta``), matching every parameter
    set of that kind, rather than one canonical spec."""
    return ":" not in value and value in _kinds()


def bot_filter(written: str) -> str:
    """The bot filter value of a spec as a person writes it: a kind written alone
    (``alphabeta``) stays the kind, which matches every parameter set of it; a spec with
    parameters (``alphabeta:depth=2``) becomes its canonical spec (defaults filled in), which
    matches that one player. ``human`` stays ``human``. DsqError for an unknown bot or
    parameter."""
    text = written.strip()
    if text == HUMAN:
        return HUMAN
    if text.lower() in _kinds():
        return text.lower()

    return canonical_bot(text)


def bot_matches(value: str, player: str) -> bool:
    """Whether the bot filter ``value`` (from :func:`bot_filter`) names the recorded
    ``player`` (a canonical spec, as stored): its kind for a kind, else the same spec,
    pinned or not (a filter without a pin also names the player its evaluation pinned, see
    :func:`sim.bots.pinning.recorded_pattern`)."""
    if is_kind(value):
        return player.partition(":")[0] == value
    if value == player or value == HUMAN:
        return value == player  # a person is only ever recorded as human
    # lazy: start-up time (the bot catalogue and evaluation files: only when a bot is named)
    from sim.bots.pinning import names_recorded

    return names_recorded(value, player)


def bot_condition(column: str, values: tuple[str, ...], params: list[Any]) -> str:
    """The SQL condition that ``column`` holds a player one of ``values`` names (the same
    rule as :func:`bot_matches`), its parameters appended to ``params``."""
    kinds = [v for v in values if is_kind(v)]
    patterns = {v: _pattern(v) for v in values if not is_kind(v)}
    specs = [v for v, p in patterns.items() if p is None]
    conds = []
    if specs:
        params.extend(specs)
        conds.append(f"{column} IN ({', '.join('?' for _ in specs)})")
    for pattern in filter(None, patterns.values()):
        params.append(pattern)
        conds.append(f"regexp_full_match({column}, ?)")
    if kinds:
        params.extend(kinds)
        conds.append(f"split_part({column}, ':', 1) IN ({', '.join('?' for _ in kinds)})")
    return conds[0] if len(conds) == 1 else f"({' OR '.join(conds)})"


def _pattern(value: str) -> str | None:
    """The pattern of the recorded players a spec filter names, None: only itself."""
    if value == HUMAN:
        return None
    # lazy: start-up time (as in bot_matches)
    from sim.bots.pinning import recorded_pattern

    return recorded_pattern(value)


def bot_label(value: str) -> str:
    """A bot filter value (or a recorded player) for a person: the short spec, said to be
    every parameter set for a kind (``alphabeta (any parameters)``) and the defaults for a
    spec whose short form is its kind alone (``alphabeta (default parameters)``)."""
    if is_kind(value) and BOTS[value][1]:
        return f"{value} (any parameters)"
    short = short_spec(value)
    if short != value and short in BOTS and BOTS[short][1]:
        return f"{short} (default parameters)"
    return short


def matching_bots(value: str, players: Iterable[str]) -> list[str]:
    """The players (recorded specs) that the bot filter ``value`` names, sorted."""
    return sorted({p for p in players if bot_matches(value, p)})


def canonical_selection(selection: Selection) -> Selection:
    """The selection with its rules and bot specs in canonical form."""
    return replace(
        selection,
        rules=tuple(canonical_rules(r) for r in selection.rules),
        bots=tuple(bot_filter(b) for b in selection.bots),
    )
