"""A slow, deliberately plain reference implementation of the rules contract, RULES.md
(which docs/rules.md describes in the project's words).

It is written separately from ``engine/`` (and never imports it) so that the fast engine can
be checked against it (differential testing and perft tables). Every function follows the
wording of RULES.md as directly as possible; clarity comes before speed.

Representation:

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


# ----------------------------------------------------------------------------- captures


def can_capture(board: list[str], a_sq: int, d_sq: int, rules: dict[str, object]) -> bool:
    """May the piece on ``a_sq`` capture the enemy piece on ``d_sq`` (RULES.md 'Captures')?"""
    attacker = board[a_sq]
    defender = board[d_sq]
    a_side = side_of(attacker)
    d_side = side_of(defender)
    assert a_side != d_side
    a_is_rat = animal_of(attacker) == "R"
    d_is_rat = animal_of(defender) == "R"
    # 1. Water boundary.
    if (a_sq in WATER) != (d_sq in WATER):
        if not (rules["rat_cross_capture"] and a_is_rat and d_is_rat):
            return False
    if a_sq in WATER and d_sq in WATER:
        return True  # only rats can be in water; two rats in water may always capture
    # 2. Attacker in a trap of D's side: strength 0, may not capture at all
    #    (with trapped_can_capture this clause is skipped: it keeps its strength).
    if a_sq in TRAPS[d_side] and not rules["trapped_can_capture"]:
        return False
    # 3. Defender in a trap of A's side: strength 0, any A may capture it.
    if d_sq in TRAPS[a_side]:
        return True
    # 4. Rat and elephant.
    if a_is_rat and animal_of(defender) == "E":
        return True
    if animal_of(attacker) == "E" and d_is_rat:
        return bool(rules["elephant_captures_rat"])
    # 5. Strength.
    return strength(attacker, rules) >= strength(defender, rules)


# ----------------------------------------------------------------------------- movement

STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (file delta, rank delta)


def _offset(sq: int, df: int, dr: int) -> int | None:
    f, r = file_of(sq) + df, rank_of(sq) + dr
    if 0 <= f < N_FILES and 0 <= r < N_RANKS:
        return r * N_FILES + f
    return None


# Each square's steps that stay on the board: (file delta, rank delta, square reached).
NEIGHBOURS = tuple(
    tuple((df, dr, to) for df, dr in STEPS if (to := _offset(sq, df, dr)) is not None)
    for sq in range(N_SQUARES)
)


def jump_allowed(piece: str, horizontal: bool, rules: dict[str, object]) -> bool:
    animal = animal_of(piece)
    if animal == "L":
        option = rules["lion_jump"]
    elif animal == "T":
        option = rules["tiger_jump"]
    else:
        return False
    if option == "both":
        return True
    if option == "horizontal":
        return horizontal
    return False


def pseudo_targets(board: list[str], sq: int, rules: dict[str, object]) -> list[int]:
    """Squares the piece on ``sq`` may move to by RULES.md 'Movement' and 'Captures'.

    Repetition rules and the end of the game are not considered here.
    """
    piece = board[sq]
    side = side_of(piece)
    red = side == "r"
    is_rat = animal_of(piece) == "R"
    own_den = DEN[side]
    targets = []
    for df, dr, to in NEIGHBOURS[sq]:
        # Rule 6: a lion or tiger on land beside a river jumps straight across it.
        if to in WATER and not is_rat:
            if sq in WATER or not jump_allowed(piece, dr == 0, rules):
                continue  # rule 3: only a rat may enter water
            blocked = False
            while to is not None and to in WATER:
                occupant = board[to]
                if occupant:  # only rats can stand in water
                    # Rule 7: any rat blocks; with jump_block=enemy only an enemy rat.
                    if rules["jump_block"] == "any" or side_of(occupant) != side:
                        blocked = True
                to = _offset(to, df, dr)
            if blocked or to is None:
                continue
        if to == own_den:
            continue  # rule 2: never into one's own den
        target = board[to]
        if target:
            if target.isupper() == red:
                continue  # rule 4: not onto a piece of one's own side
            if not can_capture(board, sq, to, rules):
                continue  # rule 5 / rule 8
        targets.append(to)
    return targets


def is_chased(board: list[str], sq: int, rules: dict[str, object]) -> bool:
    """Could some enemy piece capture the piece on ``sq`` by a step or a river jump?"""
    enemy = OTHER[side_of(board[sq])]
    for esq, piece in enumerate(board):
        if piece and side_of(piece) == enemy and sq in pseudo_targets(board, esq, rules):
            return True
    return False


# ----------------------------------------------------------------------------- outcome


def outcome(pos: Pos, rules: dict[str, object]) -> tuple[str, str] | None:
    """(winner, reason) with winner in red/blue/draw, or None; RULES.md 'End of the game'.

    A piece can only stand on a den if the last move put it there (FENs with a piece on a den
    are refused), so the checks are the same whether the position came from a FEN or a move.
    """
    mover = OTHER[pos.side]
    # 1. The mover's piece entered the enemy den.
    if pos.board[DEN[pos.side]] and side_of(pos.board[DEN[pos.side]]) == mover:
        return SIDE_NAME[mover], "den"
    # 2. The side to move has no pieces left.
    if not any(p and side_of(p) == pos.side for p in pos.board):
        return SIDE_NAME[mover], "capture_all"
    # 3. The no-capture clock.
    n = rules["no_capture_plies"]
    if n > 0 and pos.clock >= n:
        return "draw", "no_capture"
    # 4. No legal move.
    if not _legal_moves_unfinished(pos, rules):
        return SIDE_NAME[mover], "no_moves"
    return None


def _my_moves(pos: Pos) -> list[Played]:
    """The side to move's last moves (at most 17: all that 7-3 and 17-5 look at). The sides
    alternate, so they are among the last 34 plies."""
    return [m for m in pos.history[-34:] if m.side == pos.side]


def _forbidden_by_7_3(
    pos: Pos, frm: int, to: int, rules: dict[str, object], mine: list[Played]
) -> bool:
    """``mine``: the mover's own moves so far (:func:`_my_moves`)."""
    animal = animal_of(pos.board[frm])
    window = mine[-7:]
    visits = sum(1 for m in window if m.animal == animal and m.to == to)
    if visits < 3:
        return False
    if any(m.entered_trap for m in window):
        return False
    if is_chased(pos.board, frm, rules):
        return False
    return True


