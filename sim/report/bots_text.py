"""The per-bot tables of ``dsq stats`` as plain text: matchups (``--by matchup``), each bot
against the field (``--by bot``) and Bradley-Terry ratings (``--ratings``).

Bots are named by their short spec (:func:`sim.bots.spec.short_spec`); numbers are written
by :mod:`sim.report.fmt`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim.bots.spec import short_spec
from sim.report.fmt import (
    MISSING,
    count,
    interval,
    is_missing,
    level,
    num,
    pct,
    plus_minus,
    signed,
    wdl,
)
from sim.report.tables import aligned_table

__all__ = ["bot_text", "matchup_text", "ratings_text"]


def _pentanomial(r: dict[str, Any]) -> str:
    """The colour-swapped pairs of a matchup: counts, Elo and normalized Elo."""
    if is_missing(r["pairs"]) or not r["pairs"]:
        return MISSING
    nelo = interval(r["nelo_low"], r["nelo_high"], signed)
    return (
        f"{count(r['pairs'])} pairs {r['ptnml']}  "
        f"Elo {plus_minus(r['ptnml_elo'], r['ptnml_elo_error'])}  "
        f"nElo {signed(r['nelo'])} {nelo}"
    )


def matchup_text(df: pd.DataFrame) -> str:
    """One line per bot and opponent (the table of :func:`sim.stats.matchup_table`)."""
    rows = [
        [
            short_spec(r["bot"]),
            short_spec(r["opponent"]),
            count(r["games"]),
            wdl(r["wins"], r["draws"], r["losses"]),
            num(r["score"], 3),
            plus_minus(r["elo"], r["elo_error"]),
            pct(r["los"]),
            pct(r["draw_ratio"]),
            _pentanomial(r),
        ]
        for r in df.to_dict("records")
    ]
    header = ["bot", "opponent", "games", "W-D-L", "score", "Elo", "LOS", "draws", "pentanomial"]
    return aligned_table(header, rows, right={2, 3, 4, 5, 6, 7})


def bot_text(df: pd.DataFrame) -> str:
    """One line per bot against all its opponents, with its score by colour (the table of
    :func:`sim.stats.bot_table`)."""
    rows = [
        [
            short_spec(r["bot"]),
            count(r["opponents"]),
            count(r["games"]),
            wdl(r["wins"], r["draws"], r["losses"]),
            num(r["score"], 3),
            plus_minus(r["elo"], r["elo_error"]),
            pct(r["draw_ratio"]),
            num(r["score_as_red"], 3),
            num(r["score_as_blue"], 3),
        ]
        for r in df.to_dict("records")
    ]
    header = [
        "bot",
        "opponents",
        "games",
        "W-D-L",
        "score",
        "perf. Elo vs field",
        "draws",
        "score as red",
        "score as blue",
    ]
    return aligned_table(header, rows)


def ratings_text(r: Any) -> str:
    """The Bradley-Terry ratings, best first, with a title line and the note if any
    (``r``: :class:`sim.stats.Ratings`)."""
    rows = [
        [
            str(k + 1),
            short_spec(x["bot"]),
            signed(x["rating"]),
            f"+- {num(x['error'])}",
            count(x["games"]),
            num(x["score"], 3),
            count(x["opponents"]),
        ]
        for k, x in enumerate(r.table.to_dict("records"))
    ]
    zero = f"anchor {short_spec(r.anchor)} = 0" if r.anchor else "mean 0"
    head = (
        f"Bradley-Terry ratings (Elo scale, {zero}, {level(r.confidence)} intervals, "
        f"{count(r.games)} games)"
    )
    header = ["#", "bot", "rating", "error", "games", "score", "opponents"]
    out = [head, aligned_table(header, rows, right={0, 2, 3, 4, 5, 6})]
    if r.note:
        out.append(f"note: {r.note}")
    return "\n".join(out)
