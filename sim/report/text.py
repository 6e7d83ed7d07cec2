"""The plain-text report of ``dsq stats``: the results, first-player score, lengths and end
reasons of the selection, the rule-set comparison and the game details.

The per-bot tables (``--by matchup``, ``--by bot``, ``--ratings``) are in
:mod:`sim.report.bots_text`; :func:`stats_text` puts every section together. Numbers are
written by :mod:`sim.report.fmt`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim.report.bots_text import bot_text, matchup_text, ratings_text
from sim.report.fmt import (
    MISSING,
    ci_label,
    count,
    interval,
    median,
    num,
    p_text,
    p_value,
    pct,
    pts,
    signed,
)
from sim.report.fmt import elo as fmt_elo
from sim.report.tables import aligned_table

__all__ = [
    "by_text",
    "first_move_cell",
    "first_move_text",
    "compare_text",
    "details_text",
    "general_text",
    "stats_text",
]


def general_text(
    g: Any, reasons: pd.DataFrame, confidence: float, every_reason: bool = False
) -> str:
    """Results with intervals, the first player's score and its tests, the lengths, and
    the end reasons that occur (``every_reason``: every one, zeros included) (``g``:
    :class:`sim.stats.GeneralStats`; ``reasons``: the table of
    :func:`sim.stats.end_reasons`)."""
    c = ci_label(confidence)
    rows = [
        [label, count(p.count), pct(p.rate), interval(p.low, p.high)]
        for label, p in (
            ("red wins (first player)", g.red),
            ("blue wins (second player)", g.blue),
            ("draws", g.draw),
        )
    ]
    out = [aligned_table(["result", "games", "share", c], rows)]
    f = g.first_player
    out.append("")
    out.append(
        f"first-player score  {num(f.score, 3)} {interval(f.low, f.high, num, 3)}  "
        "(raw: Red's wins + draws/2, whichever bots played Red)"
    )
    out.append(f"second-player score {num(g.second_player_score, 3)}")
    if g.first_move is not None:
        out.append(first_move_text(g.first_move))
    L = g.length
    out.append(
        f"length (plies)      mean {num(L.mean)} {interval(L.low, L.high, num)}, "
        f"sd {num(L.sd)}, median {median(L.median)}, min {count(L.min)}, max {count(L.max)}"
    )
    out.append("")
    rrows = [
        [
            r["reason"],
            count(r["games"]),
            pct(r["share"]),
            interval(r["low"], r["high"]),
            count(r["red"]),
            count(r["blue"]),
            count(r["draw"]),
        ]
        for r in reasons.to_dict("records")
        if every_reason or r["games"]
    ]
    out.append(aligned_table(["end reason", "games", "share", c, "red", "blue", "draw"], rrows))
    if not every_reason and len(rrows) < len(reasons):
        out.append(f"  ({len(reasons) - len(rrows)} other end reasons: none; --details lists them)")
    return "\n".join(out)


VERDICTS = {
    "no_games": "no games",
    "not_identifiable": "cannot be separated from the bots' strengths",
    "first_favoured": "first player (red) favoured",
    "second_favoured": "second player (blue) favoured",
    "no_evidence": "no significant first-move advantage",
}


def first_move_text(fm: Any) -> str:
    """The first-move line of ``dsq stats``: the advantage fitted with the bots' strengths,
    its interval, test and verdict, or why it cannot be separated from the bots
    (``fm``: :class:`sim.stats.FirstMove`)."""
    head = "first-move advantage"
    if not fm.identifiable:
        if not fm.games:
            return f"{head} -  (no games)"
        return (
            f"{head} not estimated: it {VERDICTS['not_identifiable']} (each bot played only "
            "one colour against the others), so there is no test"
        )
    note = f"; {fm.note}" if fm.prior_draws else ""
    return (
        f"{head} {first_move_cell(fm.elo, fm.elo_low, fm.elo_high)} Elo, "
        f"score {num(fm.score, 3)} {interval(fm.low, fm.high, num, 3)} against an equal "
        f"opponent  (bots' strengths fitted with it; vs 0: z = {num(fm.z, 2)}, "
        f"{p_value(fm.p_value)}{note})  -> {VERDICTS[fm.verdict]}"
    )


def first_move_cell(elo: Any, low: Any, high: Any) -> str:
    """First-move Elo and interval in a table cell, as :func:`sim.report.fmt.elo` writes an
    Elo (an open end as its finite bound; ``-`` when not identifiable)."""
    return fmt_elo(elo, None, low, high)


def by_text(df: pd.DataFrame, key: str) -> str:
    """One line of figures per rules spec or batch (the table of
    :func:`sim.stats.general_stats_by`; ``key`` is its first column)."""
    rows = [
        [
            str(r[key]),
            count(r["games"]),
            pct(r["red_rate"]),
            pct(r["blue_rate"]),
            f"{pct(r['draw_rate'])} {interval(r['draw_low'], r['draw_high'])}",
            f"{num(r['first_score'], 3)} {interval(r['first_low'], r['first_high'], num, 3)}",
            first_move_cell(r["first_move_elo"], r["first_move_low"], r["first_move_high"]),
            p_text(r["first_move_p"]),
            f"{num(r['mean_plies'])} {interval(r['mean_low'], r['mean_high'], num)}",
            median(r["median_plies"]),
            f"{count(r['min_plies'])}-{count(r['max_plies'])}",
        ]
        for r in df.to_dict("records")
    ]
    header = [
        key,
        "games",
        "red",
        "blue",
        "draws [CI]",
        "first score [CI]",
        "first move Elo [CI]",
        "p",
        "mean plies [CI]",
        "median",
        "min-max",
    ]
    return aligned_table(header, rows)


def _per_rules_row(r: dict[str, Any]) -> list[str]:
    if not r.get("games"):
        return [r["rules"], "0"] + [MISSING] * 10
    return [
        r["rules"],
        count(r["games"]),
        f"{num(r['first_score'], 3)} {interval(r['first_low'], r['first_high'], num, 3)}",
        first_move_cell(r["first_move_elo"], r["first_move_low"], r["first_move_high"]),
        p_text(r["first_move_p"]),
        f"{pct(r['draw_rate'])} {interval(r['draw_low'], r['draw_high'])}",
        f"{num(r['mean_plies'])} {interval(r['mean_low'], r['mean_high'], num)}",
        num(r["sd_plies"]),
        num(r["balance"], 3),
        pct(r["completion"]),
        f"{pct(r['rule_draws'])} / {pct(r['ply_cap_draws'])}",
        num(r["branching"]),
    ]


def _pair_row(r: dict[str, Any]) -> list[str]:
    first = interval(r["first_diff_low"], r["first_diff_high"], signed, 3)
    draw = interval(r["draw_diff_low"], r["draw_diff_high"], pts)
    move = r["first_move_diff"], r["first_move_diff_low"], r["first_move_diff_high"]
    return [
        f"{r['rules_a']} - {r['rules_b']}",
        f"{signed(r['first_diff'], 3)} {first}",
        first_move_cell(*move),
        p_text(r["first_move_diff_p"]),
        f"{pts(r['draw_diff'], 1, ' pts')} {draw}",
        p_text(r["draw_diff_p"]),
        signed(r["mean_plies_diff"], 1),
        p_text(r["length_p"]),
        p_text(r["reasons_p"]),
    ]


def _omnibus_line(o: dict[str, Any]) -> str:
    parts = [
        f"{label} = {num(o[key]['statistic'])} (df {o[key]['dof']}), {p_value(o[key]['p'])}"
        for label, key in (
            ("results chi2", "results_chi2"),
            ("reasons chi2", "reasons_chi2"),
            ("lengths Kruskal-Wallis H", "length_kruskal"),
        )
    ]
    return "all rule sets: " + "; ".join(parts)


def compare_text(c: Any) -> str:
    """Rule sets side by side, their pairwise differences with intervals and p-values, the
    tests over all of them and the notes (``c``: :class:`sim.stats.RuleComparison`)."""
    header = [
        "rules",
        "games",
        "first score [CI]",
        "first move Elo [CI]",
        "p",
        "draws [CI]",
        "mean plies [CI]",
        "sd",
        "balance",
        "completion",
        "rule/cap draws",
        "branching",
    ]
    out = [aligned_table(header, [_per_rules_row(r) for r in c.per_rules.to_dict("records")])]
    if not c.pairs.empty:
        header = [
            "difference",
            "first score [CI]",
            "first move Elo [CI]",
            "p",
            "draw rate [CI]",
            "p",
            "mean plies",
            "p (M-W)",
            "reasons p (chi2)",
        ]
        out.append("")
        out.append(aligned_table(header, [_pair_row(r) for r in c.pairs.to_dict("records")]))
    if c.omnibus:
        out.append("")
        out.append(_omnibus_line(c.omnibus))
    out.extend(f"note: {n}" for n in c.notes)
    if "first_move_verdict" in c.per_rules:
        unlinked = [
            str(r["rules"])
            for r in c.per_rules.to_dict("records")
            if r.get("first_move_verdict") == "not_identifiable"
        ]
        if unlinked:
            out.append(
                f"note: first move under {', '.join(unlinked)}: {VERDICTS['not_identifiable']} "
                "(each bot played only one colour against the others), no test"
            )
    return "\n".join(out)


def _count_grid(frame: pd.DataFrame, corner: str) -> str:
    """A table of counts with its index as the first column."""
    rows = [
        [str(idx)] + [count(v) for v in row]
        for idx, row in zip(frame.index, frame.to_numpy(), strict=True)
    ]
    return aligned_table([corner] + [str(c) for c in frame.columns], rows)


def details_text(den: pd.DataFrame, matrix: pd.DataFrame, squares: pd.DataFrame) -> str:
    """Den entries by animal, the capture matrix and the captures by square (the tables of
    :func:`sim.stats.den_animals`, :func:`~sim.stats.capture_matrix` and
    :func:`~sim.stats.capture_squares`)."""
    # lazy: start-up time (duckdb, pandas)
    from sim.stats.details import square_grid

    den_rows = [
        [r["animal"], count(r["red"]), count(r["blue"]), count(r["total"]), pct(r["share"])]
        for r in den.to_dict("records")
    ]
    return "\n".join(
        [
            "den entered by (winner's animal)",
            aligned_table(["animal", "red", "blue", "total", "share"], den_rows),
            "",
            "captures: capturer (rows) x captured (columns), both colours",
            _count_grid(matrix, "capturer"),
            "",
            "captures by square (rank 9 at the top)",
            _count_grid(square_grid(squares), "rank"),
        ]
    )


def _by_section(key: str, table: pd.DataFrame) -> str:
    if table.empty:
        body = "  (no games between different bots)" if key in ("matchup", "bot") else "  -"
    elif key == "matchup":
        body = matchup_text(table)
    elif key == "bot":
        body = bot_text(table)
    else:
        body = by_text(table, key)
    return f"by {key}:\n{body}"


def void_note(g: Any, sel: Any) -> str:
    """The line that says how many selected games are void under their rule set's
    scoring rule (``void_rounds``: yeshou's games ending within 10 rounds), and whether
    they are counted; empty when none is."""
    if not g.void:
        return ""
    if sel.voids:
        return (
            f"\n{count(g.void)} of them void (ended within their rule set's void_rounds),"
            " counted as results"
        )
    return (
        f"\n{count(g.void)} more void, left out: ended within their rule set's void_rounds"
        " (yeshou: 10 rounds = 20 plies), they score nothing; --with-void counts them"
    )


def _distinct(d: Any) -> str:
    """``, all distinct``, ``, 2 distinct``; empty when the distinct games were not
    counted."""
    if d is None:
        return ""
    return ", all distinct" if d.distinct == d.games else f", {count(d.distinct)} distinct"


def stats_text(out: dict[str, Any]) -> str:
    """The whole text report of ``dsq stats`` from what it collected (the dict with
    ``data``, ``selection``, ``confidence``, ``general`` and, when there are games,
    ``reasons`` and the optional ``by``, ``compare``, ``ratings`` and ``details``). With
    ``compare`` the comparison replaces the overview of the pooled games."""
    g, sel = out["general"], out["selection"]
    if g.games == 0:  # ``dsq stats`` says so as an error (sim.stats.empty) before this
        return f"no games in {out['data']} ({sel.describe()})"
    head = f"{count(g.games)} games in {out['data']}  ({sel.describe()})"
    head += _distinct(out.get("distinct")) + void_note(g, sel)
    if "compare" in out:
        # The comparison is what was asked for: the pooled overview of several rule sets
        # would mix them (``--json`` still holds it).
        c = out["compare"]
        compared = int(sum(c.per_rules["games"])) if not c.per_rules.empty else 0
        rules = ", ".join(str(r) for r in c.per_rules["rules"])
        sections = [
            f"rule sets compared: {rules} ({count(compared)} games in {out['data']}; "
            f"{sel.describe()})\n" + compare_text(c)
        ]
    else:
        every = "details" in out
        sections = [head, general_text(g, out["reasons"], out["confidence"], every)]
    if "by" in out:
        sections.append(_by_section(out["by"]["key"], out["by"]["table"]))
    if "ratings" in out:
        sections.append(ratings_text(out["ratings"]))
    if "details" in out:
        d = out["details"]
        sections.append(details_text(d["den_animals"], d["capture_matrix"], d["capture_squares"]))
    return "\n\n".join(sections)
