"""Ending simulated games by the tables (``dsq simulate --adjudicate tablebase``).

A game is adjudicated at the first position where it goes on, a table on disk covers it,
and the table's result is certain under the no-capture rule: a draw, or a win in ``d``
plies with the clock at ``c`` and ``d <= N - c`` (``N = no_capture_plies``; any ``d``
when ``N = 0``). It ends there with the table's winner and reason ``tablebase``.

The referee's stepwise loop asks :meth:`Adjudicator.status` before each move; the fast
path plays whole games in compiled code and then cuts them at that same first position
(:func:`cut_games`), so both give the same records.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from engine import core
from engine.codes import BLUE_WON, DRAWN, RED_WON, TABLEBASE
from engine.errors import DsqError
from engine.rules import Ruleset, parse_rules
from sim.storage.paths import dsq_line
from sim.tablebase import outcomes as V
from sim.tablebase.game_scans import prefix_branching, table_positions
from sim.tablebase.material import Material
from sim.tablebase.probe import state_code
from sim.tablebase.store import TableCache, cache_for, rules_key

MODES = ("none", "tablebase")


def check_mode(mode: str) -> str:
    """``mode`` if it is an adjudication mode (``none`` or ``tablebase``), else DsqError."""
    if mode not in MODES:
        raise DsqError(f"--adjudicate takes one of {', '.join(MODES)}, not {mode!r}")
    return mode


def material_of_mask(mask: int) -> Material:
    """The material of a :mod:`sim.tablebase.game_scans` mask."""
    red = tuple(a for a in range(8, 0, -1) if mask >> (a - 1) & 1)
    blue = tuple(a for a in range(8, 0, -1) if mask >> (8 + a - 1) & 1)
    return Material(red, blue)


@dataclass
class Adjudicator:
    """The tables of one rule set in one folder, and the no-capture limit of the game."""

    key: str
    limit: int
    cache: TableCache
    max_pieces: int

    def verdict(self, code: int, side: int, clock: int) -> int | None:
        """The status (RED_WON, BLUE_WON, DRAWN) a table byte settles for certain with
        ``side`` to move and the clock at ``clock``, or None."""
        value, plies = V.decode(code)
        if value == "draw":
            return DRAWN
        if self.limit > 0 and int(plies or 0) > self.limit - clock:
            return None
        winner = side if value == "win" else 1 - side
        return RED_WON if winner == 0 else BLUE_WON

    def status(self, st: np.ndarray) -> int | None:
        """The status the tables settle for the (ongoing) position of ``st``, or None."""
        if int(st[core.S_COUNT]) + int(st[core.S_COUNT + 1]) > self.max_pieces:
            return None
        code = state_code(st, self.key, self.cache)
        if code is None:
            return None
        return self.verdict(code, int(st[core.S_SIDE]), int(st[core.S_CLOCK]))


@lru_cache(maxsize=32)
def _adjudicator(spec: str, root: str) -> Adjudicator:
    ruleset = parse_rules(spec)
    key = rules_key(ruleset)
    cache = cache_for(Path(root))
    top = max((m.pieces for m in cache.materials(key)), default=0)
    if top == 0:
        build = dsq_line(
            "tablebase", "build", "--rules", ruleset.spec, "--pieces", "3", data=cache.root.parent
        )
        raise DsqError(
            f"--adjudicate tablebase: no tables for rules {key} in {cache.root}; "
            f"build them first, e.g. {build}"
        )
    return Adjudicator(key, ruleset.no_capture_plies, cache, top)


def adjudicator(rules: Ruleset | str, root: Path | str | None = None) -> Adjudicator:
    """The adjudicator of a rule set over the tables in ``root`` (default: the data
    folder's); DsqError when that folder holds no table of the rule set."""
    return _adjudicator(parse_rules(rules).spec, str(cache_for(root).root))


def first_verdicts(rows: np.ndarray, adj: Adjudicator, n_games: int) -> tuple[np.ndarray, ...]:
    """From the rows of :func:`sim.tablebase.game_scans.table_positions`: per game, the
    first ply the tables settle (-1 if none), the status, and the row it came from."""
    cut = np.full(n_games, -1, dtype=np.int64)
    status = np.zeros(n_games, dtype=np.int64)
    where = np.full(n_games, -1, dtype=np.int64)
    if rows.shape[0] == 0:
        return cut, status, where
    settled = np.zeros(rows.shape[0], dtype=np.int64)  # status per row, 0 = not settled
    for mask in np.unique(rows[:, 2]):
        material = material_of_mask(int(mask))
        table = adj.cache.get(adj.key, material)
        if table is None:
            continue
        pick = np.flatnonzero(rows[:, 2] == mask)
        codes = table.values[rows[pick, 3]]
        for i, code in zip(pick, codes.tolist(), strict=True):
            side = int(rows[i, 3] >= material.half)
            verdict = adj.verdict(code, side, int(rows[i, 4]))
            if verdict is not None:
                settled[i] = verdict
    for i in np.flatnonzero(settled):  # rows come in game and ply order
        g = int(rows[i, 0])
        if cut[g] < 0:
            cut[g], status[g], where[g] = rows[i, 1], settled[i], i
    return cut, status, where


def cut_games(
    start: np.ndarray,
    rules: np.ndarray,
    adj: Adjudicator,
    summary: np.ndarray,
    moves: np.ndarray,
    move_offsets: np.ndarray,
    caps: np.ndarray,
    cap_offsets: np.ndarray,
    which: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """Cut whole games (the arrays of :func:`sim.bots.fast.fast_games`) at their first
    position the tables settle; return the same arrays for the games as adjudicated.
    ``start`` is one state, or with ``which`` the state headers game ``g`` starts from at
    ``start[which[g]]`` (:func:`sim.bots.fast.fast_games_from`)."""
    n = summary.shape[0]
    if which is None:
        start = np.ascontiguousarray(start[None, : core.HEADER])
        which = np.zeros(n, dtype=np.int64)
    last_ongoing = summary[:, 2] == core.ONGOING
    rows = table_positions(start, which, rules, moves, move_offsets, last_ongoing, adj.max_pieces)
    cut, status, where = first_verdicts(rows, adj, n)
    games = np.flatnonzero(cut >= 0)
    if games.size == 0:
        return summary, moves, move_offsets, caps, cap_offsets
    summary = summary.copy()
    summary[games, 1] = prefix_branching(
        start, which, rules, moves, move_offsets, games, cut[games]
    )
    summary[games, 0] = cut[games]
    summary[games, 2] = status[games]
    summary[games, 3] = TABLEBASE
    masks = rows[where[games], 2]
    summary[games, 4] = [bin(int(m) & 0xFF).count("1") for m in masks]
    summary[games, 5] = [bin(int(m) >> 8).count("1") for m in masks]
    plies = summary[:, 0]
    keep_moves = np.concatenate(
        [np.arange(move_offsets[g], move_offsets[g] + plies[g]) for g in range(n)]
    ).astype(np.int64)
    game_of_cap = np.repeat(np.arange(n), np.diff(cap_offsets))
    keep_caps = caps[:, 0] < plies[game_of_cap] if caps.shape[0] else np.zeros(0, dtype=bool)
    new_move_offsets = np.zeros(n + 1, dtype=move_offsets.dtype)
    new_move_offsets[1:] = np.cumsum(plies)
    new_cap_offsets = np.zeros(n + 1, dtype=cap_offsets.dtype)
    new_cap_offsets[1:] = np.cumsum(np.bincount(game_of_cap[keep_caps], minlength=n))
    return summary, moves[keep_moves], new_move_offsets, caps[keep_caps], new_cap_offsets
