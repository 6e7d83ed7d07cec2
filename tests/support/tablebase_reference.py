"""A slow, plainly written endgame solver over the reference move generator.

It shares nothing with ``sim.tablebase`` but the definition of a table (docs/tablebases.md):
every placement of the animals of a material on squares a FEN may hold, each side to
move; the game ends by End 1, 2 and 4 only; the value is win/loss/draw for the side to
move with the number of plies to the end under best play.

The method is the textbook one: list every position of the material and of every
material reached by captures, with each position's moves (``reference.pseudo_targets``,
the movement and capture clauses as RULES.md words them), turn the move lists around
into lists of predecessors, then decide positions level by level: level 0 the positions
without a move (lost), at odd levels the positions with a move into a position lost one
level earlier (won), at even levels the positions whose every move leads to a won
position, the last of them decided one level earlier (lost). What is never decided is a
draw.
"""

from __future__ import annotations

import itertools

from tests.support import reference as R
from tests.support import reference_board as RB

ORDER = "ELTPWDCR"

Placement = tuple[tuple[str, int], ...]  # (letter, square) of each animal, in a fixed order
Key = tuple[Placement, str]  # a placement and the side to move, "r" or "b"


def _squares_for(letter: str) -> list[int]:
    dens = (RB.DEN["r"], RB.DEN["b"])
    return [
        s
        for s in range(RB.N_SQUARES)
        if s not in dens and (letter.upper() == "R" or s not in RB.WATER)
    ]


def placements(red: str, blue: str) -> list[Placement]:
    """Every placement of a material's animals (``red`` upper case, ``blue`` lower case) on
    distinct squares a FEN may hold: no animal on a den, only rats in water."""
    pieces = list(red.upper()) + list(blue.lower())
    out: list[Placement] = []
    for squares in itertools.product(*(_squares_for(p) for p in pieces)):
        if len(set(squares)) == len(squares):
            out.append(tuple(zip(pieces, squares, strict=True)))
    return out


def board_of(placement: Placement) -> list[str]:
    """The reference generator's board (63 entries, "" for an empty square)."""
    board = [""] * RB.N_SQUARES
    for piece, sq in placement:
        board[sq] = piece
    return board


def moves_of(
    placement: Placement, board: list[str], side: str, rules: dict[str, object]
) -> list[tuple[str, Key | None]]:
    """The moves of ``side`` as ``((from, to), child)``; ``child`` is None when the move
    ends the game at once (End 1: den, End 2: the last enemy animal captured)."""
    enemy = RB.OTHER[side]
    enemies = sum(1 for piece, _ in placement if RB.side_of(piece) == enemy)
    out: list[tuple[tuple[int, int], Key | None]] = []
    for piece, sq in placement:
        if RB.side_of(piece) != side:
            continue
        for to in R.pseudo_targets(board, sq, rules):
            move = (sq, to)
            if to == RB.DEN[enemy]:  # End 1: den
                out.append((move, None))
            elif board[to] and enemies == 1:  # End 2: capture_all
                out.append((move, None))
            else:
                child = tuple(
                    (p, to if p == piece else s) for p, s in placement if p == piece or s != to
                )
                out.append((move, (child, enemy)))
    return out


def closure(red: str, blue: str) -> list[tuple[str, str]]:
    """The material and every material reached from it by captures."""
    seen = {(red.upper(), blue.lower())}
    todo = list(seen)
    while todo:
        r, b = todo.pop()
        for i in range(len(r)):
            sub = (r[:i] + r[i + 1 :], b)
            if sub[0] and sub not in seen:
                seen.add(sub)
                todo.append(sub)
        for i in range(len(b)):
            sub = (r, b[:i] + b[i + 1 :])
            if sub[1] and sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return sorted(seen)


