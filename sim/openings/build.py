"""An opening suite from the lab's own games (``dsq openings build``, docs/openings.md).

The games' first ``plies`` plies give a position: ``startpos`` and those moves, or the
game's ``start_fen`` and those moves. DuckDB groups the selected games by (``start_fen``,
their first ``plies`` move codes) and sums, per group, the results for the side to move and
the search scores of the ``window`` plies after the position; only the groups reach Python,
fetched a batch of rows at a time, where each is replayed with the engine (its position must be
legal and not finished under the rules) and merged with the other groups of the same
position (the FEN's board, side and clock: transpositions are one position). A position
qualifies when at least one signal is available and every available one says "near even":

- results, when at least ``min_games`` games reached it: the mean score of the side to move
  (a win 1, a draw 1/2) within ``band``;
- scores, when a game reaching it has a recorded search score among the ``window`` plies
  after it, or ended within them: every such game lasted more than ``plies + window``
  plies and each recorded score is within ``±max_score``.

``count`` of the qualifying positions are kept: all of them if there are no more, else a
sample drawn with ``seed``; the file lists them sorted by their line.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import DsqError, FenError, MoveError
from engine.position import Position, decode_move
from engine.rules import parse_rules
from sim.openings.suite import MAX_LINE_MOVES, MAX_SUITE_LINES, Entry, parse_suite
from sim.stats.empty import no_games
from sim.stats.intervals import score_interval
from sim.stats.query import FIRST_SIDE_SQL, Selection

BATCH_ROWS = 4096  # groups fetched from DuckDB at a time


@dataclass(frozen=True)
class Criterion:
    """What "near even" means (see the module's docstring)."""

    plies: int
    min_games: int = 10
    band: tuple[float, float] = (0.35, 0.65)
    window: int = 4
    max_score: float = 0.15
    confidence: float = 0.95

    def describe(self) -> str:
        """The criterion in one line (the suite's header)."""
        lo, hi = self.band
        return (
            f"the position after {self.plies} plies, not finished; results (where at least "
            f"{self.min_games} games reached it): score of the side to move in "
            f"[{lo:g}, {hi:g}]; scores (where a game has one on plies {self.plies + 1}.."
            f"{self.plies + self.window}, or ended there): every such game longer than "
            f"{self.plies + self.window} plies, each score within +-{self.max_score:g}"
        )


@dataclass(slots=True)
class Candidate:
    """One position and what the games that reached it say."""

    key: str
    start_fen: str | None
    moves: tuple[str, ...]
    line_games: int  # games that reached it by this line's moves
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    evaluated: int = 0
    unquiet: int = 0
    worst: float | None = None
    lines: int = 0

    @property
    def score(self) -> float:
        """The side to move's mean score over the games that reached the position."""
        return (self.wins + 0.5 * self.draws) / self.games

    def qualifies(self, c: Criterion) -> bool:
        """Whether the position is near even under ``c``."""
        results = self.games >= c.min_games
        scores = self.evaluated > 0
        if results and not c.band[0] <= self.score <= c.band[1]:
            return False
        if scores and self.unquiet > 0:
            return False
        return results or scores

    def name(self, confidence: float) -> str:
        """The line's name: the figures it was chosen on."""
        lo, hi = score_interval(self.wins, self.draws, self.losses, confidence)
        games = f"{self.games} game" + ("s" if self.games != 1 else "")
        text = f"{games}, score {self.score:.3f} [{lo:.3f}, {hi:.3f}]"
        if self.evaluated:
            text += f"; {self.evaluated} with scores, max |score| {self.worst or 0.0:.3f}"
        return text

    def entry(self, confidence: float) -> Entry:
        """The suite entry of the position."""
        return Entry(self.start_fen, self.moves, self.name(confidence))


@dataclass(frozen=True)
class Built:
    """A built suite: its text and the counts behind it."""

    text: str
    games: int
    positions: int
    rejected: int
    qualifying: int
    chosen: int


def _groups_sql(c: Criterion, selection: Selection) -> tuple[str, list[Any]]:
    cte, params = selection.cte()
    n, w = c.plies, c.window
    mover = (
        FIRST_SIDE_SQL
        if n % 2 == 0
        else f"(CASE WHEN {FIRST_SIDE_SQL} = 'red' THEN 'blue' ELSE 'red' END)"
    )
    sql = f"""{cte},
    g AS (
        SELECT start_fen, moves[1:{n}] AS head, winner = {mover} AS won,
               winner = 'draw' AS drawn, plies <= {n + w} AS short,
               list_filter(coalesce(scores[{n + 1}:{n + w}], []), lambda x: x IS NOT NULL) AS rec
        FROM sel WHERE plies > {n} AND moves IS NOT NULL  -- not games of --record outcomes
    ),
    e AS (
        SELECT *, short OR len(rec) > 0 AS evaluated,
               list_max(list_transform(rec, lambda x: abs(x))) AS worst
        FROM g
    )
    SELECT start_fen, head, count(*) AS games,
           count(*) FILTER (WHERE won) AS wins, count(*) FILTER (WHERE drawn) AS draws,
           count(*) FILTER (WHERE evaluated) AS evaluated,
           count(*) FILTER (WHERE evaluated AND (short OR coalesce(worst, 0) > ?)) AS unquiet,
           max(worst) AS worst
    FROM e GROUP BY start_fen, head ORDER BY start_fen NULLS FIRST, head"""
    return sql, [*params, float(c.max_score)]


def _groups(con: Any, c: Criterion, selection: Selection) -> Iterator[dict[str, Any]]:
    """The (start FEN, first moves) groups of the selected games, streamed."""
    sql, params = _groups_sql(c, selection)
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    while rows := cur.fetchmany(BATCH_ROWS):
        for row in rows:
            yield dict(zip(names, row, strict=True))


def _any_game(con: Any, selection: Selection, rules: str) -> bool:
    """Whether the selection holds a game under ``rules``."""
    cte, params = replace(selection, rules=(rules,)).cte()
    return con.execute(f"{cte} SELECT 1 FROM sel LIMIT 1", params).fetchone() is not None


def selected_rules(con: Any, selection: Selection, data: Any = "the data folder") -> str:
    """The one rule set of the selected games (DsqError if none or several; ``data`` names
    the data folder in the message of none)."""
    cte, params = selection.cte()
    found = [r for (r,) in con.execute(f"{cte} SELECT DISTINCT rules FROM sel", params).fetchall()]
    if not found:
        raise no_games(con, selection, data)
    if len(found) > 1:
        names = ", ".join(sorted(found)[:5])
        raise DsqError(f"the selected games are under {len(found)} rule sets ({names}, ...): "
                       "choose one with --rules")  # fmt: skip
    return str(found[0])


class _Replayer:
    """The positions of the groups, in (start FEN, moves) order: one position per start,
    taken back to the moves a group shares with the one before, then played on."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.start: str | None = None
        self.pos: Position | None = None

    def key(self, start_fen: str | None, moves: list[str]) -> str | None:
        """The key (FEN board, side, clock) after ``moves``, or None if they are not legal
        or the position is finished."""
        if self.pos is None or start_fen != self.start:
            self.start, self.pos = start_fen, None
            try:
                self.pos = Position(self.rules, start_fen)
            except FenError:
                return None
        pos = self.pos
        common = 0
        for done, move in zip(pos.history, moves, strict=False):
            if done != move:
                break
            common += 1
        for _ in range(len(pos.history) - common):
            pos.undo()
        try:
            for m in moves[common:]:
                pos.play(m)
        except MoveError:
            return None
        if len(pos.history) != len(moves) or pos.result is not None or not pos.has_fen:
            return None
        return " ".join(pos.fen().split()[:3])


def candidates(
    con: Any, c: Criterion, selection: Selection, rules: str
) -> tuple[dict[str, Candidate], int, int]:
    """Every position of the selected games (by key), the games counted and the groups
    rejected (illegal under ``rules``, or finished)."""
    ruleset = parse_rules(rules)
    found: dict[str, Candidate] = {}
    games = rejected = 0
    replayer = _Replayer(ruleset)
    for g in _groups(con, c, selection):
        games += int(g["games"])
        moves = [decode_move(int(m)) for m in g["head"]]
        key = replayer.key(g["start_fen"], moves)
        if key is None:
            rejected += 1
            continue
        start = g["start_fen"]
        cand = found.get(key)
        line = (-int(g["games"]), start or "", tuple(moves))
        if cand is None or line < (-cand.line_games, cand.start_fen or "", cand.moves):
            merged = Candidate(key, start, tuple(moves), int(g["games"]))
            if cand is not None:
                _add(merged, cand)
            cand = found[key] = merged
        cand.games += int(g["games"])
        cand.wins += int(g["wins"])
        cand.draws += int(g["draws"])
        cand.losses += int(g["games"]) - int(g["wins"]) - int(g["draws"])
        cand.evaluated += int(g["evaluated"])
        cand.unquiet += int(g["unquiet"])
        if g["worst"] is not None:
            cand.worst = max(cand.worst or 0.0, float(g["worst"]))
        cand.lines += 1
    return found, games, rejected


def _add(into: Candidate, other: Candidate) -> None:
    into.games += other.games
    into.wins += other.wins
    into.draws += other.draws
    into.losses += other.losses
    into.evaluated += other.evaluated
    into.unquiet += other.unquiet
    into.lines += other.lines
    if other.worst is not None:
        into.worst = max(into.worst or 0.0, other.worst)


def build_suite(
    con: Any,
    selection: Selection,
    criterion: Criterion,
    *,
    count: int = 100,
    seed: int = 0,
    rules: str | None = None,
    header: tuple[str, ...] = (),
    data: Any = "the data folder",
) -> Built:
    """The suite of the selected games' near-even positions (DsqError when none qualifies;
    ``data`` names the data folder when no game is selected)."""
    if not 1 <= criterion.plies <= MAX_LINE_MOVES:
        raise DsqError(f"--plies must be between 1 and {MAX_LINE_MOVES}")
    if not 1 <= count <= MAX_SUITE_LINES:
        raise DsqError(f"--count must be between 1 and {MAX_SUITE_LINES}")
    rules = rules or selected_rules(con, selection, data)
    found, games, rejected = candidates(con, criterion, selection, rules)
    if not found and not _any_game(con, selection, rules):
        raise no_games(con, selection, data)
    good = sorted(
        (cand.entry(criterion.confidence) for cand in found.values() if cand.qualifies(criterion)),
        key=Entry.line,
    )
    if not good:
        raise DsqError(
            f"no position qualifies: {len(found)} positions after {criterion.plies} plies from "
            f"{games} games ({selection.describe()}); try other --plies, --band, --max-score "
            "or --min-games"
        )
    chosen = good if len(good) <= count else sorted(random.Random(seed).sample(good, count),
                                                    key=Entry.line)  # fmt: skip
    lines = [
        *(f"# {h}" for h in header),
        f"# games: {games} with more than {criterion.plies} plies, {len(found)} positions "
        f"({rejected} lines refused under the rules)",
        f"# criterion: {criterion.describe()}",
        f"# chosen: {len(chosen)} of {len(good)} qualifying"
        + (f" (a sample drawn with seed {seed})" if len(good) > count else " (all)")
        + ", sorted by line; each name: the games, the side to move's score [95% interval]",
    ]
    text = "\n".join(lines) + "\n" + "".join(e.line() + "\n" for e in chosen)
    parse_suite(text, rules, "the built suite")  # the one reader accepts every line
    return Built(text, games, len(found), rejected, len(good), len(chosen))
