"""The bitboard kernels agree with the square-by-square rules: the tables against the board's
geometry, the whole-side chase test against ``is_chased``, the counted and the tactical
move lists against the listed legal moves (repetition rules included)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Position, core
from engine.bitboards import NO_SQUARE, REACH, STEPS, TARGET, WATER_BB
from engine.bitops import lowest_bit, popcount
from engine.board import DENS, NEIGHBOURS, NSQ, WATER
from engine.game import count_legal, legal_captures
from engine.moves import chased_bits
from tests.support import reference_board as ref_board
from tests.support.rulesets import RULESETS


def test_bit_counting_in_plain_python() -> None:
    for x in (1, 6, 1 << 62, (1 << 63) - 1, 0b1011000):
        assert popcount(np.int64(x)) == bin(x).count("1")
        assert lowest_bit(np.int64(x)) == (x & -x).bit_length() - 1


def test_tables_follow_the_board() -> None:
    assert WATER_BB == sum(1 << s for s in range(NSQ) if WATER[s])
    for sq in range(NSQ):
        assert STEPS[sq] == sum(1 << int(t) for t in NEIGHBOURS[sq] if t >= 0)
        for side in range(2):
            # A land animal steps onto the neighbouring land squares but its own den.
            land = [int(t) for t in NEIGHBOURS[sq] if t >= 0 and not WATER[t] and t != DENS[side]]
            assert REACH[0, side, sq] == sum(1 << t for t in land)
            targets = [int(t) for t in TARGET[1, side, sq] if t != NO_SQUARE]
            assert REACH[1, side, sq] == sum(1 << t for t in targets)  # a rat
    assert all(REACH[m, s, NO_SQUARE] == 0 for m in range(4) for s in range(2))


def positions(count: int, seed: int) -> list[Position]:
    """Positions of random games from random and initial positions, under every rule set
    (with histories that trigger the repetition rules now and then)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        spec = rng.choice(RULESETS)
        fen = ref_board.START_FEN if rng.random() < 0.5 else ref_board.random_fen(rng, 6, 1)
        pos = Position(spec, fen)
        for _ in range(rng.randrange(0, 60)):
            moves = pos.legal_moves()
            if not moves:
                break
            # Often walk back the mover's last move, to bring the repetition rules in.
            back = pos.history[-2][2:] + pos.history[-2][:2] if len(pos.history) > 1 else ""
            pos.play(back if back in moves and rng.random() < 0.6 else rng.choice(moves))
        out.append(pos)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_side_chase_test_and_move_counts(seed: int) -> None:
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    forbidden = 0
    for pos in positions(300, seed):
        st, ra = pos.st, pos.rules_array
        for side in range(2):
            chased = chased_bits(st, ra, side)
            for animal in range(1, 9):
                code = side * 8 + animal
                sq = int(st[core.P_SQ + code])
                if sq >= 0:
                    assert bool((chased >> sq) & 1) == core.is_chased(st, ra, code, sq)
        n = core.legal_moves(st, ra, buf)
        legal = buf[:n].tolist()
        assert count_legal(st, ra, buf) == n
        k = legal_captures(st, ra, buf)
        den = int(DENS[1 - int(st[core.S_SIDE])])
        assert buf[:k].tolist() == [m for m in legal if st[m & 63] != 0 or (m & 63) == den]
        forbidden += core.pseudo_moves(st, ra, buf) > n and int(st[core.S_STATUS]) == 0
    assert forbidden > 0  # the repetition rules took part
