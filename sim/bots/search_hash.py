"""The position hashes of the alpha-beta search (:mod:`sim.bots.search`): the Zobrist
hash after a move (its own inverse), the transposition table's key (the board hash, plus
the no-capture clock once a draw by it is near) and the slot a child probes, and the ring
of the game's hashes in ``ws`` that finds a repeated position."""

from __future__ import annotations

from engine import core
from engine.codes import H_CAPTURED, H_FROM, H_PIECE, H_TO
from engine.jit import kernel
from engine.rules import R_NO_CAPTURE
from sim.bots.evaluate import CLOCK_HORIZON, Z_CLOCK, Z_SIDE, ZOBRIST
from sim.bots.search_layout import REP_LOOKBACK, REP_OFF, REP_RING


@kernel
def record_history_hashes(st, h, ws):
    """Fill the ring of position hashes for the game so far (``h``: the current one)."""
    nply = st[core.S_NPLY]
    ws[REP_OFF + (nply % REP_RING)] = h
    k = nply - 1
    while k >= 0 and k > nply - REP_RING:
        base = core.HEADER + k * core.HIST_SIZE
        frm = st[base + H_FROM]
        to = st[base + H_TO]
        code = st[base + H_PIECE]
        cap = st[base + H_CAPTURED]
        h = move_hash(h, code, frm, to, cap)  # its own inverse: the move undone
        ws[REP_OFF + (k % REP_RING)] = h
        k -= 1


@kernel
def repeated(st, ws, h):
    """Record ``h`` for this ply; whether the position occurred before since the last
    capture (same side to move; looked back at most REP_LOOKBACK plies)."""
    nply = st[core.S_NPLY]
    ws[REP_OFF + (nply % REP_RING)] = h
    lim = min(st[core.S_CLOCK], nply, REP_LOOKBACK)
    k = 4
    while k <= lim:
        if ws[REP_OFF + ((nply - k) % REP_RING)] == h:
            return True
        k += 2
    return False


@kernel
def move_hash(h, code, frm, to, cap):
    """The board hash ``h`` after piece ``code`` moves from ``frm`` to ``to`` capturing
    ``cap`` (0: nothing), the other side to move; the same XOR undoes the move."""
    h ^= ZOBRIST[code * 63 + frm] ^ ZOBRIST[code * 63 + to] ^ ZOBRIST[Z_SIDE]
    if cap != 0:
        h ^= ZOBRIST[cap * 63 + to]
    return h


@kernel
def clock_key(rules, h, clock):
    """The table key of board hash ``h`` with the no-capture clock at ``clock``: the clock
    counts once a draw by it is near (End 3)."""
    nc = rules[R_NO_CAPTURE]
    if nc > 0:
        rem = nc - clock
        if rem <= CLOCK_HORIZON:
            if rem < 0:
                rem = 0
            h ^= ZOBRIST[Z_CLOCK + rem]
    return h


@kernel
def tt_key_of(st, rules, h):
    """The table key: the board hash, plus the no-capture clock when a draw is near."""
    return clock_key(rules, h, st[core.S_CLOCK])


@kernel
def make_hashed(st, rules, mv, h):
    """Play ``mv`` and return the new board hash."""
    frm = mv >> 6
    to = mv & 63
    h = move_hash(h, st[frm], frm, to, st[to])
    core.make_move(st, rules, mv)
    return h


@kernel
def child_slot(st, rules, mv, h, mask):
    """The table slot (``key & mask``) the position after ``mv`` probes, from the board
    hash ``h`` of this one (``st`` unchanged; see :func:`make_hashed`, :func:`tt_key_of`)."""
    frm = mv >> 6
    to = mv & 63
    cap = st[to]
    clock = 0 if cap != 0 else st[core.S_CLOCK] + 1  # End 3: a capture sets it to 0
    return clock_key(rules, move_hash(h, st[frm], frm, to, cap), clock) & mask
