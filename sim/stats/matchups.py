"""Bot against bot, from each bot's point of view: W/D/L, score, Elo, LOS, pentanomial.

A bot can play either colour; a game between bots A and B counts once from A's point of
view (row ``bot=A, opponent=B``) and once from B's (the mirror row). Self-play games
(the same spec on both sides) have no point of view and are left out here.
Colour-swapped pairs are the two games of a batch sharing a ``pair_id`` with the bots'
colours exchanged; a pair missing a game (e.g. cut by ``min_plies``) is not counted in
the pentanomial columns.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pandas as pd

from sim.stats.elo import match_score, pentanomial
from sim.stats.query import CELLS, Selection, query_rows, summary_con

_POV = """
, pov AS (
    SELECT red AS bot, blue AS opponent, 'red' AS colour, games,
           CASE winner WHEN 'red' THEN 2 WHEN 'draw' THEN 1 ELSE 0 END AS hp
    FROM sel WHERE red <> blue
    UNION ALL
    SELECT blue AS bot, red AS opponent, 'blue' AS colour, games,
           CASE winner WHEN 'blue' THEN 2 WHEN 'draw' THEN 1 ELSE 0 END AS hp
    FROM sel WHERE red <> blue
)
"""

_WDL_BY = """
SELECT {keys},
       coalesce(sum(games) FILTER (WHERE hp = 2), 0)::BIGINT AS wins,
       coalesce(sum(games) FILTER (WHERE hp = 1), 0)::BIGINT AS draws,
       coalesce(sum(games) FILTER (WHERE hp = 0), 0)::BIGINT AS losses,
       coalesce(sum(games) FILTER (WHERE colour = 'red'), 0)::BIGINT AS games_red,
       coalesce(sum(games) FILTER (WHERE colour = 'red' AND hp = 2), 0)::BIGINT AS wins_red,
       coalesce(sum(games) FILTER (WHERE colour = 'red' AND hp = 1), 0)::BIGINT AS draws_red,
       coalesce(sum(games) FILTER (WHERE colour = 'blue' AND hp = 2), 0)::BIGINT AS wins_blue,
       coalesce(sum(games) FILTER (WHERE colour = 'blue' AND hp = 1), 0)::BIGINT AS draws_blue
