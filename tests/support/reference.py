"""A slow, deliberately plain reference implementation of the rules contract, RULES.md
(which docs/rules.md describes in the project's words): the moves, the end of the game and
perft. The board, the pieces, the rules options and positions (FEN) are in
:mod:`tests.support.reference_board`, with the representation both use.

It is written separately from ``engine/`` (and never imports it) so that the fast engine can
be checked against it (differential testing and perft tables). Every function follows the
wording of RULES.md as directly as possible; clarity comes before speed.
"""

from __future__ import annotations

from tests.support.reference_board import (
    DEN,
    N_FILES,
    N_RANKS,
    N_SQUARES,
    NAMES,
    OTHER,
    SIDE_NAME,
    TRAPS,
    WATER,
    Played,
    Pos,
    animal_of,
    file_of,
    parse_fen,
    parse_rules,
    rank_of,
    side_of,
    square_index,
    strength,
)

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


if __name__ == "__main__":  # pragma: no cover - manual check
    import sys
    import time

    rules_, start = setup("standard")
    for d in range(1, int(sys.argv[1]) + 1 if len(sys.argv) > 1 else 5):
        t = time.time()
        print(d, perft(start, d, rules_), f"{time.time() - t:.1f}s")
