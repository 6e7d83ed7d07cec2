"""The shared vocabulary: the numbers the kernels store and the strings the records store.

Each enum's value is the code a kernel reads or writes; its ``label`` is the string a
game record, a ``Result`` or the CLI shows. Everything else (the storage schema, the
referee, the columnar path, ``Position.result``) derives its tuples from these enums, so
adding a member here (e.g. a new end reason) is the only change needed.

The compiled kernels read the plain ``int`` constants at the bottom of this module, not
the enum members: numba freezes module-level ints into the machine code as literals,
whereas an enum attribute would be a Python object. Those constants are derived from the
enums, so there is one source of truth.
"""

from __future__ import annotations

import re
from enum import IntEnum


class Side(IntEnum):
    """The two players; a piece code is ``side * 8 + animal``."""

    RED = 0
    BLUE = 1

    @property
    def label(self) -> str:
        """The stored name: ``"red"`` or ``"blue"``."""
        return self.name.lower()


class Animal(IntEnum):
    """The animals by default strength (docs/rules.md 'Pieces'); 0 is an empty square."""

    RAT = 1
    CAT = 2
    DOG = 3
    WOLF = 4
    LEOPARD = 5
    TIGER = 6
    LION = 7
    ELEPHANT = 8

    @property
    def label(self) -> str:
        """The stored name, e.g. ``"leopard"``."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """The FEN letter (uppercase, Red's), e.g. ``"P"`` for the leopard."""
        return ANIMAL_LETTERS[self - 1]


ANIMAL_LETTERS = "RCDWPTLE"  # FEN letters of Animal 1..8 (leopard is P)


class Status(IntEnum):
    """The game status slot of the state: who won, if anyone."""

    ONGOING = 0
    RED_WON = 1
    BLUE_WON = 2
    DRAWN = 3

    @property
    def winner(self) -> str:
        """The stored winner: ``"red"``, ``"blue"`` or ``"draw"``; ``""`` while ongoing."""
        if self is Status.ONGOING:
            return ""
        if self is Status.DRAWN:
            return "draw"
        return Side(self - Status.RED_WON).label

    @classmethod
    def won_by(cls, side: int) -> Status:
        """The status of a game ``side`` (0 Red, 1 Blue) has won."""
        return cls(cls.RED_WON + side)


Winner = Status  # the same codes, seen from the stored ``winner`` column


class Reason(IntEnum):
    """Why a game ended (docs/rules.md 'End of the game'); ``NONE`` while it goes on.

    Append new reasons at the end: the stored strings are the lower-case names, and the
    history record packs the reason above the status bits, so any number of reasons fits.
    """

    NONE = 0
    DEN = 1
    CAPTURE_ALL = 2
    NO_MOVES = 3
    NO_CAPTURE = 4
    PLY_CAP = 5  # not a rule: a simulator's cap on the game length, recorded as a draw
    TABLEBASE = 6  # not a rule: a simulator adjudicated the game by an endgame table
    FORFEIT = 7  # not a rule: an external engine's fault (illegal move, crash, silence, ...)
    TIME = 8  # not a rule: a player's clock ran out (the editions lose a game on time)
    RESIGN = 9  # not a rule: a person gave the game up (a game saved from the Play page)
    ADJUDICATED_RESIGN = 10  # not a rule: a side's own search scores lost (--resign)
    ADJUDICATED_DRAW = 11  # not a rule: both sides' search scores stayed level (--draw)
    AGREED_DRAW = 12  # the players agreed to a draw (Clocks 3: draw_by_agreement)
    ABANDONED = 13  # a person left the game unfinished: a loss (the Play page)

    @property
    def label(self) -> str:
        """The stored name, e.g. ``"capture_all"``; ``""`` for ``NONE``."""
        return "" if self is Reason.NONE else self.name.lower()


class Jump(IntEnum):
    """Values of ``lion_jump`` / ``tiger_jump`` (docs/rules.md Movement 9)."""

    NONE = 0
    HORIZONTAL = 1
    BOTH = 2

    @property
    def label(self) -> str:
        """The option value in a rules spec, e.g. ``"horizontal"``."""
        return self.name.lower()


class JumpBlock(IntEnum):
    """Values of ``jump_block``: which rats in the river block a jump (docs/rules.md Movement 7)."""

    ANY = 0
    ENEMY = 1

    @property
    def label(self) -> str:
        """The option value in a rules spec, e.g. ``"enemy"``."""
        return self.name.lower()


class Hist(IntEnum):
    """The slots of one history record (one ply) in the state, in order."""

    FROM = 0  # square the piece left
    TO = 1  # square it reached
    PIECE = 2  # code of the moved piece
    CAPTURED = 3  # code of the captured piece, 0 if none
    CLOCK = 4  # no-capture clock before the move
    STATUS = 5  # status and reason before the move: reason << STATUS_BITS | status


# Stored strings, in code order (what the storage schema and the statistics enumerate).
SIDE_NAMES = tuple(s.label for s in Side)
ANIMAL_NAMES = tuple(a.label for a in Animal)
WINNERS = tuple(s.winner for s in Status if s is not Status.ONGOING)
REASON_NAMES = tuple(r.label for r in Reason)  # by code, "" for NONE
REASONS = REASON_NAMES[1:]  # the stored reasons
# The ends the rules give (docs/rules.md 'End of the game' 1-4), and the reasons a player stopped
# a game before the rules ended it (a fault, the clock, resigning, leaving, an agreed
# draw); the simulator's own stops (ply_cap, tablebase, and the adjudications by search
# scores) are neither. Every player's stop but the agreed draw is a loss for that player.
RULE_ENDS = frozenset(r.label for r in (Reason.DEN, Reason.CAPTURE_ALL, Reason.NO_MOVES,
                                        Reason.NO_CAPTURE))  # fmt: skip
PLAYER_LOSSES = frozenset(r.label for r in (Reason.FORFEIT, Reason.TIME, Reason.RESIGN,
                                            Reason.ABANDONED))  # fmt: skip
PLAYER_STOPS = PLAYER_LOSSES | {Reason.AGREED_DRAW.label}
# The referee's verdicts on the players' search scores (sim.core.adjudication): results
# for the players' scores, reported apart from the rules' ends.
SCORE_ADJUDICATIONS = frozenset(r.label for r in (Reason.ADJUDICATED_RESIGN,
                                                  Reason.ADJUDICATED_DRAW))  # fmt: skip
JUMP_VALUES = tuple(j.label for j in Jump)
JUMP_BLOCK_VALUES = tuple(b.label for b in JumpBlock)
MOVE_SHAPE = re.compile(r"[a-g][1-9][a-g][1-9]")  # a stored move: from, to (fullmatch it)

# Plain int constants for the compiled kernels (see the module docstring).
RED, BLUE = int(Side.RED), int(Side.BLUE)
RAT, CAT, DOG, WOLF = int(Animal.RAT), int(Animal.CAT), int(Animal.DOG), int(Animal.WOLF)
LEOPARD, TIGER, LION, ELEPHANT = (
    int(Animal.LEOPARD),
    int(Animal.TIGER),
    int(Animal.LION),
    int(Animal.ELEPHANT),
)
ONGOING, RED_WON, BLUE_WON, DRAWN = (int(s) for s in Status)
NO_REASON = int(Reason.NONE)
DEN = int(Reason.DEN)
CAPTURE_ALL = int(Reason.CAPTURE_ALL)
NO_MOVES = int(Reason.NO_MOVES)
NO_CAPTURE = int(Reason.NO_CAPTURE)
PLY_CAP = int(Reason.PLY_CAP)
TABLEBASE = int(Reason.TABLEBASE)
STATUS_BITS = max(Status).bit_length()  # the status in the low bits of Hist.STATUS
STATUS_MASK = (1 << STATUS_BITS) - 1
JUMP_NONE, JUMP_HORIZONTAL, JUMP_BOTH = (int(j) for j in Jump)
BLOCK_ANY, BLOCK_ENEMY = (int(b) for b in JumpBlock)
H_FROM = int(Hist.FROM)
H_TO = int(Hist.TO)
H_PIECE = int(Hist.PIECE)
H_CAPTURED = int(Hist.CAPTURED)
H_CLOCK = int(Hist.CLOCK)
H_STATUS = int(Hist.STATUS)
HIST_SIZE = len(Hist)
