"""Compiled kernels of what a piece may do: captures (docs/rules.md Captures 1-5), steps and
river jumps (Movement 1-9), and whether an enemy threatens a piece (the 7-3 exemption).

Moves are found with bitboards (:mod:`engine.bitboards`): a piece's targets are the
squares its movement mode reaches from its square, less its own pieces, jumps a rat
blocks and enemies it may not capture. They are listed by animal (rat first), then by
direction (up, down, left, right): the order bots and games depend on.

Each line that implements a clause of docs/rules.md says so in a comment (``# Captures 2: ...``),
so ``grep -rn "Captures 2" engine/`` finds it.
"""

from __future__ import annotations

import numpy as np

from engine.bitboards import (
    JUMP_FROM,
    JUMP_PATH_BB,
    MODE_JUMP_BOTH,
    MODE_JUMP_H,
    MODE_LAND,
    MODE_RAT,
    REACH,
    STEPS,
    TARGET,
    WATER_BB,
)
from engine.bitops import lowest_bit, popcount
from engine.board import DENS, JUMP_LAND, JUMP_PATH, LEFT, NEIGHBOURS, TRAP_OWNER, WATER
from engine.codes import BLOCK_ANY, ELEPHANT, JUMP_BOTH, JUMP_HORIZONTAL, LION, RAT, TIGER
from engine.jit import kernel
from engine.ruleset_options import (
    R_ELEPHANT_RAT,
    R_JUMP_BLOCK,
    R_LION_JUMP,
    R_RAT_CROSS,
    R_STRENGTH,
    R_TIGER_JUMP,
    R_TRAPPED_CAPTURE,
)
from engine.state import P_SQ, S_SIDE, animal_of, side_of

CAPTURE_CLAUSES = (
    "water boundary",
    "attacker in a trap",
    "defender in a trap",
    "rat and elephant",
    "strength",
)
"""The titles of Captures 1-5 (``CAPTURE_CLAUSES[c - 1]``), as ``docs/rules.md`` heads them."""


@kernel(inline="always")
def capture_verdict(rules, acode, asq, dcode, dsq):
    """Whether ``acode`` on ``asq`` may capture enemy ``dcode`` on ``dsq``, and by which
    clause: ``c`` (allowed) or ``-c`` (refused), ``c`` the number of the clause of Captures
    1-5 that decides; an option that let the capture through an earlier clause (1 with
    rat_cross_capture, 2 with trapped_can_capture) names that clause instead of 4 or 5."""
    a = animal_of(acode)
    d = animal_of(dcode)
    by = 0  # the earlier clause whose option let the capture through
    if WATER[asq] != WATER[dsq]:  # Captures 1: water boundary
        # Captures 1: ... except a rat capturing a rat, with rat_cross_capture
        if not (rules[R_RAT_CROSS] != 0 and a == RAT and d == RAT):
            return -1
        by = 1
    aside = side_of(acode)
    dside = side_of(dcode)
    if TRAP_OWNER[asq] == dside:  # Captures 2: attacker in a trap
        if rules[R_TRAPPED_CAPTURE] == 0:  # Captures 2: skipped with trapped_can_capture
            return -2
        by = 2
    if TRAP_OWNER[dsq] == aside:  # Captures 3: defender in a trap
        return 3
    if a == RAT and d == ELEPHANT:  # Captures 4: rat and elephant (a rat takes an elephant)
        return by if by else 4
    # Captures 4: rat and elephant (an elephant may not, unless elephant_captures_rat)
    if a == ELEPHANT and d == RAT:
        return 4 if rules[R_ELEPHANT_RAT] != 0 else -4
    clause = by if by else 5
    if rules[R_STRENGTH + a] >= rules[R_STRENGTH + d]:  # Captures 5: strength
        return clause
    return -clause


@kernel
def can_capture(rules, acode, asq, dcode, dsq):
    """Whether ``acode`` on ``asq`` may capture enemy ``dcode`` on ``dsq`` (captures only)."""
    return capture_verdict(rules, acode, asq, dcode, dsq) > 0


@kernel(inline="always")
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


@kernel
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


