"""Probing tables: the value of a position and the moves that keep it, from a FEN or a
kernel state.

Tables are read through a :class:`~sim.tablebase.store.TableCache` (loaded once per
process). A position is probed under the table rules of its rule set (no anti-chasing
rules, no clock): its legal moves are those of the position without history.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from engine import core
from engine.board import DENS, NSQ
from engine.errors import DsqError
from engine.fen import parse_fen
from engine.position import decode_move
from engine.rules import Ruleset, parse_rules
from sim.storage.paths import dsq_line
from sim.tablebase import outcomes as V
from sim.tablebase.material import MAX_PIECES, Material, index_of, material_of_board
from sim.tablebase.store import TableCache, TableError, cache_for, rules_key, table_ruleset


@dataclass(frozen=True)
class Probe:
    """The value of a position for the side to move (``win``/``loss``/``draw``), the plies
    to the end with best play (None for a draw), and every move that keeps that value at
    its best ply count (sorted, e.g. ``["a3a4"]``)."""

    value: str
    plies: int | None
    best: tuple[str, ...]

    def as_dict(self, fen: str) -> dict[str, object]:
        """The JSON answer of ``dsq tablebase probe``."""
        return {"fen": fen, "value": self.value, "plies": self.plies, "best": list(self.best)}


class NoTable(DsqError):
    """A position no table covers (too many animals), or whose table is not built."""


@lru_cache(maxsize=64)
def _rules(rules: Ruleset | str | None) -> tuple[str, Ruleset, np.ndarray]:
    ruleset = parse_rules(rules)
    return rules_key(ruleset), ruleset, table_ruleset(ruleset).as_array()


def pieces_on(st: np.ndarray) -> int:
    """How many animals stand on the board of a state."""
    return int(st[core.S_COUNT]) + int(st[core.S_COUNT + 1])


def table_code(cache: TableCache, key: str, board: np.ndarray, side: int) -> int | None:
    """The table byte of a position (pieces on ``board``, ``side`` to move), or None when
    no table covers it: a side without animals, more than the largest tables hold, or a
    table that is not on disk. A damaged file raises TableError."""
    found = material_of_board(board)
    if found is None:
        return None
    material, squares = found
    if material.pieces > MAX_PIECES:
        return None
    table = cache.get(key, material)
    if table is None:
        return None
    return int(table.values[index_of(material, squares, side)])


def material_needed(st: np.ndarray) -> Material | None:
    """The material of a state's position, None when a side has no animal."""
    found = material_of_board(st[:NSQ])
    return None if found is None else found[0]


def move_codes(
    st: np.ndarray, table_rules: np.ndarray, cache: TableCache, key: str, moves: np.ndarray
) -> list[int]:
    """For each move of ``moves`` (legal in ``st``), the table byte of the resulting
    position for the mover: what that move is worth. Raises NoTable when a resulting
    position's table is missing."""
    side = int(st[core.S_SIDE])
    enemy_den = int(DENS[1 - side])
    board = st[:NSQ].copy()
    out = []
    enemies = int(st[core.S_COUNT + 1 - side])
    for mv in moves:
        frm, to = int(mv) >> 6, int(mv) & 63
        # End 1: den; End 2: capture_all (the last enemy animal, or none left already)
        if to == enemy_den or enemies == 0 or (board[to] != 0 and enemies == 1):
            out.append(V.win_code(1))
            continue
        piece, victim = board[frm], board[to]
        board[to], board[frm] = piece, 0
        child = table_code(cache, key, board, 1 - side)
        board[frm], board[to] = piece, victim
        if child is None:
            found = material_of_board(board)
            name = found[0].name if found is not None else "?"
            build = dsq_line(
                "tablebase", "build", "--rules", key, "--material", name, data=cache.root.parent
            )
            raise NoTable(
                f"the table of a position after {decode_move(int(mv))} is missing"
                f" (material {name}); build it with {build}"
            )
        out.append(V.after_move(child))
    return out


def probe_state(st: np.ndarray, rules: Ruleset | str | None, cache: TableCache) -> Probe | None:
    """The table's answer for a kernel state (its board and side to move; the clock and
    history are not part of a table), or None when no table covers the position."""
    key, _, tra = _rules(rules)
    side = int(st[core.S_SIDE])
    if int(st[core.S_COUNT + side]) == 0:  # End 2: the side to move has no animal: lost
        return Probe("loss", 0, ())
    if pieces_on(st) > MAX_PIECES:
        return None
    work = core.new_state(2)
    work[: core.HEADER] = st[: core.HEADER]
    work[core.S_NPLY] = 0
    work[core.S_STATUS] = core.ONGOING
    work[core.S_REASON] = 0
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    n = int(core.legal_moves(work, tra, buf))
    moves = buf[:n].copy()
    if int(st[core.S_COUNT + 1 - side]) == 0:  # every move captures all (End 2)
        code = V.win_code(1) if n else V.loss_code(0)
    else:
        found = table_code(cache, key, st[:NSQ], side)
        if found is None:
            return None
        code = found
    worth = move_codes(work, tra, cache, key, moves) if n else []
    value, plies = V.decode(code)
    best = sorted(decode_move(int(m)) for m, w in zip(moves, worth, strict=True) if w == code)
    return Probe(value, plies, tuple(best))


def probe_fen(rules: Ruleset | str | None, fen: str, root: Path | str | None = None) -> Probe:
    """The table's answer for a FEN; raises DsqError on a bad FEN or rules spec, NoTable
    when no table covers the position (too many animals, or not built yet)."""
    key, _, tra = _rules(rules)
    st = parse_fen(fen, tra, 1)
    count = pieces_on(st)
    if count > MAX_PIECES:
        raise NoTable(f"the position has {count} animals; tables hold at most {MAX_PIECES}")
    cache = cache_for(root)
    answer = probe_state(st, rules, cache)
    if answer is None:
        material = material_needed(st)
        build = dsq_line(
            "tablebase", "build", "--rules", key, "--material", str(material),
            data=cache.root.parent,
        )  # fmt: skip
        raise NoTable(f"no table {material} for rules {key} in {cache.root}; build it with {build}")
    return answer


def state_code(st: np.ndarray, key: str, cache: TableCache) -> int | None:
    """The table byte of a kernel state's position for the side to move (a side without
    animals: lost in 0 or won in 1), or None when no table on disk covers it."""
    side = int(st[core.S_SIDE])
    if int(st[core.S_COUNT + side]) == 0:
        return V.loss_code(0)
    if int(st[core.S_COUNT + 1 - side]) == 0 or pieces_on(st) > MAX_PIECES:
        return None
    return table_code(cache, key, st[:NSQ], side)


def probe(
    rules: Ruleset | str | None, position: str | np.ndarray, root: Path | str | None = None
) -> tuple[str, int | None] | None:
    """``(value, plies)`` of a position (a FEN or a kernel state) for the side to move, or
    None when no table on disk covers it. Raises DsqError on a bad FEN or rules spec."""
    key, _, tra = _rules(rules)
    st = parse_fen(position, tra, 1) if isinstance(position, str) else position
    code = state_code(st, key, cache_for(root))
    return None if code is None else V.decode(code)


__all__ = [
    "NoTable",
    "Probe",
    "TableError",
    "probe",
    "probe_fen",
    "probe_state",
    "state_code",
    "table_code",
]
