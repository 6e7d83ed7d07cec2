"""The text ``dsq tournament`` prints: standing, cross table, ratings, pairs, first move."""

from __future__ import annotations

from typing import Any

from sim.report import fmt
from sim.report.tables import aligned_table
from sim.tournament.report import pair_cells


def _short(spec: str) -> str:
    # lazy: start-up time (the bot catalogue)
    from sim.bots.spec import short_spec

    return short_spec(spec)


def cross_text(rep: dict[str, Any]) -> str:
    """The cross table: the row player's W-D-L and points against each column player."""
    players = rep["players"]
    header = ["", *[f"{k + 1}" for k in range(len(players))], "points"]
    rows = []
    for i, p in enumerate(players):
        cells = []
        for j, c in enumerate(rep["cross"][i]):
            if i == j:
                cells.append("x")
            elif c is None:
                cells.append("")
            else:
                points = fmt.num(c["points"], 1)
                cells.append(f"{fmt.wdl(c['wins'], c['draws'], c['losses'])} {points}")
        total = next(s for s in rep["standing"] if s["player"] == p)["points"]
        rows.append([f"{i + 1} {_short(p)}", *cells, fmt.num(total, 1)])
    return aligned_table(header, rows)


def standing_text(rep: dict[str, Any]) -> str:
    """Players by points, with games, W-D-L, byes, forfeits and time losses."""
    header = ["rank", "player", "points", "games", "W-D-L", "byes", "forfeits", "time"]
    rows = [
        [
            str(n + 1),
            _short(s["player"]),
            fmt.num(s["points"], 1),
            fmt.count(s["games"]),
            fmt.wdl(s["wins"], s["draws"], s["losses"]),
            fmt.count(s["byes"]),
            fmt.count(s["forfeits"]),
            fmt.count(s["time_losses"]),
        ]
        for n, s in enumerate(rep["standing"])
    ]
    return aligned_table(header, rows, right={0, 2, 3, 4, 5, 6, 7})


def ratings_text(rep: dict[str, Any]) -> str:
    """Bradley-Terry ratings (logistic Elo, mean 0) with their intervals."""
    r = rep["ratings"]
    if not r or not r["table"]:
        return "  (fewer than two players with games)"
    level = fmt.level(r["confidence"])
    header = ["player", "rating", f"± {level}", "interval", "games", "score"]
    rows = [
        [
            _short(x["bot"]),
            fmt.signed(x["rating"], 0),
            fmt.num(x["error"], 0),
            fmt.interval(x["low"], x["high"], fmt.signed, 0),
            fmt.count(x["games"]),
            fmt.pct(x["score"]),
        ]
        for x in r["table"]
    ]
    text = aligned_table(header, rows)
    return text + (f"\n  note: {r['note']}" if r.get("note") else "")


def pairs_text(rep: dict[str, Any]) -> str:
    """Each pair once: games, W-D-L, the pentanomial and its logistic Elo."""
    header = ["pair", "games", "distinct", "W-D-L", "ptnml (LL LD DD/WL WD WW)", "Elo"]
    rows = []
    for a, b, c in pair_cells(rep):
        ptnml = " ".join(map(fmt.count, c["ptnml"])) if c["ptnml"] else fmt.MISSING
        rows.append(
            [
                f"{_short(a)} v {_short(b)}",
                fmt.count(c["games"]),
                fmt.count(c.get("distinct", c["games"])),
                fmt.wdl(c["wins"], c["draws"], c["losses"]),
                ptnml,
                _pair_elo(c),
            ]
        )
    return aligned_table(header, rows) if rows else "  (no games yet)"


def _pair_elo(c: dict[str, Any]) -> str:
    """A pair's Elo: with its interval (``*``: from W-D-L), or the point alone when its
    distinct pairs are too few for one."""
    if c["elo_from"] == "none":
        pairs = c.get("distinct_pairs", 0)
        return f"{fmt.signed(c['elo'], 1)} ({pairs} distinct pair{'s' * (pairs != 1)}: no interval)"
    elo = fmt.elo(c["elo"], c["elo_error"], c["elo_low"], c["elo_high"], 1)
    return elo + ("*" if c["elo_from"] == "wdl" else "")


def _games_text(rep: dict[str, Any]) -> str:
    """``120 games, 12 distinct`` (``all distinct``; the games alone when not counted)."""
    games, d = fmt.count(rep["games"]), rep.get("distinct")
    if not d:
        return f"{games} games"
    if d["distinct"] == d["games"]:
        return f"{games} games, all distinct"
    return f"{games} games, {fmt.count(d['distinct'])} distinct"


def first_move_text(rep: dict[str, Any]) -> str:
    """The first-move advantage fitted with the players' strengths."""
    f = rep["first_move"]
    if not f:
        return "  (no games yet)"
    if not f["identifiable"] or f["elo"] is None:
        return f"  not identifiable from these games ({f['verdict'].replace('_', ' ')})"
    elo = fmt.elo(f["elo"], None, f["elo_low"], f["elo_high"], 1)
    return (
        f"  red (moves first) vs an equal opponent: score {fmt.pct(f['score'])} "
        f"{fmt.pct_interval(f['low'], f['high'])}, Elo {elo}, {fmt.p_value(f['p_value'])}, "
        f"verdict: {f['verdict'].replace('_', ' ')}"
    )


def report_text(rep: dict[str, Any]) -> str:
    """The whole report."""
    done = sum(1 for b in rep["batches"] if b["status"] == "done")
    state = "complete" if rep["complete"] else "incomplete"
    head = (
        f"tournament {rep['id']} ({rep['format']}, {rep['rules']}): {_games_text(rep)}, "
        f"rounds {rep['rounds_played']}/{rep['plan']['rounds']}, batches "
        f"{done}/{len(rep['batches'])} done ({state})"
    )
    parts = [
        head,
        "standing:",
        standing_text(rep),
        "cross table (row player's W-D-L and points against the column player):",
        cross_text(rep),
        "ratings (Bradley-Terry, logistic Elo, mean 0):",
        ratings_text(rep),
        "pairs (colour-swapped; Elo of the first named, from the pentanomial of the distinct"
        " pairs, * from W-D-L):",
        pairs_text(rep),
        "first move:",
        first_move_text(rep),
    ]
    return "\n".join(parts) + "\n"
