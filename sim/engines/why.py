"""Why a move is legal or not under a rule set: the RULES.md clause that decides it.

Plain Python over the engine's board tables, in the order the kernels apply the clauses
(:mod:`engine.moves`, :mod:`engine.repetition`, :mod:`engine.game`); the rules check uses
it to file each difference between an external engine's moves and ours under a clause.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from engine import core
from engine.board import DENS, JUMP_LAND, JUMP_PATH, NEIGHBOURS, TRAP_OWNER, WATER
from engine.codes import ELEPHANT, LION, RAT, TIGER, Reason
from engine.rules import Ruleset

CAPTURES_1 = "Captures 1: water boundary"
CAPTURES_2 = "Captures 2: attacker in a trap"
CAPTURES_3 = "Captures 3: defender in a trap"
CAPTURES_4 = "Captures 4: rat and elephant"
CAPTURES_5 = "Captures 5: strength"
END_CLAUSES = {
    Reason.DEN: "End 1: den",
    Reason.CAPTURE_ALL: "End 2: capture all",
    Reason.NO_CAPTURE: "End 3: no capture",
    Reason.NO_MOVES: "End 4: no moves",
}


def _animal(code: int) -> int:
    return (code - 1) % 8 + 1


def _side(code: int) -> int:
    return (code - 1) // 8


def capture_clause(rules: Ruleset, acode: int, asq: int, dcode: int, dsq: int) -> tuple[bool, str]:
    """Whether ``acode`` on ``asq`` may capture ``dcode`` on ``dsq``, and the clause that
    decides it (a clause whose option changed the answer is named over the ones after)."""
    a, d = _animal(acode), _animal(dcode)
    option_clause = None
    if WATER[asq] != WATER[dsq]:  # Captures 1
        if not (rules.rat_cross_capture and a == RAT and d == RAT):
            return False, CAPTURES_1
        option_clause = CAPTURES_1  # rat_cross_capture allows it
    if TRAP_OWNER[asq] == _side(dcode):  # Captures 2
        if not rules.trapped_can_capture:
            return False, CAPTURES_2
        option_clause = CAPTURES_2  # trapped_can_capture skips the clause
    if TRAP_OWNER[dsq] == _side(acode):  # Captures 3
        return True, CAPTURES_3
    if a == RAT and d == ELEPHANT:  # Captures 4
        return True, option_clause or CAPTURES_4
    if a == ELEPHANT and d == RAT:  # Captures 4
        return rules.elephant_captures_rat, CAPTURES_4
    strength = rules.as_array()[8:17]  # R_STRENGTH + animal
    return bool(strength[a] >= strength[d]), option_clause or CAPTURES_5  # Captures 5


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
    if code == 0 or _side(code) != side:
        return False, "not a piece of the side to move"
    animal = _animal(code)
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
        mode = {LION: rules.lion_jump, TIGER: rules.tiger_jump}.get(animal, "none")
        if animal not in (LION, TIGER):
            return False, "Movement 6: only a lion or a tiger jumps"
        if mode == "none" or (mode == "horizontal" and jump < 2):
            return False, "Movement 9: lion_jump / tiger_jump"
        rats = [int(st[w]) for w in JUMP_PATH[frm, jump] if w >= 0 and st[w]]
        if any(rules.jump_block == "any" or _side(r) != side for r in rats):
            return False, "Movement 7: a rat blocks the jump"
        clause = "Movement 7: jump_block" if rats else "Movement 6: a river jump"
    occ = int(st[to])
    if occ and _side(occ) == side:
        return False, "Movement 4: own piece"
    if occ:
        allowed, clause = capture_clause(rules, code, frm, occ, to)
        if not allowed:
            return False, clause
    if _legal(st, rules, move):
        return True, clause
    for option, label in (("rule_7_3", "7-3 rule"), ("rule_17_5", "17-5 rule")):
        off: dict[str, Any] = {option: False}
        if getattr(rules, option) and _legal(st, replace(rules, **off), move):
            return False, label
    return False, "repetition rules"


def _legal(st: np.ndarray, rules: Ruleset, move: int) -> bool:
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    n = int(core.legal_moves(st, rules.as_array(), buf))
    return move in buf[:n]