def _forbidden_by_17_5(pos: Pos, frm: int, to: int, mine: list[Played]) -> bool:
    """``mine``: the mover's own moves so far (:func:`_my_moves`)."""
    if len(mine) < 17:
        return False
    last = mine[-17:]
    animal = animal_of(pos.board[frm])
    if any(m.animal != animal for m in last):
        return False
    region = {last[0].frm} | {m.to for m in last}
    if len(region) > 5 or any(m.entered_trap for m in last):
        return False
    return to in region


def _legal_moves_unfinished(
    pos: Pos, rules: dict[str, object], forbidden: list[str] | None = None
) -> list[str]:
    """The legal moves ignoring the end of the game; the moves a repetition rule forbids
    go into ``forbidden`` when it is given."""
    moves = []
    rule_7_3, rule_17_5 = rules["rule_7_3"], rules["rule_17_5"]
    mine = _my_moves(pos) if rule_7_3 or rule_17_5 else []
    rule_7_3 = rule_7_3 and len(mine) >= 3  # three visits take three of the mover's moves
    red = pos.side == "r"
    for sq, piece in enumerate(pos.board):
        if not piece or piece.isupper() != red:
            continue
        for to in pseudo_targets(pos.board, sq, rules):
            move = NAMES[sq] + NAMES[to]
            if (rule_7_3 and _forbidden_by_7_3(pos, sq, to, rules, mine)) or (
                rule_17_5 and _forbidden_by_17_5(pos, sq, to, mine)
            ):
                if forbidden is not None:
                    forbidden.append(move)
                continue
            moves.append(move)
    moves.sort()
    return moves


def legal_moves(
    pos: Pos, rules: dict[str, object], forbidden: list[str] | None = None
) -> list[str]:
    """Sorted legal moves; [] when the game is finished. With ``forbidden``, the moves a
    repetition rule forbids (in a game not finished) are appended to it."""
    mover = OTHER[pos.side]
    if pos.board[DEN[pos.side]] and side_of(pos.board[DEN[pos.side]]) == mover:
        return []
    if not any(p and side_of(p) == pos.side for p in pos.board):
        return []
    n = rules["no_capture_plies"]
    if n > 0 and pos.clock >= n:
        return []
    return _legal_moves_unfinished(pos, rules, forbidden)


def make_move(pos: Pos, move: str) -> Pos:
    """The position after ``move`` (assumed legal); the history grows by one."""
    frm, to = square_index(move[:2]), square_index(move[2:])
    new = pos.copy()
    piece = new.board[frm]
    captured = bool(new.board[to])
    new.board[to] = piece
    new.board[frm] = ""
    new.clock = 0 if captured else pos.clock + 1
    if pos.side == "b":
        new.fullmove += 1
    new.side = OTHER[pos.side]
    new.history.append(Played(pos.side, animal_of(piece), frm, to, captured))
    return new


def play(pos: Pos, move: str, rules: dict[str, object]) -> Pos:
    """Like make_move, but refuse a move that is not legal (ValueError)."""
    if move not in legal_moves(pos, rules):
        raise ValueError(f"illegal move {move}")
    return make_move(pos, move)


def setup(rules_spec: str, fen: str = "start", moves: str = "") -> tuple[dict, Pos]:
    rules = parse_rules(rules_spec)
    pos = parse_fen(fen)
    for move in moves.split():
        pos = play(pos, move, rules)
    return rules, pos


# ----------------------------------------------------------------------------- perft


def perft(pos: Pos, depth: int, rules: dict[str, object]) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos, rules)
    if depth == 1:
        return len(moves)
    return sum(perft(make_move(pos, m), depth - 1, rules) for m in moves)


def divide(pos: Pos, depth: int, rules: dict[str, object]) -> dict[str, int]:
    return {m: perft(make_move(pos, m), depth - 1, rules) for m in legal_moves(pos, rules)}


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


if __name__ == "__main__":  # pragma: no cover - manual check
    import sys
    import time

    rules_, start = setup("standard")
    for d in range(1, int(sys.argv[1]) + 1 if len(sys.argv) > 1 else 5):
        t = time.time()
        print(d, perft(start, d, rules_), f"{time.time() - t:.1f}s")
