"""Board geometry of docs/rules.md: squares, rivers, traps, dens, steps and river jumps.

Squares are numbered ``(rank - 1) * 7 + file`` with ``a1 = 0`` and ``g9 = 62``. The tables
below are plain numpy arrays that the compiled kernels read as constants.
"""

from __future__ import annotations

import numpy as np

from engine.codes import ANIMAL_LETTERS as ANIMAL_LETTERS
from engine.codes import ANIMAL_NAMES as ANIMAL_NAMES
from engine.codes import BLUE as BLUE
from engine.codes import CAT as CAT
from engine.codes import DOG as DOG
from engine.codes import ELEPHANT as ELEPHANT
from engine.codes import LEOPARD as LEOPARD
from engine.codes import LION as LION
from engine.codes import RAT as RAT
from engine.codes import RED as RED
from engine.codes import SIDE_NAMES as SIDE_NAMES
from engine.codes import TIGER as TIGER
from engine.codes import WOLF as WOLF
from engine.errors import MoveError

FILES = "abcdefg"
NFILES = 7
NRANKS = 9
NSQ = NFILES * NRANKS

# Sides, animals and their letters come from engine.codes; piece code = side * 8 + animal
# (0 = empty square).

# Directions: up (towards rank 9), down, left (towards file a), right.
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DIRECTION_DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))


def square_index(name: str) -> int:
    """Index of a square name such as ``"a3"``; raises MoveError when it is not a square."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456789":
        raise MoveError(f"not a square: {name!r} (files a-g, ranks 1-9)")
    return (int(name[1]) - 1) * NFILES + FILES.index(name[0])


def square_name(index: int) -> str:
    """Name of a square index 0..62, e.g. ``14 -> "a3"``."""
    return f"{FILES[index % NFILES]}{index // NFILES + 1}"


def piece_letter(code: int) -> str:
    """Letter of a piece code: uppercase for Red, lowercase for Blue."""
    letter = ANIMAL_LETTERS[(code - 1) % 8]
    return letter if code <= 8 else letter.lower()


def _build_tables() -> tuple[np.ndarray, ...]:
    water = np.zeros(NSQ, dtype=np.int8)
    for f in (1, 2, 4, 5):
        for r in (3, 4, 5):
            water[r * NFILES + f] = 1
    trap_owner = np.full(NSQ, -1, dtype=np.int8)
    for name in ("c1", "e1", "d2"):
        trap_owner[square_index(name)] = RED
    for name in ("c9", "e9", "d8"):
        trap_owner[square_index(name)] = BLUE
    dens = np.array([square_index("d1"), square_index("d9")], dtype=np.int32)

    neighbours = np.full((NSQ, 4), -1, dtype=np.int32)
    jump_land = np.full((NSQ, 4), -1, dtype=np.int32)
    jump_path = np.full((NSQ, 4, 3), -1, dtype=np.int32)
    for sq in range(NSQ):
        f, r = sq % NFILES, sq // NFILES
        for d, (df, dr) in enumerate(DIRECTION_DELTAS):
            nf, nr = f + df, r + dr
            if not (0 <= nf < NFILES and 0 <= nr < NRANKS):
                continue
            neighbours[sq, d] = nr * NFILES + nf  # Movement 1: one step up, down, left or right
            if water[sq] or not water[nr * NFILES + nf]:  # Movement 6: from land beside a river
                continue
            path = []
            while 0 <= nf < NFILES and 0 <= nr < NRANKS and water[nr * NFILES + nf]:
                path.append(nr * NFILES + nf)  # Movement 7: the squares where a rat blocks
                nf, nr = nf + df, nr + dr
            if 0 <= nf < NFILES and 0 <= nr < NRANKS:
                jump_land[sq, d] = nr * NFILES + nf  # Movement 6: the first land square beyond
                jump_path[sq, d, : len(path)] = path
    return water, trap_owner, dens, neighbours, jump_land, jump_path


WATER, TRAP_OWNER, DENS, NEIGHBOURS, JUMP_LAND, JUMP_PATH = _build_tables()