@kernel(inline="always")
def move_mode(rules, animal):
    """How ``animal`` moves (a mode of :mod:`engine.bitboards`) under the rule set."""
    if animal == RAT:  # Movement 3: only a rat enters water
        return MODE_RAT
    if animal == LION:  # Movement 6: a lion or tiger jumps across a river
        jump = rules[R_LION_JUMP]  # Movement 9: lion_jump
    elif animal == TIGER:
        jump = rules[R_TIGER_JUMP]  # Movement 9: tiger_jump
    else:
        return MODE_LAND
    if jump == JUMP_BOTH:  # Movement 9: both directions
        return MODE_JUMP_BOTH
    if jump == JUMP_HORIZONTAL:  # Movement 9: horizontal jumps only
        return MODE_JUMP_H
    return MODE_LAND  # Movement 9: no jumps


@kernel(inline="always")
def side_bits(st, side):
    """The squares of ``side``'s pieces as a bitboard."""
    bb = np.int64(0)
    base = P_SQ + side * 8
    for animal in range(RAT, ELEPHANT + 1):
        sq = st[base + animal]
        bb |= np.int64(sq >= 0) << (sq & 63)
    return bb


@kernel(inline="always")
def jump_blockers(st, rules, side):
    """The rats that block a jump of ``side`` (Movement 7), as a bitboard: those in the
    river, where every jump's path lies (none, most of the time)."""
    sq = st[P_SQ + (1 - side) * 8 + RAT]
    bb = np.int64(sq >= 0) << (sq & 63)
    if rules[R_JUMP_BLOCK] == BLOCK_ANY:  # Movement 7: with jump_block=enemy only an enemy rat
        sq = st[P_SQ + side * 8 + RAT]
        bb |= np.int64(sq >= 0) << (sq & 63)
    return bb & WATER_BB


@kernel(inline="always")
def reach_bits(mode, side, sq, blockers):
    """The squares a piece of ``side`` moving by ``mode`` reaches from ``sq`` by a step or a
    river jump, less the jumps a rat of ``blockers`` blocks, as a bitboard (any piece may
    stand there). Steps and jumps are symmetric: a piece on one of them could come back."""
    # The squares of Movement 1-3, 6 and 9 (engine.bitboards), then:
    tg = REACH[mode, side, sq]
    if mode >= MODE_JUMP_H and blockers != 0:
        for d in range(4):
            # Movement 7: a rat on the path blocks the jump
            if (JUMP_PATH_BB[mode, sq, d] & blockers) != 0:
                tg &= ~(np.int64(1) << TARGET[mode, side, sq, d])
    return tg


@kernel(inline="always")
def piece_targets(st, rules, code, sq, mode, side, own, enemy, blockers):
    """The squares piece ``code`` on ``sq`` may move to, as a bitboard."""
    tg = reach_bits(mode, side, sq, blockers) & ~own  # Movement 4: not onto its own piece
    prey = tg & enemy
    while prey != 0:
        t = lowest_bit(prey)
        # Movement 5: a capture by the rules; Movement 8: also where a jump lands
        if not can_capture(rules, code, sq, st[t], t):
            tg ^= np.int64(1) << t
        prey &= prey - 1
    return tg


COUNT, BY_DIRECTION, BY_SQUARE = 0, 1, 2  # how walk_pseudo gives the moves


@kernel(inline="always")
def walk_pseudo(st, rules, out, captures_only, count_others, listing):
    """The one walk over the side to move's pieces behind :func:`pseudo_moves`,
    :func:`pseudo_captures`, :func:`captures_and_others` and :func:`count_pseudo_moves`
    (the flags are constants in each, so each compiles to its own loop).

    Lists into ``out`` (``listing``: BY_DIRECTION, by animal then direction, the order
    bots depend on; BY_SQUARE, by animal then square, quicker when few are listed) or
    counts (COUNT) the moves, or only the captures and den entries (``captures_only``);
    returns ``(listed, others)``, ``others`` the count of the remaining moves when
    ``count_others``, else 0. With COUNT, ``out`` is not written (any int32 array will do)."""
    side = st[S_SIDE]
    own = side_bits(st, side)
    enemy = side_bits(st, 1 - side)
    wanted = np.int64(-1)
    if captures_only:
        wanted = enemy | (np.int64(1) << DENS[1 - side])
    blockers = jump_blockers(st, rules, side)
    n = 0
    others = 0
    for animal in range(RAT, ELEPHANT + 1):
        code = side * 8 + animal
        sq = st[P_SQ + code]
        if sq < 0:
            continue
        mode = move_mode(rules, animal)
        if captures_only and not count_others and (REACH[mode, side, sq] & wanted) == 0:
            continue
        tg = piece_targets(st, rules, code, sq, mode, side, own, enemy, blockers)
        if count_others:
            others += popcount(tg & ~wanted)
        tg &= wanted
        if listing == BY_DIRECTION:
            for d in range(4):
                t = TARGET[mode, side, sq, d]
                out[n] = sq * 64 + t
                n += (tg >> t) & 1
        elif listing == BY_SQUARE:
            while tg != 0:
                t = lowest_bit(tg)
                out[n] = sq * 64 + t
                n += 1
                tg &= tg - 1
        else:
            n += popcount(tg)
    return n, others