FROM pov GROUP BY {keys} ORDER BY {keys}
"""

# A pair of the summaries (``pair_cells``) as each of its two games, for the selection's
# condition: the bots in either colour, the pair's shorter length (a minimum length or
# the void rule keeps both games exactly when it keeps the shorter), and a reason that
# is an adjudication when either game was adjudicated.
_AS_GAME = """SELECT id, batch_id, rules, {red} AS red, {blue} AS blue, plies,
       CASE WHEN adjudicated THEN 'adjudicated_resign' END AS reason FROM pr"""

_PAIRS = """
WITH pr AS (SELECT row_number() OVER () AS id, * FROM pair_cells),
g1 AS ({g1}), g2 AS ({g2})
SELECT red, blue, hp::INTEGER, sum(games)::BIGINT FROM pr
WHERE id IN (SELECT id FROM g1 WHERE {cond}) AND id IN (SELECT id FROM g2 WHERE {cond})
GROUP BY 1, 2, 3
"""


def pentanomial_counts(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None
) -> dict[tuple[str, str], list[int]]:
    """Pentanomial counts per ordered (bot, opponent): ``[LL, LD, DD+WL, WD, WW]``, over
    the pairs both of whose games the selection keeps."""
    cond, params = (selection or Selection()).where()  # as over games: see _AS_GAME
    sql = _PAIRS.format(
        g1=_AS_GAME.format(red="red", blue="blue"),
        g2=_AS_GAME.format(red="blue", blue="red"),
        cond=cond,
    )
    rows = summary_con(con).execute(sql, params + params).fetchall()
    out: dict[tuple[str, str], list[int]] = {}
    for a, b, hp, n in rows:
        out.setdefault((a, b), [0] * 5)[hp] += int(n)
        out.setdefault((b, a), [0] * 5)[4 - hp] += int(n)
    return out


def _score_columns(wins: int, draws: int, losses: int, confidence: float) -> dict[str, Any]:
    m = match_score(wins, draws, losses, confidence)
    return {
        "games": m.games,
        "wins": m.wins,
        "draws": m.draws,
        "losses": m.losses,
        "score": m.score,
        "elo": m.elo,
        "elo_error": m.elo_error,
        "elo_low": m.elo_low,
        "elo_high": m.elo_high,
        "los": m.los,
        "draw_ratio": m.draw_ratio,
    }


def _colour_columns(r: dict[str, Any]) -> dict[str, Any]:
    g_red = int(r["games_red"])
    g = int(r["wins"] + r["draws"] + r["losses"])
    g_blue = g - g_red
    return {
        "games_as_red": g_red,
        "score_as_red": (r["wins_red"] + 0.5 * r["draws_red"]) / g_red if g_red else math.nan,
        "score_as_blue": (r["wins_blue"] + 0.5 * r["draws_blue"]) / g_blue if g_blue else math.nan,
    }


# The win/draw/loss counts the queries give after the bot (and its opponent or opponents).
_WDL_COLUMNS = [
    "wins",
    "draws",
    "losses",
    "games_red",
    "wins_red",
    "draws_red",
    "wins_blue",
    "draws_blue",
]

# The score columns of a bot against an opponent (a matchup) or against the field.
SCORE_COLUMNS = [
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "elo",
    "elo_error",
    "elo_low",
    "elo_high",
    "los",
    "draw_ratio",
    "games_as_red",
    "score_as_red",
    "score_as_blue",
]
PAIR_COLUMNS = [
    "pairs",
    "ptnml",
    "ptnml_elo",
    "ptnml_elo_error",
    "ptnml_elo_low",
    "ptnml_elo_high",
    "nelo",
    "nelo_low",
    "nelo_high",
]
MATCHUP_COLUMNS = ["bot", "opponent", *SCORE_COLUMNS, *PAIR_COLUMNS]


def matchup_table(
    con: duckdb.DuckDBPyConnection,
    selection: Selection | None = None,
    confidence: float = 0.95,
    mirror: bool = True,
) -> pd.DataFrame:
    """Every pairing of two different bots, from each bot's point of view.

    One row per (``bot``, ``opponent``): W/D/L, score, logistic Elo difference with its
    cutechess error (``elo_error``; NaN where the interval is Wilson's) and interval
    (``elo_high`` = inf for a sweep: see :mod:`sim.stats.elo`), LOS and draw ratio
    (fractions), games and score with each colour, and for colour-swapped pairs
    ``pairs``, ``ptnml`` (list of 5 counts LL, LD, DD+WL, WD, WW), the logistic
    ``ptnml_elo`` ± ``ptnml_elo_error`` with interval ``ptnml_elo_low``,
    ``ptnml_elo_high``, and the normalized Elo ``nelo`` with interval (NaN without
    pairs). With the selection naming bots, only rows
    whose ``bot`` is one of them are kept; ``mirror=False`` keeps one row per pairing
    (the alphabetically first bot's view).
    """
    sel = selection or Selection()
    cte = _POV + _WDL_BY.format(keys="bot, opponent")
    rows = query_rows(con, sel, cte, source=CELLS)
    names = ["bot", "opponent", *_WDL_COLUMNS]
    ptn = pentanomial_counts(con, sel)
    out = []
    for tup in rows:
        r = dict(zip(names, tup, strict=True))
        if not sel.names(r["bot"]):
            continue
        if not mirror and not sel.bots and r["bot"] > r["opponent"]:
            continue
        row: dict[str, Any] = {"bot": r["bot"], "opponent": r["opponent"]}
        row.update(_score_columns(r["wins"], r["draws"], r["losses"], confidence))
        row.update(_colour_columns(r))
        counts = ptn.get((r["bot"], r["opponent"]))
        if counts and sum(counts):
            p = pentanomial(counts, confidence)
            row.update(
                pairs=p.pairs,
                ptnml=list(p.ptnml),
                ptnml_elo=p.elo,
                ptnml_elo_error=p.elo_error,
                ptnml_elo_low=p.elo_low,
                ptnml_elo_high=p.elo_high,
                nelo=p.nelo,
                nelo_low=p.nelo_low,
                nelo_high=p.nelo_high,
            )
        else:
            row.update(
                pairs=0,
                ptnml=None,
                ptnml_elo=math.nan,
                ptnml_elo_error=math.nan,
                ptnml_elo_low=math.nan,
                ptnml_elo_high=math.nan,
                nelo=math.nan,
                nelo_low=math.nan,
                nelo_high=math.nan,
            )
        out.append(row)
    return pd.DataFrame(out, columns=MATCHUP_COLUMNS)


BOT_COLUMNS = ["bot", "opponents", *SCORE_COLUMNS]


def bot_table(
    con: duckdb.DuckDBPyConnection, selection: Selection | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Each bot against the field (all its opponents pooled, self-play left out).

    Columns as :func:`matchup_table` without the pentanomial part, plus ``opponents``
    (number of different opponents). The Elo here is a performance against the pool,
    not a rating: use :func:`sim.stats.ratings.ratings` to compare many bots.
    """
    sel = selection or Selection()
    body = _POV + _WDL_BY.format(keys="bot").replace(
        "SELECT bot,", "SELECT bot, count(DISTINCT opponent)::BIGINT AS opponents,"
    )
    rows = query_rows(con, sel, body, source=CELLS)
    names = ["bot", "opponents", *_WDL_COLUMNS]
    out = []
    for tup in rows:
        r = dict(zip(names, tup, strict=True))
        if not sel.names(r["bot"]):
            continue
        row: dict[str, Any] = {"bot": r["bot"], "opponents": int(r["opponents"])}
        row.update(_score_columns(r["wins"], r["draws"], r["losses"], confidence))
        row.update(_colour_columns(r))
        out.append(row)
    return pd.DataFrame(out, columns=BOT_COLUMNS)
