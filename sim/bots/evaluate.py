"""The evaluation shared by alpha-beta and MCTS, and the Zobrist keys of the search.

Score of a position for the side to move, in the units of the animal values (default
rat 450, cat 200, dog 300, wolf 350, leopard 500, tiger 800, lion 900, elephant 1000):

- material: the sum of the values of each side's pieces;
- advance: each piece earns ``ADVANCE[distance to the enemy den]`` (Manhattan distance,
  large near the den: a piece beside the den threatens to enter it; on the enemy traps
  it is weak but a threat), times 1/2 for the elephant, whose job is mostly defence;
- defence: a piece within two steps of its own den earns ``DEFEND``;
- den threats: an enemy piece beside one's own den when that side is to move and can
  capture it counts for little, but if the side to move has a piece beside the enemy den
  it wins next ply (found by the search, which treats den entries as tactical moves);
- pieces in danger: the side to move loses half the value of its second most valuable
  piece that an enemy could capture now (it can save only one), and a quarter of the most
  valuable one when several are attacked.

Everything is read from tables built here once, so it compiles with numba and runs as
plain Python with ``NUMBA_DISABLE_JIT=1``.

A tuned evaluation (:func:`evaluate_tuned`, weights from :mod:`sim.bots.evalfile`) reads
its weights from the same array as the values, in the block at ``EVAL_OFF`` (``E_KIND``
1): the animal values, a square table per animal seen from its owner's side, the
penalties of the side to move's first and second pieces in danger, and a move bonus.
"""

from __future__ import annotations

import numpy as np

from engine import core
from engine.bitboards import JUMP_FROM, STEPS
from engine.board import DENS, NFILES, NSQ
from engine.codes import ELEPHANT, LION, RAT, TIGER
from engine.jit import kernel
from engine.moves import chased_bits

ADVANCE_BY_DISTANCE = np.array(
    [0, 150, 70, 40, 26, 17, 11, 7, 4, 2, 1, 0, 0, 0, 0, 0], dtype=np.int64
)
DEFEND = 12