@kernel
def pseudo_moves(st, rules, out):
    """Moves of the side to move by movement and capture rules only; returns their count.

    ``out`` needs room for 33 entries (it is written one entry past the last move)."""
    return walk_pseudo(st, rules, out, False, False, BY_DIRECTION)[0]


@kernel
def pseudo_captures(st, rules, out):
    """The captures and den entries among :func:`pseudo_moves`, in the same order; returns
    their count (``out`` as there)."""
    return walk_pseudo(st, rules, out, True, False, BY_DIRECTION)[0]


@kernel
def captures_and_others(st, rules, out):
    """The captures and den entries of :func:`pseudo_captures` (into ``out``, by square
    rather than direction) and how many other moves the side to move has:
    ``(captures, others)``."""
    return walk_pseudo(st, rules, out, True, True, BY_SQUARE)


@kernel
def pseudo_captures_and_others(st, rules, out):
    """:func:`pseudo_captures` (the same list, in the same order) and how many other moves
    the side to move has: ``(captures, others)``."""
    return walk_pseudo(st, rules, out, True, True, BY_DIRECTION)


@kernel
def count_pseudo_moves(st, rules):
    """How many moves :func:`pseudo_moves` would list, without listing them."""
    return walk_pseudo(st, rules, st, False, False, COUNT)[0]  # nothing listed: st unwritten


@kernel
def threatened(st, rules, code, sq, enemy_bits):
    """:func:`is_chased` given the enemy's squares as a bitboard (``enemy_bits``)."""
    enemy = 1 - side_of(code)
    # No enemy one step away and no enemy lion or tiger across a river: not chased.
    jumpers = st[P_SQ + enemy * 8 + LION], st[P_SQ + enemy * 8 + TIGER]
    across = JUMP_FROM[sq] & (
        (np.int64(jumpers[0] >= 0) << (jumpers[0] & 63))
        | (np.int64(jumpers[1] >= 0) << (jumpers[1] & 63))
    )
    if (STEPS[sq] & enemy_bits) == 0 and across == 0:
        return False
    # 7-3 rule: P is chased when an enemy could capture it by a step or a river jump
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
        if land >= 0 and across != 0:
            occ = st[land]
            if occ != 0 and side_of(occ) == enemy:
                back = direction ^ 1  # up<->down, left<->right
                if jump_allowed(rules, animal_of(occ), back):  # Movement 9: it may jump
                    if not jump_blocked(st, rules, enemy, land, back):  # Movement 7: blocked jump
                        # Movement 8: the jumper may capture the piece it lands on
                        if can_capture(rules, occ, land, code, sq):
                            return True
    return False


@kernel
def is_chased(st, rules, code, sq):
    """Whether some enemy piece could capture ``code`` on ``sq`` by a step or a river jump.

    This is the 7-3 rule's exemption: whose turn it is and the repetition rules are ignored.
    """
    return threatened(st, rules, code, sq, side_bits(st, 1 - side_of(code)))


@kernel
def chased_bits(st, rules, side):
    """The squares of ``side``'s pieces that some enemy piece could capture by a step or a
    river jump, as a bitboard: :func:`is_chased` of every piece of ``side`` at once."""
    enemy = 1 - side
    prey = side_bits(st, side)
    blockers = jump_blockers(st, rules, enemy)
    chased = np.int64(0)
    for animal in range(RAT, ELEPHANT + 1):
        code = enemy * 8 + animal
        sq = st[P_SQ + code]
        if sq < 0:
            continue
        mode = move_mode(rules, animal)
        # Movement 1-3, 6, 9: the squares the enemy piece reaches (engine.bitboards)
        if (REACH[mode, enemy, sq] & prey & ~chased) == 0:
            continue
        hits = reach_bits(mode, enemy, sq, blockers) & prey & ~chased  # Movement 7
        while hits != 0:
            t = lowest_bit(hits)
            if can_capture(rules, code, sq, st[t], t):  # Movement 5, 8: a capture by the rules
                chased |= np.int64(1) << t
            hits &= hits - 1
    return chased
