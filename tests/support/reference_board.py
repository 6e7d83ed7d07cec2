"""The board, the pieces, the rules options and positions (FEN) of the plain reference
implementation of the rules contract (see :mod:`tests.support.reference`, which holds the
moves, the end of the game and perft, and shares its representation):

* a square is an int ``(rank - 1) * 7 + file`` (``a1 = 0``, ``g9 = 62``);
* a board is a list of 63 entries, each ``""`` (empty) or a FEN letter (uppercase Red,
  lowercase Blue);
* a side is ``"r"`` or ``"b"``;
* a ruleset is a plain dict of the RULES.md options;
* the history is a list of :class:`Played` records (one per move since set-up).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# ----------------------------------------------------------------------------- board

FILES = "abcdefg"
N_FILES = 7
N_RANKS = 9
N_SQUARES = N_FILES * N_RANKS


def square_index(name: str) -> int:
    """``"a3"`` -> 14."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456789":
        raise ValueError(f"bad square {name!r}")
    return (int(name[1]) - 1) * N_FILES + FILES.index(name[0])


NAMES = tuple(FILES[sq % N_FILES] + str(sq // N_FILES + 1) for sq in range(N_SQUARES))


def square_name(sq: int) -> str:
    """14 -> ``"a3"``."""
    return NAMES[sq]


def file_of(sq: int) -> int:
    return sq % N_FILES


def rank_of(sq: int) -> int:
    """0-based rank (rank 1 -> 0)."""
    return sq // N_FILES


def _squares(names: str) -> frozenset[int]:
    return frozenset(square_index(n) for n in names.split())


DEN = {"r": square_index("d1"), "b": square_index("d9")}
TRAPS = {"r": _squares("c1 e1 d2"), "b": _squares("c9 e9 d8")}
ALL_TRAPS = TRAPS["r"] | TRAPS["b"]
WATER = _squares("b4 c4 b5 c5 b6 c6 e4 f4 e5 f5 e6 f6")

OTHER = {"r": "b", "b": "r"}
SIDE_NAME = {"r": "red", "b": "blue"}

# Animals by letter (uppercase); strengths from the RULES.md table.
ANIMALS = "ELTPWDCR"
BASE_STRENGTH = {"E": 8, "L": 7, "T": 6, "P": 5, "W": 4, "D": 3, "C": 2, "R": 1}

START_FEN = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1"


def side_of(piece: str) -> str:
    return "r" if piece.isupper() else "b"


def animal_of(piece: str) -> str:
    return piece.upper()


# ----------------------------------------------------------------------------- rules

PRESETS: dict[str, dict[str, object]] = {
    "standard": {
        "dog_over_wolf": False,
        "jump_block": "any",
        "lion_jump": "both",
        "tiger_jump": "both",
        "rat_cross_capture": False,
        "elephant_captures_rat": False,
        "trapped_can_capture": False,
        "rule_7_3": False,
        "rule_17_5": False,
        "no_capture_plies": 200,
        "move_time": 0,  # the players' rules: no move depends on them
        "time_strikes": 1,
        "game_time": 0,
        "draw_by_agreement": False,
        "void_rounds": 0,  # scoring only: no move depends on it
    },
    "yeshou": {
        "dog_over_wolf": False,
        "jump_block": "enemy",
        "lion_jump": "both",
        "tiger_jump": "both",
        "rat_cross_capture": True,
        "elephant_captures_rat": False,
        "trapped_can_capture": False,
        "rule_7_3": True,
        "rule_17_5": True,
        "no_capture_plies": 200,
        "move_time": 0,  # the players' rules: no move depends on them
        "time_strikes": 1,
        "game_time": 600,
        "draw_by_agreement": True,
        "void_rounds": 10,  # scoring only: no move depends on it
    },
    "datou": {
        "dog_over_wolf": False,
        "jump_block": "any",
        "lion_jump": "both",
        "tiger_jump": "horizontal",
        "rat_cross_capture": False,
        "elephant_captures_rat": False,
        "trapped_can_capture": False,
        "rule_7_3": False,
        "rule_17_5": True,
        "no_capture_plies": 200,
        "move_time": 30,  # the players' rules: no move depends on them
        "time_strikes": 2,
        "game_time": 0,
        "draw_by_agreement": False,
        "void_rounds": 0,  # scoring only: no move depends on it
    },
}

BOOL_OPTIONS = (
    "dog_over_wolf",
    "rat_cross_capture",
    "elephant_captures_rat",
    "trapped_can_capture",
    "rule_7_3",
    "rule_17_5",
    "draw_by_agreement",
)
CHOICE_OPTIONS = {
    "jump_block": ("any", "enemy"),
    "lion_jump": ("both", "horizontal", "none"),
    "tiger_jump": ("both", "horizontal", "none"),
}


def parse_rules(spec: str) -> dict[str, object]:
    """Parse ``preset+option=value+flag``; raise ValueError on anything unknown.

    A bare boolean option means true; ``=true`` / ``=false`` set it explicitly.
    """
    parts = spec.strip().split("+")
    if parts[0] not in PRESETS:
        raise ValueError(f"unknown rules preset {parts[0]!r}")
    rules = dict(PRESETS[parts[0]])
    for part in parts[1:]:
        name, eq, value = part.partition("=")
        if name in BOOL_OPTIONS:
            if not eq or value == "true":
                rules[name] = True
            elif value == "false":
                rules[name] = False
            else:
                raise ValueError(f"bad value {value!r} for {name}")
        elif name in CHOICE_OPTIONS:
            if value not in CHOICE_OPTIONS[name]:
                raise ValueError(f"bad value {value!r} for {name}")
            rules[name] = value
        elif name in ("no_capture_plies", "move_time", "time_strikes", "game_time", "void_rounds"):
            if not value.isdigit():
                raise ValueError(f"bad value {value!r} for {name}")
            rules[name] = int(value)
        else:
            raise ValueError(f"unknown rules option {name!r}")
    return rules


def strength(piece: str, rules: dict[str, object]) -> int:
    animal = animal_of(piece)
    if rules["dog_over_wolf"]:
        if animal == "W":
            return 3
        if animal == "D":
            return 4
    return BASE_STRENGTH[animal]


# ----------------------------------------------------------------------------- FEN


class FenRefused(ValueError):
    """The FEN is malformed or describes an impossible position."""


@dataclass(frozen=True)
class Played:
    """One move of the history: who moved which animal from where to where."""

    side: str
    animal: str
    frm: int
    to: int
    captured: bool

    @property
    def entered_trap(self) -> bool:
        return self.to in ALL_TRAPS


@dataclass
class Pos:
    board: list[str]
    side: str
    clock: int
    fullmove: int
    history: list[Played] = field(default_factory=list)

    def copy(self) -> Pos:
        return Pos(list(self.board), self.side, self.clock, self.fullmove, list(self.history))


def parse_fen(fen: str, allow_den: bool = False) -> Pos:
    """Parse and validate a FEN as RULES.md describes it; raise FenRefused.

    ``allow_den`` lets a piece stand on a den (only to inspect a game just won by ``den``).
    """
    if fen == "start":
        fen = START_FEN
    fields = fen.split(" ")
    if len(fields) != 4:
        raise FenRefused("a FEN has 4 fields")
    board_text, side, clock_text, fullmove_text = fields
    rows = board_text.split("/")
    if len(rows) != N_RANKS:
        raise FenRefused("the board has 9 ranks")
    board = [""] * N_SQUARES
    for i, row in enumerate(rows):
        rank = N_RANKS - 1 - i  # the first row is rank 9
        file = 0
        for k, ch in enumerate(row):
            if ch in "1234567":
                if k > 0 and row[k - 1] in "1234567":
                    raise FenRefused("a run of empty squares is one digit")
                file += int(ch)
            elif ch.upper() in ANIMALS:
                if file >= N_FILES:
                    raise FenRefused("rank too long")
                board[rank * N_FILES + file] = ch
                file += 1
            else:
                raise FenRefused(f"bad character {ch!r}")
            if file > N_FILES:
                raise FenRefused("rank too long")
        if file != N_FILES:
            raise FenRefused("rank of the wrong length")
    if side not in ("r", "b"):
        raise FenRefused("side must be r or b")
    if not clock_text.isdigit():
        raise FenRefused("bad clock")
    if not fullmove_text.isdigit() or int(fullmove_text) < 1:
        raise FenRefused("bad fullmove number")
    seen: set[str] = set()
    for sq, piece in enumerate(board):
        if not piece:
            continue
        if piece in seen:
            raise FenRefused(f"more than one {piece}")
        seen.add(piece)
        if sq in WATER and animal_of(piece) != "R":
            raise FenRefused("only a rat may be in water")
        if sq in (DEN["r"], DEN["b"]) and not allow_den:
            raise FenRefused("a piece on a den")
    if not seen:
        raise FenRefused("no animal on the board")
    return Pos(board, side, int(clock_text), int(fullmove_text))


def to_fen(pos: Pos) -> str:
    """The FEN: ranks 9 to 1, each run of empty squares written as its length."""
    board = "".join([piece or "-" for piece in pos.board])
    rows = [board[rank * N_FILES : (rank + 1) * N_FILES] for rank in range(N_RANKS - 1, -1, -1)]
    text = "/".join(rows)
    for n in range(N_FILES, 0, -1):  # the longest runs first
        text = text.replace("-" * n, str(n))
    return f"{text} {pos.side} {pos.clock} {pos.fullmove}"


# ----------------------------------------------------------------------------- test helpers


def random_fen(rng, max_per_side: int = 8, min_per_side: int = 0) -> str:
    """A random FEN that passes validation (``rng`` is a ``random.Random``).

    Each side gets a random subset of its animals on distinct squares (at least one animal
    on the board): no den, and only the rats in water. Side, clock and fullmove number are
    random too.
    """
    board = [""] * N_SQUARES
    free = [sq for sq in range(N_SQUARES) if sq not in (DEN["r"], DEN["b"])]
    for side in ("r", "b"):
        count = rng.randint(min_per_side, max_per_side)
        for animal in rng.sample(ANIMALS, count):
            allowed = [sq for sq in free if not board[sq] and (animal == "R" or sq not in WATER)]
            board[rng.choice(allowed)] = animal if side == "r" else animal.lower()
    if not any(board):  # a position has at least one animal: a red rat somewhere
        board[rng.choice(free)] = "R"
    side = rng.choice("rb")
    return to_fen(Pos(board, side, rng.choice([0, 0, rng.randint(0, 250)]), rng.randint(1, 300)))


def rotate_square(sq: int) -> int:
    """The 180-degree rotation that swaps the two camps."""
    return N_SQUARES - 1 - sq


def rotate_move(move: str) -> str:
    frm, to = square_index(move[:2]), square_index(move[2:])
    return square_name(rotate_square(frm)) + square_name(rotate_square(to))


def rotate_fen(fen: str) -> str:
    """Rotate the board 180 degrees and swap the colours (case) and the side to move."""
    pos = parse_fen(fen, allow_den=True)
    board = [""] * N_SQUARES
    for sq, piece in enumerate(pos.board):
        board[rotate_square(sq)] = piece.swapcase()
    return to_fen(Pos(board, OTHER[pos.side], pos.clock, pos.fullmove))
