"""Why a move is legal or not under a rule set: the docs/rules.md clause that decides it.

The clauses come from the engine's own kernels and names, in the order the kernels apply
them: :func:`engine.moves.capture_verdict` says which of Captures 1-5 decides a capture,
:func:`engine.moves.jump_allowed` and :func:`engine.moves.jump_blocked` decide a river
jump, and the options about a game's history (the anti-chasing rules of
:mod:`engine.ruleset_options`) are turned off one at a time to find the one that forbids
a move. The rules check uses it to file each difference between an external engine's
moves and ours under a clause.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from engine import core
from engine.board import DENS, JUMP_LAND, JUMP_PATH, NEIGHBOURS, WATER
from engine.codes import LION, RAT, TIGER, Reason
from engine.moves import CAPTURE_CLAUSES, capture_verdict, jump_allowed, jump_blocked
from engine.rules import Ruleset
from engine.ruleset_options import OPTIONS

END_CLAUSES = {
    Reason.DEN: "End 1: den",
    Reason.CAPTURE_ALL: "End 2: capture all",
    Reason.NO_CAPTURE: "End 3: no capture",
    Reason.NO_MOVES: "End 4: no moves",
}
# Options that forbid moves by a game's history (tables fix them at a value): 7-3, 17-5.
HISTORY_RULES = tuple(o for o in OPTIONS if o.kind is bool and o.table_value is not None)


def capture_clause(rules: Ruleset, acode: int, asq: int, dcode: int, dsq: int) -> tuple[bool, str]:
    """Whether ``acode`` on ``asq`` may capture ``dcode`` on ``dsq``, and the clause that
    decides it (a clause whose option changed the answer is named over the ones after)."""
    verdict = int(capture_verdict(rules.as_array(), acode, asq, dcode, dsq))
    return verdict > 0, f"Captures {abs(verdict)}: {CAPTURE_CLAUSES[abs(verdict) - 1]}"


def _jump_direction(frm: int, to: int) -> int | None:
    for direction in range(4):
        if JUMP_LAND[frm, direction] == to:
            return direction
    return None


def move_clause(st: np.ndarray, rules: Ruleset, move: int) -> tuple[bool, str]:
    """Whether ``move`` (``from * 64 + to``) is legal in ``st`` under ``rules``, and the
    clause that decides it."""
    frm, to = move >> 6, move & 63
    status = int(st[core.S_STATUS])
    if status:
        return False, END_CLAUSES.get(Reason(int(st[core.S_REASON])), "End of the game")
    code, side = int(st[frm]), int(st[core.S_SIDE])
    if code == 0 or core.side_of(code) != side:
        return False, "not a piece of the side to move"
    animal = core.animal_of(code)
    jump = _jump_direction(frm, to)
    if to not in NEIGHBOURS[frm] and jump is None:
        return False, "Movement 1: one step up, down, left or right"
    if to == DENS[side]:
        return False, "Movement 2: own den"
    clause = "Movement 1: a step"
    if jump is None and WATER[to]:
        if animal != RAT:
            return False, "Movement 3: only a rat enters water"
        clause = "Movement 3: a rat in water"
    if jump is not None:
        if animal not in (LION, TIGER):
            return False, "Movement 6: only a lion or a tiger jumps"
        arr = rules.as_array()
        if not jump_allowed(arr, animal, jump):
            return False, "Movement 9: lion_jump / tiger_jump"
        if jump_blocked(st, arr, side, frm, jump):
            return False, "Movement 7: a rat blocks the jump"
        rats = any(st[w] for w in JUMP_PATH[frm, jump] if w >= 0)
        clause = "Movement 7: jump_block" if rats else "Movement 6: a river jump"
    occ = int(st[to])
    if occ and core.side_of(occ) == side:
        return False, "Movement 4: own piece"
    if occ:
        allowed, clause = capture_clause(rules, code, frm, occ, to)
        if not allowed:
            return False, clause
    if _legal(st, rules, move):
        return True, clause
    for option in HISTORY_RULES:
        off: dict[str, Any] = {option.name: False}
        if getattr(rules, option.name) and _legal(st, replace(rules, **off), move):
            return False, option.clause
    return False, "repetition rules"


def _legal(st: np.ndarray, rules: Ruleset, move: int) -> bool:
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    n = int(core.legal_moves(st, rules.as_array(), buf))
    return move in buf[:n]
