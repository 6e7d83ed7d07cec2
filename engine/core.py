"""Compiled kernels: move generation, make/unmake, game status and perft.

A position lives in one int32 array ``st`` (layout below) so the kernels stay simple
and numba-friendly; the rule set is the int32 array of ``Ruleset.as_array``. Every kernel
also runs as plain Python with ``NUMBA_DISABLE_JIT=1``.

Layout of ``st``:
- ``st[0:63]``: the board, a piece code per square (0 empty, 1..8 Red rat..elephant,
  9..16 Blue);
- ``st[P_SQ + code]``: the square of each piece code, -1 once captured;
- side to move, no-capture clock, fullmove number, plies in the history, piece counts,
  game status and reason;
- from ``HEADER`` on, the history: ``HIST_SIZE`` ints per ply played since set-up
  (from, to, piece code, captured code, clock before, status before).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.board import DENS, JUMP_LAND, JUMP_PATH, NEIGHBOURS, TRAP_OWNER, WATER
from engine.rules import (
    R_JUMP_BLOCK,
    R_LION_JUMP,
    R_NO_CAPTURE,
    R_RAT_CROSS,
    R_RULE_7_3,
    R_RULE_17_5,
    R_STRENGTH,
    R_TIGER_JUMP,
)

P_SQ = 63
S_SIDE = 80
S_CLOCK = 81
S_FULLMOVE = 82
S_NPLY = 83
S_COUNT = 84  # S_COUNT + side: pieces left
S_STATUS = 86  # 0 ongoing, 1 Red won, 2 Blue won, 3 drawn
S_REASON = 87
HEADER = 96
HIST_SIZE = 6
MAX_MOVES = 48  # upper bound on legal moves in a position (8 pieces x 4 directions)

ONGOING, RED_WON, BLUE_WON, DRAWN = 0, 1, 2, 3
NO_REASON, DEN, CAPTURE_ALL, NO_MOVES, NO_CAPTURE, PLY_CAP = 0, 1, 2, 3, 4, 5
REASON_NAMES = ("", "den", "capture_all", "no_moves", "no_capture", "ply_cap")

_RAT, _ELEPHANT, _TIGER, _LION = 1, 8, 6, 7


def new_state(capacity: int = 1024) -> np.ndarray:
    """An empty state array with room for ``capacity`` plies of history."""
    st = np.zeros(HEADER + HIST_SIZE * capacity, dtype=np.int32)
    st[P_SQ : P_SQ + 17] = -1
    st[S_FULLMOVE] = 1
    return st


def history_capacity(st: np.ndarray) -> int:
    """How many plies of history the state array can hold."""
    return (st.shape[0] - HEADER) // HIST_SIZE


@njit(cache=True, inline="always")
def side_of(code):
    return (code - 1) >> 3


@njit(cache=True, inline="always")
def animal_of(code):
    return ((code - 1) & 7) + 1


@njit(cache=True)
def can_capture(rules, acode, asq, dcode, dsq):
    """Whether ``acode`` on ``asq`` may capture enemy ``dcode`` on ``dsq`` (captures only)."""
    a = animal_of(acode)
    d = animal_of(dcode)
    a_water = WATER[asq]
    d_water = WATER[dsq]
    if a_water != d_water:
        if not (rules[R_RAT_CROSS] != 0 and a == _RAT and d == _RAT):
            return False
    aside = side_of(acode)
    dside = side_of(dcode)
    if TRAP_OWNER[asq] == dside:
        return False
    if TRAP_OWNER[dsq] == aside:
        return True
    if a == _RAT and d == _ELEPHANT:
        return True
    if a == _ELEPHANT and d == _RAT:
        return False
    return rules[R_STRENGTH + a] >= rules[R_STRENGTH + d]


@njit(cache=True, inline="always")
def jump_allowed(rules, animal, direction):
    if animal == _LION:
        mode = rules[R_LION_JUMP]
    elif animal == _TIGER:
        mode = rules[R_TIGER_JUMP]
    else:
        return False
    if mode == 2:
        return True
    if mode == 1:
        return direction >= 2  # left or right
    return False


@njit(cache=True)
def jump_blocked(st, rules, side, sq, direction):
    """Whether a rat on the river path blocks a jump of ``side`` from ``sq`` in ``direction``."""
    for k in range(3):
        w = JUMP_PATH[sq, direction, k]
        if w < 0:
            break
        occ = st[w]
        if occ != 0:
            if rules[R_JUMP_BLOCK] == 0 or side_of(occ) != side:
                return True
    return False


@njit(cache=True)
def pseudo_moves(st, rules, out):
    """Moves of the side to move by movement and capture rules only; returns their count."""
    side = st[S_SIDE]
    own_den = DENS[side]
    n = 0
    for animal in range(1, 9):
        code = side * 8 + animal
        sq = st[P_SQ + code]
        if sq < 0:
            continue
        for direction in range(4):
            t = NEIGHBOURS[sq, direction]
            if t < 0 or t == own_den:
                continue
            if WATER[t]:
                if animal == _RAT:
                    occ = st[t]
                    if occ == 0 or (side_of(occ) != side and can_capture(rules, code, sq, occ, t)):
                        out[n] = sq * 64 + t
                        n += 1
                elif jump_allowed(rules, animal, direction):
                    land = JUMP_LAND[sq, direction]
                    if land >= 0 and not jump_blocked(st, rules, side, sq, direction):
                        occ = st[land]
                        if occ == 0 or (
                            side_of(occ) != side and can_capture(rules, code, sq, occ, land)
                        ):
                            out[n] = sq * 64 + land
                            n += 1
                continue
            occ = st[t]
            if occ == 0 or (side_of(occ) != side and can_capture(rules, code, sq, occ, t)):
                out[n] = sq * 64 + t
                n += 1
    return n


@njit(cache=True)
def is_chased(st, rules, code, sq):
    """Whether some enemy piece could capture ``code`` on ``sq`` by a step or a river jump."""
    enemy = 1 - side_of(code)
    for direction in range(4):
        nb = NEIGHBOURS[sq, direction]
        if nb >= 0:
            occ = st[nb]
            if occ != 0 and side_of(occ) == enemy and sq != DENS[enemy]:
                if not (WATER[sq] and animal_of(occ) != _RAT):
                    if can_capture(rules, occ, nb, code, sq):
                        return True
        land = JUMP_LAND[sq, direction]
        if land >= 0:
            occ = st[land]
            if occ != 0 and side_of(occ) == enemy:
                back = direction ^ 1  # up<->down, left<->right
                if jump_allowed(rules, animal_of(occ), back):
                    if not jump_blocked(st, rules, enemy, land, back):
                        if can_capture(rules, occ, land, code, sq):
                            return True
    return False


@njit(cache=True)
def _filter_repetition(st, rules, out, n):
    """Remove the moves forbidden by the 7-3 and 17-5 rules; returns the new count."""
    side = st[S_SIDE]
    nply = st[S_NPLY]
    if rules[R_RULE_7_3] != 0:
        # The mover's last 7 moves (fewer if it has made fewer).
        window = np.empty(7, dtype=np.int32)
        count = 0
        trap = False
        h = nply - 1
        while h >= 0 and count < 7:
            base = HEADER + h * HIST_SIZE
            if side_of(st[base + 2]) == side:
                window[count] = h
                count += 1
                if TRAP_OWNER[st[base + 1]] >= 0:
                    trap = True
            h -= 1
        if count >= 3 and not trap:
            k = 0
            for i in range(n):
                mv = out[i]
                frm = mv >> 6
                to = mv & 63
                code = st[frm]
                visits = 0
                for j in range(count):
                    base = HEADER + window[j] * HIST_SIZE
                    if st[base + 2] == code and st[base + 1] == to:
                        visits += 1
                if visits >= 3 and not is_chased(st, rules, code, frm):
                    continue
                out[k] = mv
                k += 1
            n = k
    if rules[R_RULE_17_5] != 0:
        count = 0
        piece = -1
        same = True
        trap = False
        squares = np.empty(18, dtype=np.int32)
        nsq = 0
        h = nply - 1
        while h >= 0 and count < 17:
            base = HEADER + h * HIST_SIZE
            code = st[base + 2]
            if side_of(code) == side:
                if piece < 0:
                    piece = code
                elif code != piece:
                    same = False
                    break
                if TRAP_OWNER[st[base + 1]] >= 0:
                    trap = True
                squares[nsq] = st[base + 1]
                nsq += 1
                count += 1
                if count == 17:
                    squares[nsq] = st[base]
                    nsq += 1
            h -= 1
        if same and count == 17 and not trap:
            distinct = np.empty(18, dtype=np.int32)
            nd = 0
            for i in range(nsq):
                seen = False
                for j in range(nd):
                    if distinct[j] == squares[i]:
                        seen = True
                        break
                if not seen:
                    distinct[nd] = squares[i]
                    nd += 1
            if nd <= 5:
                k = 0
                for i in range(n):
                    mv = out[i]
                    if st[mv >> 6] == piece:
                        to = mv & 63
                        banned = False
                        for j in range(nd):
                            if distinct[j] == to:
                                banned = True
                                break
                        if banned:
                            continue
                    out[k] = mv
                    k += 1
                n = k
    return n


@njit(cache=True)
def legal_moves(st, rules, out):
    """Fill ``out`` with the legal moves (``from * 64 + to``) and return their count.

    A finished game has no legal moves. Zero moves in an unfinished game means the side
    to move has lost by ``no_moves`` (see ``settle``).
    """
    if st[S_STATUS] != ONGOING:
        return 0
    n = pseudo_moves(st, rules, out)
    if rules[R_RULE_7_3] != 0 or rules[R_RULE_17_5] != 0:
        n = _filter_repetition(st, rules, out, n)
    return n


@njit(cache=True)
def make_move(st, rules, mv):
    """Play move ``mv`` (assumed legal), push it on the history and update the status."""
    frm = mv >> 6
    to = mv & 63
    code = st[frm]
    captured = st[to]
    side = st[S_SIDE]
    base = HEADER + st[S_NPLY] * HIST_SIZE
    st[base] = frm
    st[base + 1] = to
    st[base + 2] = code
    st[base + 3] = captured
    st[base + 4] = st[S_CLOCK]
    st[base + 5] = st[S_STATUS] * 8 + st[S_REASON]
    st[S_NPLY] += 1
    st[to] = code
    st[frm] = 0
    st[P_SQ + code] = to
    enemy = 1 - side
    if captured != 0:
        st[P_SQ + captured] = -1
        st[S_COUNT + enemy] -= 1
        st[S_CLOCK] = 0
    else:
        st[S_CLOCK] += 1
    if side == 1:
        st[S_FULLMOVE] += 1
    st[S_SIDE] = enemy
    if to == DENS[enemy]:
        st[S_STATUS] = 1 + side
        st[S_REASON] = DEN
    elif st[S_COUNT + enemy] == 0:
        st[S_STATUS] = 1 + side
        st[S_REASON] = CAPTURE_ALL
    elif rules[R_NO_CAPTURE] > 0 and st[S_CLOCK] >= rules[R_NO_CAPTURE]:
        st[S_STATUS] = DRAWN
        st[S_REASON] = NO_CAPTURE


@njit(cache=True)
def unmake_move(st):
    """Take back the last move of the history."""
    st[S_NPLY] -= 1
    base = HEADER + st[S_NPLY] * HIST_SIZE
    frm = st[base]
    to = st[base + 1]
    code = st[base + 2]
    captured = st[base + 3]
    st[S_CLOCK] = st[base + 4]
    st[S_STATUS] = st[base + 5] >> 3
    st[S_REASON] = st[base + 5] & 7
    mover = side_of(code)
    st[S_SIDE] = mover
    if mover == 1:
        st[S_FULLMOVE] -= 1
    st[frm] = code
    st[P_SQ + code] = frm
    st[to] = captured
    if captured != 0:
        st[P_SQ + captured] = to
        st[S_COUNT + 1 - mover] += 1


@njit(cache=True)
def settle(st, rules, buf):
    """Return the number of legal moves; if none in an unfinished game, record the
    ``no_moves`` loss of the side to move in the status."""
    n = legal_moves(st, rules, buf)
    if n == 0 and st[S_STATUS] == ONGOING:
        st[S_STATUS] = 2 - st[S_SIDE]  # the other side won
        st[S_REASON] = NO_MOVES
    return n


@njit(cache=True)
def _perft(st, rules, depth, bufs):
    if depth == 0:
        return 1
    buf = bufs[depth]
    n = legal_moves(st, rules, buf)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        make_move(st, rules, buf[i])
        total += _perft(st, rules, depth - 1, bufs)
        unmake_move(st)
    return total


@njit(cache=True)
def perft(st, rules, depth):
    """Number of leaf nodes of the legal-move tree of ``depth`` plies (bulk-counted)."""
    bufs = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    return _perft(st, rules, depth, bufs)


@njit(cache=True)
def divide(st, rules, depth, out_moves, out_counts):
    """perft(depth - 1) below each legal move; returns the number of moves."""
    n = legal_moves(st, rules, out_moves)
    bufs = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    for i in range(n):
        make_move(st, rules, out_moves[i])
        out_counts[i] = _perft(st, rules, depth - 1, bufs)
        unmake_move(st)
    return n
