"""Batches as a person reads them: the summary ``dsq simulate`` prints when it ends and the
table of ``dsq batches``.

Bots are named by their short spec (:func:`sim.bots.spec.short_spec`; the records and the
JSON output keep the canonical one). A batch's result is given by colour and, from bot a's
side (the ``--red`` bot of the spec, which plays blue in the odd games of a colour-swapped
batch), as W/D/L, score and logistic Elo with its 95% interval: from the pentanomial of
the colour-swapped pairs when the batch has them, else from W/D/L (an interval open at one
end is written as its other bound, see :func:`sim.report.fmt.elo`). A record given its
``distinct`` counts (:mod:`sim.stats.distinct`, as ``dsq simulate`` does when it ends)
says how many of its games are distinct, and when some repeat takes the Elo from the
distinct pairs (or games) alone: with no interval when fewer than two are distinct. A
record too old to hold the bots' counts is given them from its games (``game_counts``,
see :mod:`sim.stats.batch_counts`). A batch with an SPRT shows its verdict (H1, H0 or
undecided) and the log-likelihood ratio.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.bots.spec import short_spec
from sim.core.tally import bot_results
from sim.report.fmt import MISSING, count, elo_estimate, num, pct, signed, wdl
from sim.report.tables import aligned_table

if TYPE_CHECKING:  # sim.stats is imported when a score is computed (the CLI starts faster)
    from sim.stats.elo import EloEstimate

__all__ = [
    "BATCHES_HEADER",
    "BatchScore",
    "batch_row",
    "batch_score",
    "batches_table",
    "bots_label",
    "sprt_verdict",
    "summary_text",
]


@dataclass(frozen=True)
class BatchScore:
    """Bot a's result in a batch: W/D/L, mean score and, between two different bots, the
    logistic Elo difference a - b with its 95% interval (``elo_from`` says from what:
    ``"pairs"`` of the pentanomial, or ``"games"``; None in self-play)."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    score: float
    elo: EloEstimate | None
    elo_from: str | None
    pairs: int
    distinct: dict[str, Any] | None = None

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def self_play(self) -> bool:
        """Both sides are the same bot (its score is only a colour's)."""
        return self.elo_from is None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (the Elo as :meth:`EloEstimate.to_dict`: no infinities)."""
        return {
            "a": self.a,
            "b": self.b,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "elo": None if self.elo is None else self.elo.to_dict(),
            "elo_from": self.elo_from,
            "pairs": self.pairs,
            "distinct": self.distinct,
        }


def record_counts(record: dict[str, Any]) -> dict[str, Any]:
    """The counts to read a record's result from: ``game_counts`` (counted from its games)
    when the record was given them, else its own ``counts``."""
    return record.get("game_counts") or record.get("counts") or {}


def batch_score(record: dict[str, Any]) -> BatchScore | None:
    """Bot a's result from a batch record's counts (:func:`record_counts`); None before
    any game, or when the record cannot tell (a colour-swapped batch recorded before the
    bots' wins were kept, not given ``game_counts``)."""
    # lazy: start-up time (scipy)
    from sim.stats.elo import match_score, pentanomial

    spec = record.get("spec") or {}
    res = bot_results(record_counts(record), bool(spec.get("swap")))
    if res is None or not res["wins"] + res["draws"] + res["losses"]:
        return None
    w, d, lo = res["wins"], res["draws"], res["losses"]
    elo, source, pairs = None, None, 0
    dist: dict[str, Any] = record.get("distinct") or {}
    repeated = bool(dist) and (
        dist["distinct"] < dist["games"] or dist["distinct_pairs"] < dist["pairs"]
    )
    if spec.get("red") != spec.get("blue") and repeated:
        elo, source, pairs = distinct_elo(dist, bool(spec.get("swap")))
    elif spec.get("red") != spec.get("blue"):
        ptnml = res.get("pentanomial")
        if ptnml and sum(ptnml):
            p = pentanomial(ptnml)
            elo, source, pairs = p.logistic(), "pairs", p.pairs
        else:
            elo, source = match_score(w, d, lo).logistic(), "games"
    return BatchScore(
        a=short_spec(str(spec.get("red", "?"))),
        b=short_spec(str(spec.get("blue", "?"))),
        wins=w,
        draws=d,
        losses=lo,
        score=(w + d / 2) / (w + d + lo),
        elo=elo,
        elo_from=source,
        pairs=pairs,
        distinct=dist or None,
    )


def distinct_elo(dist: dict[str, Any], swap: bool) -> tuple[EloEstimate, str, int]:
    """Bot a's logistic Elo over a batch's distinct pairs (with ``swap``) or games, and
    from what (``"distinct pairs"``, ``"distinct games"``, or ``"none"`` when fewer than
    two are distinct: the point alone, no interval), and the distinct pairs."""
    # lazy: start-up time (scipy)
    from sim.stats.elo import EloEstimate, match_score, pentanomial

    if swap and dist.get("ptnml") and dist["distinct_pairs"]:
        est, n, source = pentanomial(dist["ptnml"]).logistic(), dist["distinct_pairs"], "pairs"
    else:
        est, n, source = match_score(*dist["wdl"]).logistic(), dist["distinct"], "games"
    if n >= 2:
        return est, f"distinct {source}", dist["distinct_pairs"]
    nan = math.nan
    return EloEstimate("logistic", est.point, nan, nan, nan), "none", dist["distinct_pairs"]


def sprt_verdict(record: dict[str, Any]) -> dict[str, Any] | None:
    """The SPRT of a batch that runs one: ``{"spec", "decision" ("H1", "H0" or None),
    "llr", "lower", "upper"}``, as stored when the batch ended, else computed from its
    counts (a batch still running or interrupted); None without an SPRT."""
    spec = record.get("sprt")
    if not spec:
        return None
    check = record.get("stop_check")
    if isinstance(check, dict) and isinstance(check.get("llr"), int | float):
        return {
            "spec": spec,
            "decision": check.get("decision"),
            "llr": float(check["llr"]),
            "lower": check.get("lower"),
            "upper": check.get("upper"),
        }
    # lazy: start-up time (scipy)
    from sim.stats.sprt import parse_sprt, sprt_test

    res = bot_results(record_counts(record), bool((record.get("spec") or {}).get("swap")))
    if res is None:
        return {"spec": spec, "decision": None, "llr": math.nan, "lower": None, "upper": None}
    results = res.get("pentanomial") or (res["wins"], res["draws"], res["losses"])
    try:
        t = sprt_test(results, parse_sprt(spec))
    except DsqError:
        return {"spec": spec, "decision": None, "llr": math.nan, "lower": None, "upper": None}
    return {"spec": spec, "decision": t.decision, "llr": t.llr, "lower": t.lower, "upper": t.upper}


def _verdict_word(v: dict[str, Any]) -> str:
    return v["decision"] or "undecided"


def sprt_cell(record: dict[str, Any]) -> str:
    """The SPRT column of ``dsq batches``: ``H1 at 208 (LLR 2.95)`` (decided at game 208),
    ``undecided (LLR 0.51)``."""
    v = sprt_verdict(record)
    if v is None:
        return ""
    at = f" at {count(record['decided_at'])}" if record.get("decided_at") else ""
    return f"{_verdict_word(v)}{at} (LLR {num(v['llr'], 2)})"


def sprt_line(record: dict[str, Any]) -> str | None:
    """The SPRT sentence of the summary, or None without an SPRT."""
    v = sprt_verdict(record)
    if v is None:
        return None
    meaning = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(v["decision"] or "", "undecided")
    bounds = (
        f", bounds [{num(v['lower'], 2)}, {num(v['upper'], 2)}]" if v["lower"] is not None else ""
    )
    early = "; stopped early" if record.get("stopped_early") else ""
    if record.get("decided_at"):
        early = f"; decided at game {count(record['decided_at'])}, stopped early"
    return f"SPRT {v['spec']}: {meaning}, LLR {num(v['llr'], 2)}{bounds}{early}"


def bots_label(spec: dict[str, Any]) -> str:
    """``greedy vs random (swap)``: the two bots by their short specs (``(outcomes only)``
    when the batch records no moves)."""
    label = f"{short_spec(str(spec.get('red', '?')))} vs {short_spec(str(spec.get('blue', '?')))}"
    label += " (swap)" if spec.get("swap") else ""
    return label + (" (outcomes only)" if spec.get("record") == "outcomes" else "")


FEW = 30  # an Elo resting on fewer pairs (or games) than this says how many in a table


def _elo_cell(s: BatchScore) -> str:
    """The Elo of a table's row: as :func:`_elo_text`, with how few pairs or games it rests
    on when they are fewer than :data:`FEW` (``< +113.4 (2 pairs)``)."""
    text = _elo_text(s)
    if s.elo is None or s.elo_from == "none":
        return text
    if s.elo_from in ("pairs", "distinct pairs"):
        n, what = s.pairs, "pair"
    else:
        n, what = s.wins + s.draws + s.losses, "game"
    return f"{text} ({n} {what}{'' if n == 1 else 's'})" if n < FEW else text


def _elo_text(s: BatchScore) -> str:
    if s.elo_from == "none" and s.elo is not None:
        return f"{signed(s.elo.point, 1)} ({_distinct_words(s.distinct)}: no interval)"
    return elo_estimate(s.elo)


def _distinct_words(dist: dict[str, Any] | None) -> str:
    """``2 distinct games in 40``."""
    if not dist:
        return MISSING
    return f"{count(dist['distinct'])} distinct games in {count(dist['games'])}"


def _games_distinct(dist: dict[str, Any] | None) -> str:
    """``, 2 distinct`` or ``, all distinct`` after the games of a summary (empty when
    the distinct games were not counted)."""
    if not dist:
        return ""
    if dist["distinct"] == dist["games"]:
        return ", all distinct"
    return f", {count(dist['distinct'])} distinct"


def score_line(s: BatchScore) -> str:
    """Each bot's W/D/L and score, and the logistic Elo difference with its 95% interval."""
    if s.self_play:
        return f"self-play: {s.a} on both sides (its results are the colours' above)"
    first = f"{s.a} {wdl(s.wins, s.draws, s.losses)} (score {num(s.score, 3)})"
    second = f"{s.b} {wdl(s.losses, s.draws, s.wins)} (score {num(1 - s.score, 3)})"
    elo = f"logistic Elo {s.a} - {s.b}: {_elo_text(s)}"
    if s.elo_from == "none":
        return f"{first}; {second}; {elo}"
    dist = s.distinct or {}
    source = {
        "pairs": f"{count(s.pairs)} colour-swapped pair{'s' * (s.pairs != 1)}",
        "distinct pairs": f"the {count(s.pairs)} distinct colour-swapped "
        f"pair{'s' * (s.pairs != 1)} of {count(dist.get('pairs', 0))}",
        "distinct games": f"the W/D/L of the {_distinct_words(dist)}",
    }.get(str(s.elo_from), "W/D/L")
    return f"{first}; {second}; {elo} (95%, from {source})"


def summary_text(record: dict[str, Any]) -> str:
    """The lines ``dsq simulate`` prints for one batch when it ends."""
    spec = record.get("spec") or {}
    c = record.get("counts") or {}
    done, planned = record.get("games_done", 0), record.get("games_planned", 0)
    secs = record.get("seconds") or 0.0
    lines = [
        f"{record.get('batch_id')}  {record.get('status')}  {count(done)}/{count(planned)} "
        f"games{_games_distinct(record.get('distinct'))}  rules {spec.get('rules', '?')}  "
        f"{bots_label(spec)}  {secs:.1f} s"
    ]
    if done:
        lines.append(
            "  by colour: "
            + ", ".join(
                f"{name} {count(c.get(k, 0))} ({pct(c.get(k, 0) / done)})"
                for k, name in (("red", "red wins"), ("blue", "blue wins"), ("draw", "draws"))
            )
        )
    score = batch_score(record)
    if score is not None:
        lines.append("  " + score_line(score))
    sprt = sprt_line(record)
    if sprt:
        lines.append("  " + sprt)
    if record.get("error") and record.get("status") != "done":
        lines.append(f"  {record['error']}")
    return "\n".join(lines)


BATCHES_HEADER = [
    "ID", "STATUS", "PROGRESS", "RULES", "BOTS", "RED", "BLUE", "DRAW",
    "W-D-L", "SCORE", "LOGISTIC ELO", "SPRT", "LABEL",
]  # fmt: skip
SELF_PLAY = "self-play"  # the W-D-L cell of a batch with one bot on both sides


def batch_row(r: dict[str, Any]) -> list[str]:
    """One batch (a record with ``effective_status``) as the cells of :data:`BATCHES_HEADER`;
    W-D-L, score and logistic Elo from the first bot's (``--red``'s) side; in self-play
    ``self-play`` and ``-`` (its results are the colours')."""
    spec = r.get("spec") or {}
    c = r.get("counts") or {}
    done, planned = r.get("games_done", 0), r.get("games_planned", 0)
    s = batch_score(r) if spec else None
    self_play = s is not None and s.self_play
    if self_play:
        s = None
    return [
        str(r.get("batch_id")),
        str(r.get("effective_status", r.get("status", "?"))),
        f"{count(done)}/{count(planned)} {pct(done / planned if planned else None, 0)}",
        str(spec.get("rules", "?")),
        bots_label(spec) if spec else "?",
        count(c.get("red", 0)),
        count(c.get("blue", 0)),
        count(c.get("draw", 0)),
        (SELF_PLAY if self_play else MISSING) if s is None else wdl(s.wins, s.draws, s.losses),
        MISSING if s is None else num(s.score, 3),
        MISSING if s is None else _elo_cell(s),
        sprt_cell(r),
        str(r.get("label") or ""),
    ]


def batches_table(rows: list[dict[str, Any]]) -> str:
    """The table of ``dsq batches``: one line per batch, numbers right-aligned."""
    return aligned_table(
        BATCHES_HEADER, [batch_row(r) for r in rows], right={5, 6, 7, 8, 9, 10}, indent=""
    )
