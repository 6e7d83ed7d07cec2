"""Draw a Dou Shou Qi position as an SVG: river, traps, dens, and the animals with their
names, letters and strengths; the last move and a capture can be marked.

Pure functions over :mod:`engine.board`'s geometry (water, traps and dens tables, never a
copy here). The words on the board are a :class:`BoardLabels`, English by default: the
dashboard passes its language's words and names (and the wolf shown as a fox), and
:meth:`engine.position.Position.svg` (a position drawn in Jupyter) the English ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from engine.board import (
    ANIMAL_LETTERS,
    ANIMAL_NAMES,
    DENS,
    FILES,
    NFILES,
    NRANKS,
    TRAP_OWNER,
    WATER,
)

CELL = 62
MARGIN = 22
WIDTH = MARGIN + NFILES * CELL + 4
HEIGHT = NRANKS * CELL + MARGIN + 4

COLOURS = {
    "land": "#e9efd9",
    "land_alt": "#e1e9cd",
    "water": "#8cbfe8",
    "trap": "#d9b38c",
    "den": "#a8703d",
    "red": "#c8343a",
    "blue": "#2f62c2",
    "last": "#f2c12e",
    "capture": "#111111",
}


@dataclass(frozen=True)
class BoardLabels:
    """The words drawn on a board: ``den`` and ``trap`` on their squares, ``aria`` (the
    drawing's accessible name), ``piece_title`` (a piece's tooltip, a template of
    ``side``, ``animal``, ``letter`` and ``strength``), the sides' names, and the animals'
    names and letters (rat .. elephant)."""

    den: str = "DEN"
    trap: str = "trap"
    aria: str = "Dou Shou Qi board"
    piece_title: str = "{side} {animal} ({letter}, strength {strength})"
    red: str = "Red"
    blue: str = "Blue"
    names: tuple[str, ...] = tuple(name.capitalize() for name in ANIMAL_NAMES)
    letters: tuple[str, ...] = tuple(ANIMAL_LETTERS)


ENGLISH = BoardLabels()


@dataclass(frozen=True)
class Piece:
    """A piece on the board: its side (``red``/``blue``) and animal (1 rat .. 8 elephant)."""

    side: str
    animal: int

    @property
    def name(self) -> str:
        """The animal's name, e.g. ``lion``."""
        return ANIMAL_NAMES[self.animal - 1]


def piece_from_letter(letter: str | None) -> Piece | None:
    """A FEN letter (uppercase Red, lowercase Blue) as a :class:`Piece`; None for empty."""
    if not letter:
        return None
    return Piece("red" if letter.isupper() else "blue", ANIMAL_LETTERS.index(letter.upper()) + 1)


def strength(animal: int, dog_over_wolf: bool = False) -> int:
    """The nominal strength of an animal (1 rat .. 8 elephant; dog/wolf swapped by the option)."""
    if dog_over_wolf and animal in (3, 4):
        return 7 - animal
    return animal


def _xy(square: int) -> tuple[float, float]:
    """Top-left corner of a square (rank 9 at the top, file a on the left)."""
    f, r = square % NFILES, square // NFILES
    return MARGIN + f * CELL, (NRANKS - 1 - r) * CELL + 2


def _square_fill(square: int) -> str:
    if square in (int(DENS[0]), int(DENS[1])):
        return COLOURS["den"]
    if TRAP_OWNER[square] >= 0:
        return COLOURS["trap"]
    if WATER[square]:
        return COLOURS["water"]
    f, r = square % NFILES, square // NFILES
    return COLOURS["land"] if (f + r) % 2 == 0 else COLOURS["land_alt"]


def _square_svg(square: int, labels: BoardLabels) -> str:
    x, y = _xy(square)
    parts = [
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{_square_fill(square)}" '
        'stroke="#6d7a5a" stroke-width="0.6"/>'
    ]
    cx, cy = x + CELL / 2, y + CELL / 2
    if WATER[square]:
        for dy in (-12, 0, 12):
            parts.append(
                f'<path d="M{x + 10} {cy + dy} q 7 -5 14 0 t 14 0 t 14 0" fill="none" '
                'stroke="#ffffff" stroke-opacity="0.55" stroke-width="1.4"/>'
            )
    elif square in (int(DENS[0]), int(DENS[1])):
        parts.append(
            f'<text x="{cx}" y="{cy + 5}" font-size="13" text-anchor="middle" fill="#fff3e0" '
            'font-family="sans-serif" font-weight="bold">'
            f"{escape(labels.den)}</text>"
        )
    elif TRAP_OWNER[square] >= 0:
        parts.append(
            f'<path d="M{x + 8} {y + 8} L{x + CELL - 8} {y + CELL - 8} M{x + CELL - 8} {y + 8} '
            f'L{x + 8} {y + CELL - 8}" stroke="#8a5a33" stroke-opacity="0.45" stroke-width="2"/>'
            f'<text x="{cx}" y="{y + CELL - 5}" font-size="9" text-anchor="middle" '
            'fill="#6b4423" font-family="sans-serif">'
            f"{escape(labels.trap)}</text>"
        )
    return "".join(parts)


