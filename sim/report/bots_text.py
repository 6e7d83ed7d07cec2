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
    elo,
    is_missing,
    level,
    num,
    pct,
    signed,
    wdl,
)
from sim.report.tables import aligned_table

__all__ = ["bot_text", "matchup_text", "ratings_text"]


def _pentanomial(r: dict[str, Any]) -> str:
    """The colour-swapped pairs of a matchup: counts, logistic Elo and normalized Elo."""
    if is_missing(r["pairs"]) or not r["pairs"]:
        return MISSING
    nelo = elo(r["nelo"], None, r["nelo_low"], r["nelo_high"])
    return (
        f"{count(r['pairs'])} pairs {r['ptnml']}  "
        f"logistic Elo {_elo(r, 'ptnml_elo')}  "
        f"normalized Elo {nelo}"
    )


def _elo(r: dict[str, Any], key: str = "elo") -> str:
    """The logistic Elo of a row (columns ``key``, ``key_error``, ``key_low``, ``key_high``)."""
    return elo(r[key], r[f"{key}_error"], r[f"{key}_low"], r[f"{key}_high"])


def matchup_text(df: pd.DataFrame) -> str:
    """One line per bot and opponent (the table of :func:`sim.stats.matchup_table`)."""
    rows = [
        [
            short_spec(r["bot"]),
            short_spec(r["opponent"]),
            count(r["games"]),
            wdl(r["wins"], r["draws"], r["losses"]),
            num(r["score"], 3),
            _elo(r),
            pct(r["los"]),
            pct(r["draw_ratio"]),
            _pentanomial(r),
        ]
        for r in df.to_dict("records")
    ]
    header = [
        "bot", "opponent", "games", "W-D-L", "score", "logistic Elo", "LOS", "draws",
        "pentanomial (colour-swapped pairs)",
    ]  # fmt: skip
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
            _elo(r),
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
        "perf. logistic Elo vs field",
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
            f"± {num(x['error'])}",
            count(x["games"]),
            num(x["score"], 3),
            count(x["opponents"]),
        ]
        for k, x in enumerate(r.table.to_dict("records"))
    ]
    zero = f"anchor {short_spec(r.anchor)} = 0" if r.anchor else "mean 0"
    head = (
        f"Bradley-Terry ratings (logistic Elo scale, {zero}, {level(r.confidence)} intervals, "
        f"{count(r.games)} games)"
    )
    header = ["#", "bot", "rating", "error", "games", "score", "opponents"]
    out = [head, aligned_table(header, rows, right={0, 2, 3, 4, 5, 6})]
    if r.note:
        out.append(f"note: {r.note}")
    return "\n".join(out)
