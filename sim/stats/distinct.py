"""Distinct games: how many of the selected games are not copies of one another.

A game recorded with its moves is identified by a hash of its rules, its two bots, its
start (``start_fen``, which says the side to move; null for the initial position), its
moves and its result (winner and reason): the same moves between other bots, under other
rules or ended otherwise are another game. A game recorded without its moves (``--record
outcomes``) replays from its seed; what decides it stands in for the moves:

- between two deterministic bots (:func:`sim.bots.variety.deterministic`) with no opening
  ply (``opening_plies`` 0: no suite moves, no random plies), nothing but the rules, the
  bots and the start does: it is identified by them and by its ending (length, result,
  captures, pieces left), so two such games count as one exactly when they end alike;
- otherwise its seed (or its opening's) decides it, and it counts as distinct: an upper
  bound, since two seeds may give the same game.

A colour-swapped pair (the two games of a batch sharing a ``pair_id``) is identified by
its two games, in either order. Bot a of a batch is the red player of its even games
(every game's without colour swapping), as in :class:`sim.core.tally.Tally`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import duckdb

from engine.errors import DsqError
from sim.bots.variety import deterministic
from sim.core.addrspace import duckdb_config
from sim.stats.query import CELLS, Selection, query_rows
from sim.storage.paths import check_batch_id, games_dir, resolve_data_dir

__all__ = [
    "Distinct",
    "DistinctCounts",
    "batch_distinct",
    "deterministic_bots",
    "distinct_connection",
    "distinct_games",
]

_KEY = """CASE
    WHEN moves IS NOT NULL THEN hash(rules, red, blue, start_fen, moves, winner, reason)
    WHEN opening_plies = 0 AND list_contains(?::VARCHAR[], red)
        AND list_contains(?::VARCHAR[], blue)
    THEN hash(rules, red, blue, start_fen, ply_cap, winner, reason, plies, red_captures,
              blue_captures, red_pieces_left, blue_pieces_left)
    ELSE hash(batch_id, game_index) END"""

# Bot a's half points (2 a win, 1 a draw): bot a is red in even games, and in every game
# of a batch without colour swapping (there pair_id = game_index).
_A_HP = """CASE winner
    WHEN 'red' THEN CASE WHEN game_index % 2 = 0 OR pair_id = game_index THEN 2 ELSE 0 END
    WHEN 'blue' THEN CASE WHEN game_index % 2 = 0 OR pair_id = game_index THEN 0 ELSE 2 END
    ELSE 1 END"""

_KEYED = f""",
k AS MATERIALIZED (SELECT batch_id, game_index, pair_id, {_KEY} AS key, {_A_HP} AS hp FROM sel),
pr AS MATERIALIZED (
    SELECT batch_id, min(game_index) AS first, hash(min(key), max(key)) AS key,
           sum(hp)::INTEGER AS hp
    FROM k GROUP BY batch_id, pair_id HAVING count(*) = 2),
gk AS (SELECT batch_id, arg_min(hp, game_index) AS hp FROM k GROUP BY batch_id, key),
pk AS (SELECT batch_id, arg_min(hp, first) AS hp FROM pr GROUP BY batch_id, key)
"""

_PTNML = ", ".join(f"count(*) FILTER (WHERE hp = {i}) AS p{i}" for i in range(5))
_COUNTS = f"""{_KEYED}
SELECT g.batch_id, g.games, d.distinct_games, coalesce(p.pairs, 0), coalesce(q.pairs, 0),
       d.w, d.d, d.l, q.p0, q.p1, q.p2, q.p3, q.p4
FROM (SELECT batch_id, count(*) AS games FROM k GROUP BY 1) g
JOIN (SELECT batch_id, count(*) AS distinct_games, count(*) FILTER (WHERE hp = 2) AS w,
             count(*) FILTER (WHERE hp = 1) AS d, count(*) FILTER (WHERE hp = 0) AS l
      FROM gk GROUP BY 1) d USING (batch_id)
LEFT JOIN (SELECT batch_id, count(*) AS pairs FROM pr GROUP BY 1) p USING (batch_id)
LEFT JOIN (SELECT batch_id, count(*) AS pairs, {_PTNML} FROM pk GROUP BY 1) q USING (batch_id)
UNION ALL
SELECT NULL, (SELECT count(*) FROM k), (SELECT count(DISTINCT key) FROM k),
       (SELECT count(*) FROM pr), (SELECT count(DISTINCT key) FROM pr),
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
"""

# One row per distinct game: the games of each distinct pair (its first occurrence, by
# batch and index), and of the other games the first occurrence of each.
_DEDUP = """,
k AS MATERIALIZED (SELECT *, {key} AS _key FROM sel),
pr AS (SELECT batch_id, pair_id, hash(min(_key), max(_key)) AS pkey, min(game_index) AS first
       FROM k GROUP BY batch_id, pair_id HAVING count(*) = 2),