def solve(rules_spec: str, red: str, blue: str) -> dict[Key, tuple[str, int | None]]:
    """``{position: ("win"|"loss"|"draw", plies or None)}`` for the material and every
    material it reaches by captures, under ``rules_spec`` (its anti-chasing rules and
    no-capture clock play no part)."""
    rules = RB.parse_rules(rules_spec)
    nodes: list[Key] = []
    children: dict[Key, list[Key]] = {}
    wins_at_once: set[Key] = set()
    for r, b in closure(red, blue):
        for placement in placements(r, b):
            board = board_of(placement)
            for side in "rb":
                key = (placement, side)
                nodes.append(key)
                kids = children[key] = []
                for _, child in moves_of(placement, board, side, rules):
                    if child is None:
                        wins_at_once.add(key)
                    else:
                        kids.append(child)
    parents: dict[Key, list[Key]] = {k: [] for k in nodes}
    for key in nodes:
        for child in children[key]:
            parents[child].append(key)
    value: dict[Key, tuple[str, int]] = {}
    undecided = {k: len(children[k]) for k in nodes}
    level_list = [k for k in nodes if not children[k] and k not in wins_at_once]
    for k in level_list:
        value[k] = ("loss", 0)
    level = 0
    while True:
        level += 1
        new: list[Key] = []
        if level % 2 == 1:
            # won in `level`: a move into a position lost in level - 1 (or ending the game)
            candidates = [p for q in level_list for p in parents[q]]
            if level == 1:
                candidates += list(wins_at_once)
            for p in candidates:
                if p not in value:
                    value[p] = ("win", level)
                    new.append(p)
        else:
            # lost in `level`: every move leads to a won position, the last one just decided
            for q in level_list:
                for p in parents[q]:
                    if p in value:
                        continue
                    undecided[p] -= 1
                    if undecided[p] == 0 and p not in wins_at_once:
                        value[p] = ("loss", level)
                        new.append(p)
        if not new:
            break
        level_list = new
    return {k: value.get(k, ("draw", None)) for k in nodes}


class BoundedSearch:
    """Exhaustive search with the reference generator, to a given number of plies: can the
    side to move force a win (or must it lose) within ``plies``? Memoized per position and
    depth; a check of single positions where solving the whole material is too slow."""

    def __init__(self, rules_spec: str) -> None:
        self.rules = RB.parse_rules(rules_spec)
        self.moves: dict[Key, list[Key | None]] = {}
        self.memo: dict[tuple[Key, int, bool], bool] = {}

    def children(self, key: Key) -> list[Key | None]:
        """The positions after each move (None: the move ends the game at once)."""
        if key not in self.moves:
            placement, side = key
            found = moves_of(placement, board_of(placement), side, self.rules)
            self.moves[key] = [child for _, child in found]
        return self.moves[key]

    def wins_within(self, key: Key, plies: int) -> bool:
        """Whether the side to move can force the end, as the winner, within ``plies``."""
        if plies < 1:
            return False
        memo = (key, plies, True)
        if memo not in self.memo:
            self.memo[memo] = any(
                child is None or self.loses_within(child, plies - 1) for child in self.children(key)
            )
        return self.memo[memo]

    def loses_within(self, key: Key, plies: int) -> bool:
        """Whether the side to move loses within ``plies`` whatever it does."""
        if plies < 0:
            return False
        memo = (key, plies, False)
        if memo not in self.memo:
            kids = self.children(key)
            self.memo[memo] = all(
                child is not None and self.wins_within(child, plies - 1) for child in kids
            )
        return self.memo[memo]

    def value_within(self, key: Key, plies: int) -> tuple[str, int | None]:
        """The value as far as ``plies`` plies show it: a win or loss with its exact
        distance when it ends within ``plies``, else ("draw", None) (undecided)."""
        for d in range(plies + 1):
            if d % 2 == 1 and self.wins_within(key, d):
                return "win", d
            if d % 2 == 0 and self.loses_within(key, d):
                return "loss", d
        return "draw", None
