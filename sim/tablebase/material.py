"""Materials (which animals each side has, e.g. ``LR v e``) and the index of their positions.

A material is written with Red's animals in upper case, then ``v``, then Blue's in lower
case, each side strongest first (``E L T P W D C R``): ``LR v e`` is a red lion and rat
against a blue elephant. Both sides have at least one animal: a side with none has lost.

The positions of a material are every placement of its animals on distinct squares a FEN
may hold (no animal on a den, only rats in water), with each side to move. They are
numbered by a mixed-radix index: the pieces in a fixed order (Red's, then Blue's, each
strongest first), a rat ranging over the 61 squares that are not dens and any other animal
over the 49 land squares that are not dens; ``index = side * half + sum(place_k * stride_k)``.
Indices where two pieces share a square are not positions (marked invalid in a table).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from engine.board import DENS, NSQ, WATER
from engine.codes import ANIMAL_LETTERS, RAT
from engine.errors import DsqError

# Letters strongest first: the order of the pieces of each side in a material.
ORDER = ANIMAL_LETTERS[::-1]  # "ELTPWDCR"
MAX_PIECES = 4  # the largest tables this project builds (memory and time; see docs)

_DENS = {int(DENS[0]), int(DENS[1])}
RAT_SQUARES = np.array([s for s in range(NSQ) if s not in _DENS], dtype=np.int32)  # 61
LAND_SQUARES = np.array(
    [s for s in range(NSQ) if s not in _DENS and not WATER[s]], dtype=np.int32
)  # 49
# PLACE[kind, square]: the place of a square for a rat (kind 0) or another animal (kind 1),
# -1 where that animal may not stand; SQUARE_OF[kind, place] the other way round.
PLACE = np.full((2, NSQ), -1, dtype=np.int32)
PLACE[0, RAT_SQUARES] = np.arange(RAT_SQUARES.size)
PLACE[1, LAND_SQUARES] = np.arange(LAND_SQUARES.size)
SQUARE_OF = np.full((2, RAT_SQUARES.size), -1, dtype=np.int32)
SQUARE_OF[0, : RAT_SQUARES.size] = RAT_SQUARES
SQUARE_OF[1, : LAND_SQUARES.size] = LAND_SQUARES
RADIX = (int(RAT_SQUARES.size), int(LAND_SQUARES.size))


class MaterialError(DsqError):
    """A malformed material, or one without a table."""


def _animal(letter: str) -> int:
    return ANIMAL_LETTERS.index(letter.upper()) + 1


@dataclass(frozen=True)
class Material:
    """Red's and Blue's animals (codes 1 rat .. 8 elephant), each strongest first."""

    red: tuple[int, ...]
    blue: tuple[int, ...]

    @property
    def name(self) -> str:
        """``"LR v e"``."""
        r = "".join(ANIMAL_LETTERS[a - 1] for a in self.red)
        b = "".join(ANIMAL_LETTERS[a - 1].lower() for a in self.blue)
        return f"{r} v {b}"

    @property
    def file_stem(self) -> str:
        """The table's file name without extension: ``"LR_v_e"``."""
        return self.name.replace(" ", "_")

    def __str__(self) -> str:
        return self.name

    @property
    def pieces(self) -> int:
        """How many animals are on the board."""
        return len(self.red) + len(self.blue)

    @cached_property
    def codes(self) -> np.ndarray:
        """The piece codes in index order (Red's, then Blue's): int32."""
        return np.array([*self.red, *(8 + a for a in self.blue)], dtype=np.int32)

    @cached_property
    def kinds(self) -> np.ndarray:
        """0 for a rat (61 squares), 1 for any other animal (49 squares), in index order."""
        return np.array([0 if (c - 1) % 8 + 1 == RAT else 1 for c in self.codes], dtype=np.int32)

    @cached_property
    def strides(self) -> np.ndarray:
        """The weight of each piece's place in the index (the last piece's is 1)."""
        out = np.ones(self.pieces, dtype=np.int64)
        for k in range(self.pieces - 2, -1, -1):
            out[k] = out[k + 1] * RADIX[int(self.kinds[k + 1])]
        return out

    @cached_property
    def half(self) -> int:
        """Index entries per side to move."""
        return int(self.strides[0]) * RADIX[int(self.kinds[0])]

    @property
    def size(self) -> int:
        """Index entries in all (both sides to move), positions and invalid ones."""
        return 2 * self.half

    @cached_property
    def positions_per_side(self) -> int:
        """Positions (valid index entries) with one given side to move."""
        land, rats = RADIX[1], RADIX[0]
        n_rats = int((self.kinds == 0).sum())
        n_other = self.pieces - n_rats
        # Place the other animals on land first, then the rats on what is left.
        total = 1
        for i in range(n_other):
            total *= land - i
        for i in range(n_rats):
            total *= rats - n_other - i
        return total

    def swapped(self) -> Material:
        """The material with the colours exchanged (``LR v e`` -> ``E v lr``)."""
        return Material(self.blue, self.red)

    def without(self, k: int) -> Material | None:
        """The material after piece ``k`` (index order) is captured; None when it was the
        last animal of its side (the capture wins the game)."""
        red, blue = list(self.red), list(self.blue)
        if k < len(red):
            del red[k]
        else:
            del blue[k - len(red)]
        if not red or not blue:
            return None
        return Material(tuple(red), tuple(blue))

    def sub_materials(self) -> list[Material]:
        """The materials one capture away (no duplicates, in index order of the captured)."""
        out: list[Material] = []
        for k in range(self.pieces):
            sub = self.without(k)
            if sub is not None and sub not in out:
                out.append(sub)
        return out

    def closure(self) -> list[Material]:
        """This material and every one reachable by captures, fewest pieces first."""
        seen = {self}
        todo = [self]
        while todo:
            m = todo.pop()
            for sub in m.sub_materials():
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
        return sorted(seen, key=lambda m: (m.pieces, m.name))


