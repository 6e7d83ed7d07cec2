"""FEN in and out (docs/rules.md: ``<board> <side> <clock> <fullmove>``) with its validation."""

from __future__ import annotations

import numpy as np

from engine.board import DENS, NFILES, NRANKS, WATER, piece_letter, square_name
from engine.codes import ANIMAL_LETTERS, CAPTURE_ALL, DRAWN, NO_CAPTURE, RAT, RED_WON
from engine.errors import FenError
from engine.rules import R_NO_CAPTURE
from engine.state import P_SQ, S_CLOCK, S_COUNT, S_FULLMOVE, S_REASON, S_SIDE, S_STATUS, new_state

START_FEN = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1"
MAX_CLOCK = 10_000_000


def parse_fen(fen: str, rules_array: np.ndarray, capacity: int = 1024) -> np.ndarray:
    """A state array for ``fen`` (``"start"`` for the initial position); raises FenError.

    The status of a finished position is set as docs/rules.md orders it: the side to move has
    no pieces (capture_all), then the no-capture clock; a side with no legal move is found
    when its moves are generated (``engine.game.settle``, End 4).
    """
    text = str(fen).strip()
    if text == "start":
        text = START_FEN
    fields = text.split()
    if len(fields) != 4:
        raise FenError(
            f"a FEN has 4 fields '<board> <side> <clock> <fullmove>', got {len(fields)}: {text!r}"
        )
    board_text, side_text, clock_text, full_text = fields
    ranks = board_text.split("/")
    if len(ranks) != NRANKS:
        raise FenError(f"the FEN board needs {NRANKS} ranks separated by '/', got {len(ranks)}")
    st = new_state(capacity)
    seen: dict[int, str] = {}
    for i, rank_text in enumerate(ranks):
        rank = NRANKS - 1 - i
        file = 0
        previous_digit = False
        for ch in rank_text:
            if ch in "1234567":
                if previous_digit:
                    raise FenError(
                        f"rank {rank + 1} of the FEN has two digits in a row: write one run"
                    )
                previous_digit = True
                file += int(ch)
                continue
            previous_digit = False
            if ch.isdigit():  # 8, 9, 0: no run of empty squares fits in a rank of 7
                raise FenError(
                    f"rank {rank + 1} of the FEN is longer than {NFILES} squares"
                    if ch != "0"
                    else f"rank {rank + 1} of the FEN has a run of 0 squares: runs are 1 to 7"
                )
            upper = ch.upper()
            if upper not in ANIMAL_LETTERS:
                raise FenError(
                    f"unknown piece letter {ch!r} in rank {rank + 1} of the FEN"
                    f" (pieces are {ANIMAL_LETTERS} for Red, lowercase for Blue)"
                )
            if file >= NFILES:
                raise FenError(f"rank {rank + 1} of the FEN is longer than {NFILES} squares")
            animal = ANIMAL_LETTERS.index(upper) + 1
            code = animal + (0 if ch.isupper() else 8)
            sq = rank * NFILES + file
            if code in seen:
                raise FenError(
                    f"two pieces {ch!r} (on {seen[code]} and {square_name(sq)}):"
                    " each side has one of each animal"
                )
            if WATER[sq] and animal != RAT:  # Movement 3: only a rat enters water
                raise FenError(f"piece {ch!r} in water on {square_name(sq)}: only a rat may")
            if sq in (int(DENS[0]), int(DENS[1])):  # End 1: den (the game would be over)
                raise FenError(
                    f"piece {ch!r} on the den {square_name(sq)}: that game would already be over"
                )
            seen[code] = square_name(sq)
            st[sq] = code
            st[P_SQ + code] = sq
            file += 1
        if file != NFILES:
            raise FenError(f"rank {rank + 1} of the FEN has {file} squares, not {NFILES}")
    if not seen:
        raise FenError("the FEN board has no animals: a position needs at least one")
    if side_text not in ("r", "b"):
        raise FenError(f"the side to move is 'r' or 'b', not {side_text!r}")
    if not (clock_text.isascii() and clock_text.isdigit()) or not (
        full_text.isascii() and full_text.isdigit()
    ):
        raise FenError(
            f"the clock and fullmove fields are whole numbers, not {clock_text!r} {full_text!r}"
        )
    clock = int(clock_text)
    fullmove = int(full_text)
    if not 0 <= clock <= MAX_CLOCK:
        raise FenError(f"the no-capture clock must be 0 to {MAX_CLOCK}, not {clock}")
    if not 1 <= fullmove <= MAX_CLOCK:
        raise FenError(f"the fullmove number must be 1 to {MAX_CLOCK}, not {fullmove}")
    side = 0 if side_text == "r" else 1
    st[S_SIDE] = side
    st[S_CLOCK] = clock
    st[S_FULLMOVE] = fullmove
    st[S_COUNT] = sum(1 for c in seen if c <= 8)
    st[S_COUNT + 1] = sum(1 for c in seen if c > 8)
    limit = int(rules_array[R_NO_CAPTURE])
    if st[S_COUNT + side] == 0:  # End 2: capture_all (the side to move has no pieces)
        st[S_STATUS] = RED_WON + (1 - side)
        st[S_REASON] = CAPTURE_ALL
    elif limit > 0 and clock >= limit:  # End 3: no_capture
        st[S_STATUS] = DRAWN
        st[S_REASON] = NO_CAPTURE
    return st


def has_fen(st: np.ndarray) -> bool:
    """Whether the position of a state array has a FEN that :func:`parse_fen` reads: not
    when an animal stands on a den (End 1: the game was won there, and docs/rules.md refuses
    such a FEN)."""
    return not (st[int(DENS[0])] or st[int(DENS[1])])


# A square's FEN text by piece code, ``-`` for an empty one (runs become their lengths).
_FEN_LETTERS = ("-",) + tuple(piece_letter(code) for code in range(1, 17))
_EMPTY_RUNS = tuple((n, "-" * n) for n in range(NFILES, 0, -1))


def format_fen(st: np.ndarray) -> str:
    """The FEN fields of a state array (``<board> <side> <clock> <fullmove>``); a FEN that
    :func:`parse_fen` reads only where :func:`has_fen` (else no FEN: an animal on a den)."""
    squares = "".join([_FEN_LETTERS[c] for c in st[: NRANKS * NFILES].tolist()])
    board = "/".join(
        squares[rank * NFILES : (rank + 1) * NFILES] for rank in range(NRANKS - 1, -1, -1)
    )
    for n, run in _EMPTY_RUNS:  # the longest runs first
        board = board.replace(run, str(n))
    side = "r" if st[S_SIDE] == 0 else "b"
    return f"{board} {side} {int(st[S_CLOCK])} {int(st[S_FULLMOVE])}"