def _tables() -> tuple[np.ndarray, np.ndarray]:
    adv = np.zeros((2, 9, NSQ), dtype=np.int64)  # [side, animal, square]
    dfn = np.zeros((2, NSQ), dtype=np.int64)
    for side in range(2):
        enemy_den = int(DENS[1 - side])
        own_den = int(DENS[side])
        for sq in range(NSQ):
            d = abs(sq % NFILES - enemy_den % NFILES) + abs(sq // NFILES - enemy_den // NFILES)
            own = abs(sq % NFILES - own_den % NFILES) + abs(sq // NFILES - own_den // NFILES)
            for animal in range(RAT, ELEPHANT + 1):
                bonus = int(ADVANCE_BY_DISTANCE[d])
                if animal == ELEPHANT:
                    bonus //= 2
                adv[side, animal, sq] = bonus
            dfn[side, sq] = DEFEND if own <= 2 else 0
    return adv, dfn


ADVANCE, DEFENCE = _tables()


def _place() -> np.ndarray:
    place = np.zeros((17, NSQ), dtype=np.int64)
    for side in range(2):
        for animal in range(RAT, ELEPHANT + 1):
            place[side * 8 + animal] = ADVANCE[side, animal] + DEFENCE[side]
    return place


PLACE = _place()
"""``PLACE[code, sq]``: advance and defence of piece ``code`` on ``sq`` (with the values,
the classic evaluation's ``E_PLACE`` table: see :func:`params_array`)."""


def zobrist_table(seed: int = 0x5D5E) -> np.ndarray:
    """Random 63-bit keys: ``[code * 63 + sq]`` for codes 1..16, then the side to move key
    at ``17 * 63`` and no-capture clock keys after it (``17 * 63 + 1 + remaining``)."""
    gen = np.random.default_rng(seed)
    return gen.integers(1, 2**63 - 1, size=17 * 63 + 1 + 80, dtype=np.int64)


ZOBRIST = zobrist_table()
Z_SIDE = 17 * 63
Z_CLOCK = 17 * 63 + 1
CLOCK_HORIZON = 78


@kernel
def full_hash(st, zob):
    """The Zobrist key of the board and the side to move (the clock is mixed in at probe)."""
    h = np.int64(0)
    for sq in range(63):
        code = st[sq]
        if code != 0:
            h ^= zob[code * 63 + sq]
    if st[core.S_SIDE] == 1:
        h ^= zob[Z_SIDE]
    return h


V_OFF = 8  # the animal values sit at ``params[V_OFF + animal - 1]``
# The block of a tuned evaluation, after every control word of the searches.
EVAL_OFF = 4608
E_KIND = EVAL_OFF  # 0: classic, 1: tuned
E_TEMPO = EVAL_OFF + 1
E_ORDER = EVAL_OFF + 8  # the animals, most valuable first
E_FIRST = EVAL_OFF + 16  # penalty of the first piece in danger, by animal - 1
E_SECOND = EVAL_OFF + 24
E_SQUARES = EVAL_OFF + 32  # [(animal - 1) * 63 + square from the owner's side]
BLOCK_END = E_SQUARES + 8 * NSQ  # the end of a tuned evaluation's block
# Derived from the values and the block by params_array: [code * 63 + square] = the value
# of piece ``code`` plus its square's weight (advance and defence, or the tuned square
# table), so that the evaluation reads one word per piece.
E_PLACE = BLOCK_END
EVAL_END = E_PLACE + 17 * NSQ


def params_array(values: np.ndarray, block: np.ndarray | None, size: int = EVAL_END) -> np.ndarray:
    """The int64 array :func:`evaluate` reads: the animal values at ``V_OFF``, for a
    tuned evaluation its ``block`` (from ``sim.bots.evalfile.eval_block``) at ``EVAL_OFF``,
    and the table of each piece's value plus its square's weight at ``E_PLACE``."""
    out = np.zeros(max(size, EVAL_END), dtype=np.int64)
    out[V_OFF : V_OFF + 8] = values
    place = out[E_PLACE:EVAL_END].reshape(17, NSQ)
    if block is not None:
        out[EVAL_OFF:BLOCK_END] = block
        squares = out[E_SQUARES:BLOCK_END].reshape(8, NSQ)
    for side in range(2):
        for animal in range(RAT, ELEPHANT + 1):
            code = side * 8 + animal
            if block is None:
                weights = PLACE[code]
            else:  # the tuned table is seen from the owner's side: Blue's turned round
                weights = squares[animal - 1] if side == 0 else squares[animal - 1][::-1]
            place[code] = int(values[animal - 1]) + weights
    return out


@kernel
def may_reach(animal, sq):
    """The squares ``animal`` on ``sq`` may reach by a step or a river jump, whatever the
    rule set (more than it can, never fewer), as a bitboard."""
    near = STEPS[sq]  # Movement 1: a step
    if animal == LION or animal == TIGER:
        near |= JUMP_FROM[sq]  # Movement 6: a river jump (jumps are symmetric)
    return near


@kernel
def evaluate(st, rules, params):
    """The static score of ``st`` for the side to move: the classic evaluation (see the
    module docstring), or the tuned one when ``params[E_KIND]`` is 1;
    ``params[V_OFF:V_OFF + 8]`` holds the animal values rat..elephant."""
    if params[E_KIND] != 0:
        return evaluate_tuned(st, rules, params)
    side = st[core.S_SIDE]
    total = 0
    mine = np.int64(0)  # the mover's pieces
    near = np.int64(0)  # squares an enemy piece may reach (more, never fewer)
    for s in range(2):
        sub = 0
        for animal in range(RAT, ELEPHANT + 1):
            code = s * 8 + animal
            sq = st[core.P_SQ + code]
            if sq >= 0:
                sub += params[E_PLACE + code * NSQ + sq]  # value, advance and defence
                if s == side:
                    mine |= np.int64(1) << sq
                else:
                    near |= may_reach(animal, sq)
        if s == side:
            total += sub
        else:
            total -= sub
    # Pieces of the side to move that an enemy could capture now: none to find unless
    # two of them stand where an enemy may reach.
    exposed = near & mine
    if (exposed & (exposed - 1)) == 0:  # fewer than two
        return total
    first = 0
    second = 0
    chased = chased_bits(st, rules, side)  # the pieces core.is_chased finds chased
    if (chased & (chased - 1)) == 0:  # fewer than two: no penalty
        return total
    for animal in range(RAT, ELEPHANT + 1):
        code = side * 8 + animal
        sq = st[core.P_SQ + code]
        if sq >= 0 and ((chased >> sq) & 1) != 0:
            v = params[V_OFF + animal - 1]
            if v > first:
                second = first
                first = v
            elif v > second:
                second = v
    if second > 0:
        total -= second // 2 + first // 4
    return total


@kernel
def evaluate_tuned(st, rules, params):
    """A tuned evaluation for the side to move: for each animal its value and its square's
    weight (from its owner's side), the mover's minus the other's; less the penalties of
    the first two of the mover's animals an enemy could capture now (in ``E_ORDER``);
    plus the move bonus."""
    side = st[core.S_SIDE]
    total = params[E_TEMPO]
    mine = np.int64(0)  # the mover's pieces
    near = np.int64(0)  # squares an enemy piece may reach (more, never fewer)
    for s in range(2):
        sub = 0
        for animal in range(RAT, ELEPHANT + 1):
            code = s * 8 + animal
            sq = st[core.P_SQ + code]
            if sq >= 0:
                sub += params[E_PLACE + code * NSQ + sq]  # value and square weight
                if s == side:
                    mine |= np.int64(1) << sq
                else:
                    near |= may_reach(animal, sq)
        if s == side:
            total += sub
        else:
            total -= sub
    if (near & mine) == 0:  # no piece of the mover where an enemy may reach: no penalty
        return total
    chased = chased_bits(st, rules, side)
    if chased != 0:
        found = 0
        for i in range(8):
            animal = params[E_ORDER + i]
            sq = st[core.P_SQ + side * 8 + animal]
            if sq >= 0 and ((chased >> sq) & 1) != 0:
                if found == 0:
                    total -= params[E_FIRST + animal - 1]
                    found = 1
                else:
                    total -= params[E_SECOND + animal - 1]
                    break
    return total
