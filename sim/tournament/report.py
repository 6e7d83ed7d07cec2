"""A tournament's results from its recorded games: the cross table (each pair from the row
player's view), the standing, Bradley-Terry ratings with intervals, the pentanomial per
pair, forfeits and time losses per player and the first-move figure.

Every figure comes from the ``sim.stats`` functions over the tournament's batches
(``Selection(batches=...)``), so it agrees with ``dsq stats --batch`` on the same games.
When some games repeat (deterministic players from one start), the ratings, the pairs'
Elo and the first move are computed on the distinct games alone
(:func:`sim.stats.distinct.distinct_connection`); the standing and the cross table count
every game.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.storage.reading import open_dataset
from sim.storage.records import effective_status, read_batch_record
from sim.tournament.plan import Tournament
from sim.tournament.run import round_batches

# Games a player lost by a fault (an engine's forfeit) or by its clock, per reason.
_LOSSES_BY = """
SELECT CASE winner WHEN 'red' THEN blue ELSE red END AS player, reason, count(*)::BIGINT
FROM sel WHERE reason IN ('forfeit', 'time') AND winner IN ('red', 'blue')
GROUP BY 1, 2
"""


def tournament_batches(t: Tournament) -> list[dict[str, Any]]:
    """Every pairing of the rounds started: ``round``, ``batch``, ``red`` and ``blue``
    (player indices) and the round's ``bye``."""
    out = []
    for k in range(len(t.rounds_played)):
        rnd = t.rounds_played[k]
        for bid, i, j in round_batches(t, k, rnd):
            out.append({"round": k + 1, "batch": bid, "players": [i, j]})
    return out


def tournament_line(t: Tournament, data_dir: Path) -> dict[str, Any]:
    """What ``dsq tournament --list`` shows of ``t``: its id, format, players, the games
    recorded so far and its status (``complete``, else ``rounds played/rounds``)."""
    batches = tournament_batches(t)
    states = [_batch_status(data_dir, b["batch"]) for b in batches]
    done = len(t.rounds_played) == t.rounds and all(s == "done" for s, _ in states)
    return {
        "id": t.id,
        "format": t.format,
        "players": list(t.players),
        "games": sum(g for _, g in states),
        "status": "complete" if done else f"{len(t.rounds_played)}/{t.rounds} rounds, unfinished",
    }


def _batch_status(data_dir: Path, bid: str) -> tuple[str, int]:
    try:
        rec = read_batch_record(data_dir, bid)
    except DsqError:  # a missing or unreadable record: not started
        return "not started", 0
    return effective_status(rec, data_dir), int(rec.get("games_done", 0))


def _nan_none(x: Any) -> Any:
    return None if isinstance(x, float) and math.isnan(x) else x


def _cell_elo(r: dict[str, Any]) -> dict[str, Any]:
    """The row player's logistic Elo with its interval: from the pentanomial where the
    pairs vary, else (no pairs, or every pair alike: a zero-width interval says nothing)
    from the W-D-L counts; ``elo_from`` says which."""
    src = "ptnml_elo" if r["pairs"] and r["ptnml_elo_error"] != 0 else "elo"
    return {
        "elo": _nan_none(r[src]),
        "elo_error": _nan_none(r[f"{src}_error"]),
        "elo_low": _nan_none(r[f"{src}_low"]),
        "elo_high": _nan_none(r[f"{src}_high"]),
        "elo_from": "pentanomial" if src == "ptnml_elo" else "wdl",
    }


def _distinct_elo(r: dict[str, Any]) -> dict[str, Any]:
    """:func:`_cell_elo` of a pairing's distinct games: from their pentanomial with two
    distinct pairs or more, else the point alone (``elo_from`` ``none``: no interval)."""
    if r["pairs"] >= 2:
        return _cell_elo(r)
    return {"elo": _nan_none(r["elo"]), "elo_error": None, "elo_low": None, "elo_high": None,
            "elo_from": "none"}  # fmt: skip


def _distinct_note(con: Any, games: int) -> str:
    """What the fit counts when games repeat (``con``: the connection of the distinct
    games)."""
    kept = int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    return (
        f"fitted on the {kept:,} distinct games of {games:,} (a repeated game, or "
        "colour-swapped pair, counts once)"
    )


def _with_distinct(
    cells: dict[tuple[str, str], dict[str, Any]], con: Any, sel: Any, confidence: float
) -> None:
    """Give each cell its distinct games and pairs and, where some repeat, the Elo of
    its distinct games (``con``: the connection of the distinct games)."""
    # lazy: start-up time (DuckDB, scipy)
    from sim.stats import matchup_table

    found = matchup_table(con, sel, confidence=confidence).to_dict("records")
    rows = {(str(r["bot"]), str(r["opponent"])): r for r in found}
    for key, cell in cells.items():
        r = rows.get(key)
        cell["distinct"] = int(r["games"]) if r else 0
        cell["distinct_pairs"] = int(r["pairs"]) if r else 0
        if r and (cell["distinct"] < cell["games"] or cell["distinct_pairs"] < cell["pairs"]):
            cell.update(_distinct_elo(r))