def _piece_svg(square: int, piece: Piece, dog_over_wolf: bool, labels: BoardLabels) -> str:
    x, y = _xy(square)
    cx, cy = x + CELL / 2, y + CELL / 2
    fill = COLOURS[piece.side]
    name = labels.names[piece.animal - 1]
    letter = labels.letters[piece.animal - 1]
    power = strength(piece.animal, dog_over_wolf)
    side = labels.red if piece.side == "red" else labels.blue
    title = labels.piece_title.format(side=side, animal=name, letter=letter, strength=power)
    size = 13 if len(name) == 1 else 10  # one CJK character reads better a little larger
    return (
        f'<g class="piece {piece.side}" data-letter="{letter}"><title>{escape(title)}</title>'
        f'<circle cx="{cx}" cy="{cy}" r="{CELL / 2 - 5}" fill="{fill}" stroke="#ffffff" '
        'stroke-width="2"/>'
        f'<text x="{cx - 15}" y="{cy - 9}" font-size="9" text-anchor="middle" fill="#ffffff" '
        f'fill-opacity="0.85" font-family="sans-serif" class="letter">{letter}</text>'
        f'<text x="{cx}" y="{cy + 1}" font-size="19" text-anchor="middle" fill="#ffffff" '
        f'font-family="sans-serif" font-weight="bold">{power}</text>'
        f'<text x="{cx}" y="{cy + 16}" font-size="{size}" text-anchor="middle" fill="#ffffff" '
        f'font-family="sans-serif" class="name">{escape(name)}</text></g>'
    )


def board_svg(
    board: Sequence[str | None],
    last_move: tuple[int, int] | None = None,
    capture_square: int | None = None,
    dog_over_wolf: bool = False,
    caption: str | None = None,
    labels: BoardLabels = ENGLISH,
) -> str:
    """An SVG drawing of a position.

    Args:
        board: piece letters by square index 0..62 (``Position.board()``), None for empty.
        last_move: ``(from, to)`` squares of the move just played, outlined.
        capture_square: the square where the move just played captured, marked with a ring.
        dog_over_wolf: show the dog as 4 and the wolf as 3.
        caption: an optional line of text under the board.
        labels: the words on the board (den, trap, the sides' and the animals' names).
    """
    if len(board) != NFILES * NRANKS:
        raise ValueError(f"a board has {NFILES * NRANKS} squares, got {len(board)}")
    height = HEIGHT + (22 if caption else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" class="dsq-board" '
        f'aria-label="{escape(labels.aria)}">'
    ]
    out.extend(_square_svg(sq, labels) for sq in range(NFILES * NRANKS))
    for r in range(NRANKS):
        _, y = _xy(r * NFILES)
        out.append(
            f'<text x="{MARGIN / 2}" y="{y + CELL / 2 + 4}" font-size="12" text-anchor="middle" '
            f'fill="#444" font-family="sans-serif">{r + 1}</text>'
        )
    for f in range(NFILES):
        x, _ = _xy(f)
        out.append(
            f'<text x="{x + CELL / 2}" y="{NRANKS * CELL + MARGIN - 4}" font-size="12" '
            f'text-anchor="middle" fill="#444" font-family="sans-serif">{FILES[f]}</text>'
        )
    if last_move is not None:
        for sq, dash in ((last_move[0], ' stroke-dasharray="6 4"'), (last_move[1], "")):
            x, y = _xy(sq)
            out.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                f'fill="none" stroke="{COLOURS["last"]}" stroke-width="4"{dash}/>'
            )
    for sq, letter in enumerate(board):
        piece = piece_from_letter(letter)
        if piece is not None:
            out.append(_piece_svg(sq, piece, dog_over_wolf, labels))
    if capture_square is not None:
        x, y = _xy(capture_square)
        out.append(
            f'<g class="capture"><circle cx="{x + CELL - 11}" cy="{y + 11}" r="9" '
            f'fill="{COLOURS["capture"]}"/><text x="{x + CELL - 11}" y="{y + 15}" '
            'font-size="13" text-anchor="middle" fill="#fff" font-family="sans-serif" '
            'font-weight="bold">×</text></g>'
        )
    if caption:
        out.append(
            f'<text x="{MARGIN}" y="{HEIGHT + 14}" font-size="13" fill="#222" '
            f'font-family="sans-serif">{escape(caption)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
