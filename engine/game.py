"""Compiled kernels that play the game: the legal moves, playing and taking back a move,
and the end of the game (docs/rules.md 'End of the game', End 1-4).

``make_move`` pushes a record on the history kept in the state (see :mod:`engine.state`)
and sets the status after the move; ``unmake_move`` pops it. ``settle`` finds the one end
that needs the move generator: the side to move has no legal move (End 4).
"""

from __future__ import annotations

from engine.board import DENS
from engine.codes import (
    CAPTURE_ALL,
    DEN,
    DRAWN,
    H_CAPTURED,
    H_CLOCK,
    H_FROM,
    H_PIECE,
    H_STATUS,
    H_TO,
    HIST_SIZE,
    NO_CAPTURE,
    NO_MOVES,
    ONGOING,
    RED_WON,
    STATUS_BITS,
    STATUS_MASK,
)
from engine.jit import kernel
from engine.moves import (
    count_pseudo_moves,
    pseudo_captures,
    pseudo_captures_and_others,
    pseudo_moves,
)
from engine.repetition import filter_7_3, filter_17_5, rule_7_3_keys, rule_17_5_squares
from engine.rules import R_NO_CAPTURE, R_RULE_7_3, R_RULE_17_5
from engine.state import (
    HEADER,
    P_SQ,
    S_CLOCK,
    S_COUNT,
    S_FULLMOVE,
    S_NPLY,
    S_REASON,
    S_SIDE,
    S_STATUS,
    side_of,
)


@kernel
def legal_moves(st, rules, out):
    """Fill ``out`` with the legal moves (``from * 64 + to``) and return their count.

    A finished game has no legal moves. Zero moves in an unfinished game means the side
    to move has lost by ``no_moves`` (see ``settle``).
    """
    if st[S_STATUS] != ONGOING:
        return 0
    return repetition_filtered(st, rules, out, pseudo_moves(st, rules, out))


@kernel
def legal_captures(st, rules, out):
    """The captures and den entries among the legal moves, in :func:`legal_moves`' order;
    returns their count."""
    if st[S_STATUS] != ONGOING:
        return 0
    return repetition_filtered(st, rules, out, pseudo_captures(st, rules, out))


@kernel
def legal_captures_or_none(st, rules, out):
    """:func:`legal_captures` (into ``out``; their count) in one walk that also tells
    whether the side to move has no legal move at all: ``(captures, none)``."""
    if st[S_STATUS] != ONGOING:
        return 0, True
    n, others = pseudo_captures_and_others(st, rules, out)
    n = repetition_filtered(st, rules, out, n)
    if n > 0:
        return n, False
    if others == 0:
        return 0, True
    if rules[R_RULE_7_3] != 0 or rules[R_RULE_17_5] != 0:  # they may forbid the others
        return 0, count_legal(st, rules, out) == 0
    return 0, False


@kernel(inline="always")
def repetition_filtered(st, rules, out, n):
    """Drop from the ``n`` moves in ``out`` those the rule set's anti-chasing rules forbid
    (docs/rules.md 'Anti-chasing rules': the 7-3 rule, then the 17-5 rule); returns how many are
    left, in their order."""
    if rules[R_RULE_7_3] != 0:  # 7-3 rule
        n = filter_7_3(st, rules, out, n)
    if rules[R_RULE_17_5] != 0:  # 17-5 rule
        n = filter_17_5(st, rules, out, n)
    return n


@kernel
def count_legal(st, rules, buf):
    """The number of legal moves (what :func:`legal_moves` returns), counted without listing
    them unless a repetition rule may forbid one; ``buf`` is scratch room for that case."""
    if st[S_STATUS] != ONGOING:
        return 0
    if rules[R_RULE_7_3] != 0 and rule_7_3_keys(st)[0] >= 0:  # 7-3 rule
        return legal_moves(st, rules, buf)
    if rules[R_RULE_17_5] != 0 and rule_17_5_squares(st)[0] >= 0:  # 17-5 rule
        return legal_moves(st, rules, buf)
    return count_pseudo_moves(st, rules)


@kernel
def make_move(st, rules, mv):
    """Play move ``mv`` (assumed legal), push it on the history and update the status."""
    frm = mv >> 6
    to = mv & 63
    code = st[frm]
    captured = st[to]
    side = st[S_SIDE]
    base = HEADER + st[S_NPLY] * HIST_SIZE
    st[base + H_FROM] = frm
    st[base + H_TO] = to
    st[base + H_PIECE] = code
    st[base + H_CAPTURED] = captured
    st[base + H_CLOCK] = st[S_CLOCK]
    st[base + H_STATUS] = (st[S_REASON] << STATUS_BITS) | st[S_STATUS]
    st[S_NPLY] += 1
    st[to] = code
    st[frm] = 0
    st[P_SQ + code] = to
    enemy = 1 - side
    if captured != 0:
        st[P_SQ + captured] = -1
        st[S_COUNT + enemy] -= 1
        st[S_CLOCK] = 0  # End 3: a capture sets the clock to 0
    else:
        st[S_CLOCK] += 1  # End 3: any other move adds 1
    if side == 1:
        st[S_FULLMOVE] += 1
    st[S_SIDE] = enemy
    if to == DENS[enemy]:  # End 1: den
        st[S_STATUS] = RED_WON + side
        st[S_REASON] = DEN
    elif st[S_COUNT + enemy] == 0:  # End 2: capture_all
        st[S_STATUS] = RED_WON + side
        st[S_REASON] = CAPTURE_ALL
    elif rules[R_NO_CAPTURE] > 0 and st[S_CLOCK] >= rules[R_NO_CAPTURE]:  # End 3: no_capture
        st[S_STATUS] = DRAWN
        st[S_REASON] = NO_CAPTURE


@kernel
def unmake_move(st):
    """Take back the last move of the history."""
    st[S_NPLY] -= 1
    base = HEADER + st[S_NPLY] * HIST_SIZE
    frm = st[base + H_FROM]
    to = st[base + H_TO]
    code = st[base + H_PIECE]
    captured = st[base + H_CAPTURED]
    st[S_CLOCK] = st[base + H_CLOCK]
    st[S_STATUS] = st[base + H_STATUS] & STATUS_MASK
    st[S_REASON] = st[base + H_STATUS] >> STATUS_BITS
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


@kernel
def settle(st, rules, buf):
    """Return the number of legal moves; if none in an unfinished game, record the
    ``no_moves`` loss of the side to move in the status."""
    n = legal_moves(st, rules, buf)
    if n == 0 and st[S_STATUS] == ONGOING:  # End 4: no_moves
        st[S_STATUS] = RED_WON + (1 - st[S_SIDE])  # the other side won
        st[S_REASON] = NO_MOVES
    return n