def pair_cells(rep: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Each pair of players that met once, in the players' order: ``(player, opponent,
    cell)``, the cell of :func:`build_report`'s cross table from the first one's side
    (games, W-D-L, pentanomial, logistic Elo and its interval)."""
    players = rep["players"]
    return [
        (players[i], players[j], rep["cross"][i][j])
        for i in range(len(players))
        for j in range(i + 1, len(players))
        if rep["cross"][i][j] is not None
    ]


def build_report(t: Tournament, data_dir: Path, confidence: float = 0.95) -> dict[str, Any]:
    """Everything ``dsq tournament`` prints, as one object (see the module notes); the
    intervals and tests at the ``confidence`` level."""
    # lazy: start-up time (DuckDB, scipy)
    from sim.stats import Selection, first_move, matchup_table, ratings
    from sim.stats.distinct import distinct_connection, distinct_games
    from sim.stats.query import query_rows

    batches = tournament_batches(t)
    for b in batches:
        b["status"], b["games"] = _batch_status(data_dir, b["batch"])
    players = list(t.players)
    byes = [0] * len(players)
    for k in range(len(t.rounds_played)):
        bye = t.rounds_played[k].bye
        if bye is not None:
            byes[bye] += 1
    rep: dict[str, Any] = {
        "id": t.id,
        "format": t.format,
        "rules": t.rules,
        "players": players,
        "plan": t.plan(),
        "rounds_played": len(t.rounds_played),
        "batches": batches,
        "complete": len(t.rounds_played) == t.rounds
        and all(b["status"] == "done" for b in batches),
    }
    ids = [b["batch"] for b in batches]
    ds = open_dataset(data_dir)
    sel = Selection(batches=tuple(ids)) if ids else None
    m = matchup_table(ds.con, sel, confidence=confidence) if sel else None
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    if m is not None:
        for rec in m.to_dict("records"):
            cells[(str(rec["bot"]), str(rec["opponent"]))] = rec
    cross: list[list[dict[str, Any] | None]] = []
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    for a in players:
        row: list[dict[str, Any] | None] = []
        for o in players:
            r = cells.get((a, o))
            if a == o or r is None:
                row.append(None)
                continue
            by_key[(a, o)] = {
                "games": int(r["games"]),
                "wins": int(r["wins"]),
                "draws": int(r["draws"]),
                "losses": int(r["losses"]),
                "points": r["wins"] + r["draws"] / 2,
                "pairs": int(r["pairs"]),
                "ptnml": r["ptnml"],
                "distinct": int(r["games"]),
                "distinct_pairs": int(r["pairs"]),
                **_cell_elo(r),
            }
            row.append(by_key[(a, o)])
        cross.append(row)
    rep["cross"] = cross
    dist = distinct_games(ds.con, sel).total if sel else None
    rep["distinct"] = None if dist is None else dist.to_dict()
    stats_con = ds.con
    if sel and dist is not None and dist.repeats:  # the intervals count a copy once
        stats_con = distinct_connection(ds.con, sel)
        _with_distinct(by_key, stats_con, sel, confidence)
    losses: dict[str, dict[str, int]] = {p: {"forfeit": 0, "time": 0} for p in players}
    if sel:
        for player, reason, n in query_rows(ds.con, sel, _LOSSES_BY):
            if player in losses:
                losses[player][reason] = int(n)
    standing = []
    for i, p in enumerate(players):
        row_cells = [c for c in cross[i] if c]
        games = sum(c["games"] for c in row_cells)
        points = sum(c["points"] for c in row_cells) + byes[i] * t.games_per_pair
        standing.append(
            {
                "player": p,
                "points": points,
                "games": games,
                "wins": sum(c["wins"] for c in row_cells),
                "draws": sum(c["draws"] for c in row_cells),
                "losses": sum(c["losses"] for c in row_cells),
                "byes": byes[i],
                "forfeits": losses[p]["forfeit"],
                "time_losses": losses[p]["time"],
            }
        )
    standing.sort(key=lambda s: (-s["points"], players.index(s["player"])))
    rep["standing"] = standing
    rep["games"] = sum(s["games"] for s in standing) // 2
    if sel and rep["games"]:
        rep["ratings"] = ratings(stats_con, sel, confidence=confidence).to_dict()
        rep["first_move"] = first_move(stats_con, sel, confidence=confidence).to_dict()
        if stats_con is not ds.con and dist is not None:
            rep["ratings"]["note"] = "; ".join(
                n for n in (_distinct_note(stats_con, dist.games), rep["ratings"]["note"]) if n
            )
    else:
        rep["ratings"] = None
        rep["first_move"] = None
    return rep