kept AS (SELECT batch_id, pair_id FROM pr
         QUALIFY row_number() OVER (PARTITION BY pkey ORDER BY batch_id, first) = 1)
SELECT * EXCLUDE (_key) FROM k SEMI JOIN kept USING (batch_id, pair_id)
UNION ALL
SELECT * EXCLUDE (_key) FROM (SELECT * FROM k ANTI JOIN pr USING (batch_id, pair_id))
QUALIFY row_number() OVER (PARTITION BY _key ORDER BY batch_id, game_index) = 1
"""


@dataclass(frozen=True)
class DistinctCounts:
    """Games and distinct games, colour-swapped pairs and distinct pairs; for one batch
    also bot a's W/D/L over its distinct games (``wdl``) and its pentanomial (LL, LD,
    DD+WL, WD, WW) over its distinct pairs (``ptnml``), None for a total."""

    games: int
    distinct: int
    pairs: int = 0
    distinct_pairs: int = 0
    wdl: tuple[int, int, int] | None = None
    ptnml: tuple[int, int, int, int, int] | None = None

    @property
    def repeats(self) -> bool:
        """Some games (or pairs) are copies of others."""
        return self.distinct < self.games or self.distinct_pairs < self.pairs

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (tuples as lists)."""
        d = asdict(self)
        for name in ("wdl", "ptnml"):
            d[name] = None if d[name] is None else list(d[name])
        return d


@dataclass(frozen=True)
class Distinct:
    """:class:`DistinctCounts` per batch (``batches``, by batch id) and over the whole
    selection (``total``: a game repeated in two batches counts once)."""

    batches: dict[str, DistinctCounts]
    total: DistinctCounts

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values."""
        return {
            "batches": {b: c.to_dict() for b, c in self.batches.items()},
            "total": self.total.to_dict(),
        }


def deterministic_bots(con: duckdb.DuckDBPyConnection, selection: Selection) -> list[str]:
    """The deterministic bots among those of the selection (read from the summaries)."""
    rows = query_rows(
        con, selection, "SELECT red FROM sel UNION SELECT blue FROM sel", source=CELLS
    )
    found = []
    for (bot,) in rows:
        try:
            if deterministic(str(bot)):
                found.append(str(bot))
        except DsqError:  # a bot of another version: not known to be deterministic
            continue
    return found


def _int(x: Any) -> int:
    return 0 if x is None else int(x)


def distinct_games(con: duckdb.DuckDBPyConnection, selection: Selection | None = None) -> Distinct:
    """The distinct games and pairs of the selection, per batch and in total."""
    sel = selection or Selection()
    bots = deterministic_bots(con, sel)
    rows = query_rows(con, sel, _COUNTS, [bots, bots])
    batches: dict[str, DistinctCounts] = {}
    total = DistinctCounts(0, 0)
    for bid, games, distinct, pairs, dpairs, w, d, lo, *ptn in rows:
        if bid is None:
            total = DistinctCounts(_int(games), _int(distinct), _int(pairs), _int(dpairs))
            continue
        batches[str(bid)] = DistinctCounts(
            int(games),
            int(distinct),
            _int(pairs),
            _int(dpairs),
            (_int(w), _int(d), _int(lo)),
            tuple(_int(x) for x in ptn),  # type: ignore[arg-type]
        )
    return Distinct(dict(sorted(batches.items())), total)


def distinct_connection(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None
) -> duckdb.DuckDBPyConnection:
    """A new connection whose ``games`` view holds one row per distinct game of the
    selection (each distinct colour-swapped pair whole, at its first occurrence): the
    statistics of ``sim.stats`` on it count a repeated game, or pair, once."""
    sel = selection or Selection()
    bots = deterministic_bots(con, sel)
    cte, params = sel.cte()
    sql = cte + _DEDUP.format(key=_KEY)
    table = con.sql(sql, params=[*params, bots, bots]).to_arrow_table()
    out = duckdb.connect(database=":memory:", config=duckdb_config())
    out.register("_distinct_games", table)
    out.execute("CREATE VIEW games AS SELECT * FROM _distinct_games")
    return out


def batch_distinct(data_dir: str | Path | None, batch_id: str) -> DistinctCounts | None:
    """The distinct counts of one batch, read from its folder of games alone (None when it
    holds no game)."""
    # lazy: start-up time (the reader loads pyarrow)
    from sim.storage.reading import open_dataset

    folder = games_dir(resolve_data_dir(data_dir), check_batch_id(batch_id))
    if not folder.is_dir():
        return None
    with open_dataset(folder) as ds:
        sel = Selection(batches=(batch_id,), humans=True, voids=True)  # every game counted
        found = ds.read(lambda: distinct_games(ds.con, sel))
    return found.batches.get(batch_id)