def _side(letters: str, upper: bool, text: str) -> tuple[int, ...]:
    letters = letters.strip()
    if not letters:
        raise MaterialError(
            f"material {text!r}: each side needs at least one animal, e.g. 'LR v e'"
        )
    out = []
    for ch in letters:
        if ch.upper() not in ANIMAL_LETTERS:
            raise MaterialError(
                f"material {text!r}: unknown animal letter {ch!r} (animals are {ORDER})"
            )
        if ch.isupper() != upper:
            raise MaterialError(
                f"material {text!r}: Red's animals are upper case before 'v', "
                "Blue's lower case after it"
            )
        out.append(_animal(ch))
    if len(set(out)) != len(out):
        raise MaterialError(f"material {text!r}: a side has one of each animal")
    return tuple(sorted(out, reverse=True))


def parse_material(text: str | Material) -> Material:
    """Parse a material such as ``"LR v e"`` (spaces and ``_`` optional: ``"LR_v_e"``,
    ``"LRve"``); Red's animals upper case before ``v``, Blue's lower case after it, in any
    order. Raises MaterialError."""
    if isinstance(text, Material):
        return text
    raw = "".join(str(text).replace("_", " ").split())
    if raw.count("v") != 1:
        raise MaterialError(
            f"material {text!r}: write Red's animals, 'v', then Blue's, e.g. 'LR v e'"
        )
    left, right = raw.split("v")
    material = Material(_side(left, True, str(text)), _side(right, False, str(text)))
    if material.pieces > MAX_PIECES:
        raise MaterialError(
            f"material {material.name} has {material.pieces} animals; tables go up to {MAX_PIECES}"
        )
    return material


def all_materials(pieces: int) -> list[Material]:
    """Every material of exactly ``pieces`` animals (both sides with at least one)."""
    out = []
    animals = range(8, 0, -1)
    for n_red in range(1, pieces):
        for red in itertools.combinations(animals, n_red):
            for blue in itertools.combinations(animals, pieces - n_red):
                out.append(Material(red, blue))
    return out


def materials_up_to(pieces: int) -> list[Material]:
    """Every material of 2 to ``pieces`` animals, fewest first."""
    if not 2 <= pieces <= MAX_PIECES:
        raise MaterialError(f"--pieces takes 2 to {MAX_PIECES}, not {pieces}")
    return [m for n in range(2, pieces + 1) for m in all_materials(n)]


def material_of_board(board: np.ndarray) -> tuple[Material, np.ndarray] | None:
    """The material of a board (63 piece codes) and the squares of its pieces in index
    order; None when a side has no animal."""
    red = sorted((int(c) for c in board[:NSQ] if 0 < c <= 8), reverse=True)
    blue = sorted((int(c) - 8 for c in board[:NSQ] if c > 8), reverse=True)
    if not red or not blue:
        return None
    material = Material(tuple(red), tuple(blue))
    where = {int(c): s for s, c in enumerate(board[:NSQ]) if c}
    squares = np.array([where[int(c)] for c in material.codes], dtype=np.int32)
    return material, squares


def index_of(material: Material, squares: np.ndarray, side: int) -> int:
    """The index of the position with the pieces on ``squares`` (index order), ``side`` to
    move; raises MaterialError when a piece stands where the material's positions do not."""
    idx = side * material.half
    for k in range(material.pieces):
        place = int(PLACE[int(material.kinds[k]), int(squares[k])])
        if place < 0:
            raise MaterialError(f"no table position has a piece on square {int(squares[k])}")
        idx += place * int(material.strides[k])
    return idx


def squares_of(material: Material, index: int) -> tuple[np.ndarray, int]:
    """The squares (index order) and the side to move of an index (valid or not)."""
    side, rem = divmod(int(index), material.half)
    squares = np.empty(material.pieces, dtype=np.int32)
    for k in range(material.pieces):
        kind = int(material.kinds[k])
        place = (rem // int(material.strides[k])) % RADIX[kind]
        squares[k] = SQUARE_OF[kind, place]
    return squares, side
