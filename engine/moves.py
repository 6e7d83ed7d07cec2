"""Compiled kernels of what a piece may do: captures (RULES.md Captures 1-5), steps and
river jumps (Movement 1-9), and whether an enemy threatens a piece (the 7-3 exemption).

Each line that implements a clause of RULES.md says so in a comment (``# Captures 2: ...``),
so ``grep -rn "Captures 2" engine/`` finds it.
"""

from __future__ import annotations

from engine.board import DENS, JUMP_LAND, JUMP_PATH, LEFT, NEIGHBOURS, TRAP_OWNER, WATER
from engine.codes import BLOCK_ANY, ELEPHANT, JUMP_BOTH, JUMP_HORIZONTAL, LION, RAT, TIGER
from engine.jit import njit
from engine.rules import (
    R_ELEPHANT_RAT,
    R_JUMP_BLOCK,
    R_LION_JUMP,
    R_RAT_CROSS,
    R_STRENGTH,
    R_TIGER_JUMP,
    R_TRAPPED_CAPTURE,
)
from engine.state import P_SQ, S_SIDE, animal_of, side_of


@njit(cache=True)
def can_capture(rules, acode, asq, dcode, dsq):
    """Whether ``acode`` on ``asq`` may capture enemy ``dcode`` on ``dsq`` (captures only)."""
    a = animal_of(acode)
    d = animal_of(dcode)
    a_water = WATER[asq]
    d_water = WATER[dsq]
    if a_water != d_water:  # Captures 1: water boundary
        # ... except a rat capturing a rat, with rat_cross_capture
        if not (rules[R_RAT_CROSS] != 0 and a == RAT and d == RAT):
            return False
    aside = side_of(acode)
    dside = side_of(dcode)
    # Captures 2: attacker in a trap (skipped with trapped_can_capture)
    if TRAP_OWNER[asq] == dside and rules[R_TRAPPED_CAPTURE] == 0:
        return False
    if TRAP_OWNER[dsq] == aside:  # Captures 3: defender in a trap
        return True
    if a == RAT and d == ELEPHANT:  # Captures 4: rat and elephant (a rat takes an elephant)
        return True
    # Captures 4: rat and elephant (an elephant may not, unless elephant_captures_rat)
    if a == ELEPHANT and d == RAT:
        return rules[R_ELEPHANT_RAT] != 0
    return rules[R_STRENGTH + a] >= rules[R_STRENGTH + d]  # Captures 5: strength


@njit(cache=True, inline="always")
def jump_allowed(rules, animal, direction):
    """Whether ``animal`` may jump a river in ``direction`` under ``lion_jump``/``tiger_jump``."""
    if animal == LION:  # Movement 6: a lion or tiger jumps across a river
        mode = rules[R_LION_JUMP]  # Movement 9: lion_jump
    elif animal == TIGER:  # Movement 6: a lion or tiger jumps across a river
        mode = rules[R_TIGER_JUMP]  # Movement 9: tiger_jump
    else:
        return False
    if mode == JUMP_BOTH:  # Movement 9: both directions
        return True
    if mode == JUMP_HORIZONTAL:  # Movement 9: horizontal jumps only
        return direction >= LEFT  # left or right
    return False  # Movement 9: no jumps


@njit(cache=True)
def jump_blocked(st, rules, side, sq, direction):
    """Whether a rat on the river path blocks a jump of ``side`` from ``sq`` in ``direction``."""
    for k in range(3):
        w = JUMP_PATH[sq, direction, k]
        if w < 0:
            break
        occ = st[w]
        if occ != 0:  # Movement 7: a rat on the path blocks the jump
            # Movement 7: with jump_block=enemy only an enemy rat blocks
            if rules[R_JUMP_BLOCK] == BLOCK_ANY or side_of(occ) != side:
                return True
    return False


@njit(cache=True)
def pseudo_moves(st, rules, out):
    """Moves of the side to move by movement and capture rules only; returns their count."""
    side = st[S_SIDE]
    own_den = DENS[side]
    n = 0
    for animal in range(RAT, ELEPHANT + 1):
        code = side * 8 + animal
        sq = st[P_SQ + code]
        if sq < 0:
            continue
        for direction in range(4):
            t = NEIGHBOURS[sq, direction]  # Movement 1: one step up, down, left or right
            if t < 0 or t == own_den:  # Movement 2: no piece enters its own den
                continue
            if WATER[t]:
                if animal == RAT:  # Movement 3: only a rat enters water
                    occ = st[t]
                    # Movement 4: not onto its own piece; Movement 5: a capture by the rules
                    if occ == 0 or (side_of(occ) != side and can_capture(rules, code, sq, occ, t)):
                        out[n] = sq * 64 + t
                        n += 1
                elif jump_allowed(rules, animal, direction):  # Movement 6: jump across a river
                    land = JUMP_LAND[sq, direction]  # Movement 6: the first land square beyond
                    # Movement 7: a rat on the path blocks the jump
                    if land >= 0 and not jump_blocked(st, rules, side, sq, direction):
                        occ = st[land]
                        # Movement 8: the landing square is empty or a capturable enemy
                        if occ == 0 or (
                            side_of(occ) != side and can_capture(rules, code, sq, occ, land)
                        ):
                            out[n] = sq * 64 + land
                            n += 1
                continue  # Movement 3: only a rat enters water
            occ = st[t]
            # Movement 4: not onto its own piece; Movement 5: a capture by the rules
            if occ == 0 or (side_of(occ) != side and can_capture(rules, code, sq, occ, t)):
                out[n] = sq * 64 + t
                n += 1
    return n


@njit(cache=True)
def is_chased(st, rules, code, sq):
    """Whether some enemy piece could capture ``code`` on ``sq`` by a step or a river jump.

    This is the 7-3 rule's exemption: whose turn it is and the repetition rules are ignored.
    """
    # 7-3 rule: P is chased when an enemy could capture it by a step or a river jump
    enemy = 1 - side_of(code)
    for direction in range(4):
        nb = NEIGHBOURS[sq, direction]  # Movement 1: an enemy one step away
        if nb >= 0:
            occ = st[nb]
            # Movement 2: no piece enters its own den
            if occ != 0 and side_of(occ) == enemy and sq != DENS[enemy]:
                if not (WATER[sq] and animal_of(occ) != RAT):  # Movement 3: only a rat enters water
                    if can_capture(rules, occ, nb, code, sq):  # Movement 5: a capture by the rules
                        return True
        land = JUMP_LAND[sq, direction]  # Movement 6: an enemy across a river
        if land >= 0:
            occ = st[land]
            if occ != 0 and side_of(occ) == enemy:
                back = direction ^ 1  # up<->down, left<->right
                if jump_allowed(rules, animal_of(occ), back):  # Movement 9: it may jump
                    if not jump_blocked(st, rules, enemy, land, back):  # Movement 7: blocked jump
                        # Movement 8: the jumper may capture the piece it lands on
                        if can_capture(rules, occ, land, code, sq):
                            return True
    return False
