"""The board of docs/rules.md as bitboards: where each kind of piece may step or jump from each
square, the water squares a jump crosses, and the sets the kernels test against.

A bitboard is an ``int64`` whose bit ``sq`` stands for square ``sq`` (``a1`` = bit 0,
``g9`` = bit 62). Bit 63 is never set: square number 63 (:data:`NO_SQUARE`) means "no
target", so ``(targets >> NO_SQUARE) & 1`` is always 0.

A piece moves by one of four *modes* (:func:`engine.moves.move_mode` picks it from the
animal and the rule set): on land only, as a rat (land and water), or as a jumper whose
river jumps go horizontally only, or both ways. The tables are indexed
``[mode, side, square, direction]`` (directions as in :mod:`engine.board`: up, down,
left, right); the side matters because no piece enters its own den.
"""

from __future__ import annotations

import numpy as np

from engine.board import DENS, JUMP_LAND, JUMP_PATH, LEFT, NEIGHBOURS, NSQ, TRAP_OWNER, WATER

NO_SQUARE = 63
MODE_LAND, MODE_RAT, MODE_JUMP_H, MODE_JUMP_BOTH = 0, 1, 2, 3
N_MODES = 4


def _bits(squares: object) -> int:
    out = 0
    for sq in squares:  # type: ignore[attr-defined]
        out |= 1 << int(sq)
    return out


def _build() -> tuple[np.ndarray, ...]:
    target = np.full((N_MODES, 2, NSQ + 1, 4), NO_SQUARE, dtype=np.int64)
    path = np.zeros((N_MODES, NSQ + 1, 4), dtype=np.int64)
    reach = np.zeros((N_MODES, 2, NSQ + 1), dtype=np.int64)
    steps = np.zeros(NSQ + 1, dtype=np.int64)
    jump_from = np.zeros(NSQ + 1, dtype=np.int64)
    for sq in range(NSQ):
        for d in range(4):
            t = int(NEIGHBOURS[sq, d])
            if t < 0:
                continue
            steps[sq] |= 1 << t  # Movement 1: one step up, down, left or right
            if JUMP_LAND[sq, d] >= 0:
                jump_from[sq] |= 1 << int(JUMP_LAND[sq, d])  # Movement 6: across a river
            for mode in range(N_MODES):
                for side in range(2):
                    if t == DENS[side]:  # Movement 2: no piece enters its own den
                        continue
                    if not WATER[t] or mode == MODE_RAT:  # Movement 3: only a rat enters water
                        target[mode, side, sq, d] = t
                        reach[mode, side, sq] |= 1 << t
                        continue
                    # Movement 9: jumps both ways, or along a rank (left or right) only
                    jumps = mode == MODE_JUMP_BOTH or (mode == MODE_JUMP_H and d >= LEFT)
                    land = int(JUMP_LAND[sq, d])
                    if jumps and land >= 0:  # Movement 6: the first land square beyond
                        target[mode, side, sq, d] = land
                        reach[mode, side, sq] |= 1 << land
                        # Movement 7: the water squares where a rat blocks the jump
                        path[mode, sq, d] = _bits(w for w in JUMP_PATH[sq, d] if w >= 0)
    return target, path, reach, steps, jump_from


TARGET, JUMP_PATH_BB, REACH, STEPS, JUMP_FROM = _build()
"""``TARGET[mode, side, sq, d]``: the square a piece moving in direction ``d`` reaches (a
step, or a river jump's landing square), :data:`NO_SQUARE` if none; ``JUMP_PATH_BB[mode,
sq, d]``: the water squares that jump crosses (0 for a step); ``REACH[mode, side, sq]``:
every such target as a bitboard; ``STEPS[sq]``: the squares one step away;
``JUMP_FROM[sq]``: the squares a river jump lands on ``sq`` from."""

WATER_BB = _bits(np.flatnonzero(WATER))
DENS_BB = _bits(DENS)
"""Both dens (no piece stands on one in a position still being played)."""
TRAP_BB = np.array([_bits(np.flatnonzero(TRAP_OWNER == s)) for s in range(2)], dtype=np.int64)
"""``TRAP_BB[side]``: the traps beside ``side``'s den."""
