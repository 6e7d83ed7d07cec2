"""The Play page's board: one button per square, drawn with a little CSS.

:func:`board_cells` (pure) decides what each square shows: its kind (land, water, trap,
den), the piece on it (name and strength as the label; letter in a corner, ``F`` for the
wolf with the fox setting), and its marks (selected, a legal destination, a capture, a
destination an anti-chasing rule forbids, the last move). :func:`board_css` (pure) turns
them into style rules keyed on each button's ``st-key-sq_<square>`` class;
:func:`draw_board` lays the buttons out, ranks 9 to 1 from the top (1 to 9 when flipped).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from dashboard.board import COLOURS, strength
from dashboard.i18n import text
from engine.board import DENS, FILES, NFILES, NRANKS, TRAP_OWNER, WATER
from sim.report.names import animal_letter, animal_name

SIZE = 66  # px, one square at most
DISC = 56  # px, a piece on a square of SIZE (the disc scales with the square)
GUTTER = 20  # px, left of and below the board: its coordinates
KEY = "sq_"


@dataclass(frozen=True)
class Cell:
    """What one square shows (see the module's notes)."""

    square: int
    kind: str  # land, land_alt, water, trap, den
    label: str
    side: str | None = None  # the piece's colour
    letter: str = ""
    power: str = ""
    # selected, target, capture, forbidden, last_from, last_to, took (the last move captured)
    marks: tuple[str, ...] = ()


def square_kind(square: int) -> str:
    """``den``, ``trap``, ``water``, ``land`` or ``land_alt`` (the chequered land)."""
    if square in (int(DENS[0]), int(DENS[1])):
        return "den"
    if TRAP_OWNER[square] >= 0:
        return "trap"
    if WATER[square]:
        return "water"
    return "land" if (square % NFILES + square // NFILES) % 2 == 0 else "land_alt"


def board_cells(
    board: list[str | None],
    lang: str,
    fox: bool = False,
    dog_over_wolf: bool = False,
    selected: int | None = None,
    targets: frozenset[int] | set[int] = frozenset(),
    forbidden: frozenset[int] | set[int] = frozenset(),
    last_move: tuple[int, int] | None = None,
    last_captured: bool = False,
) -> list[Cell]:
    """The 63 cells of a position, by square index (``last_captured``: the last move
    captured, marked on its destination)."""
    cells = []
    for sq, letter in enumerate(board):
        kind = square_kind(sq)
        marks = []
        if sq == selected:
            marks.append("selected")
        if sq in targets:
            marks.append("capture" if letter else "target")
        if sq in forbidden:
            marks.append("forbidden")
        if last_move is not None:
            if sq == last_move[0]:
                marks.append("last_from")
            if sq == last_move[1]:
                marks.append("last_to")
                if last_captured:
                    marks.append("took")
        if letter:
            colour = "red" if letter.isupper() else "blue"
            power = strength("RCDWPTLE".index(letter.upper()) + 1, dog_over_wolf)
            cells.append(
                Cell(
                    sq,
                    kind,
                    animal_name(letter, lang, fox),
                    colour,
                    animal_letter(letter, fox),
                    str(power),
                    tuple(marks),
                )
            )
        else:
            label = text(lang, f"board.{kind}") if kind in ("den", "trap") else ""
            cells.append(Cell(sq, kind, label, marks=tuple(marks)))
    return cells


# Squares shrink with the page (at most SIZE px, the board's column at most the board's
# width): ``--sq`` is a seventh of the board's width less the coordinates' gutter.
_BASE = f"""
.st-key-play_board {{
  gap: 0 !important; width: 100%; max-width: {NFILES * SIZE + GUTTER}px;
  container-type: inline-size; padding: 0 0 {GUTTER}px {GUTTER}px; box-sizing: border-box;
}}
.st-key-play_board [data-testid="stHorizontalBlock"],
.st-key-play_board .stHorizontalBlock {{ gap: 0 !important; flex-wrap: nowrap; }}
div[class*="st-key-{KEY}"] {{
  --sq: min({SIZE}px, calc(100cqw / {NFILES})); position: relative;
  width: var(--sq) !important; flex: 0 0 var(--sq) !important; min-width: 0;
}}
div[class*="st-key-{KEY}"] button {{
  width: var(--sq); height: var(--sq); min-height: var(--sq); padding: 0; margin: 0;
  border-radius: 0; border: 1px solid #6d7a5a; position: relative; color: #5b4630;
  font-size: 10px; line-height: 1.1; overflow: visible; vertical-align: top;
}}
div[class*="st-key-{KEY}"] button p {{ margin: 0; font-size: 10px !important; }}
div[class*="st-key-{KEY}"] button div {{ overflow: visible !important; }}
div[class*="st-key-{KEY}"] button::after {{ position: absolute; z-index: 3; }}
div[class*="st-key-{KEY}"]::before, div[class*="st-key-{KEY}"]::after {{
  position: absolute; font-size: 12px; color: #444; font-family: sans-serif;
}}
""".strip()
_RANK_LABEL = f"left: -{GUTTER}px; width: {GUTTER - 4}px; top: calc(50% - 8px); text-align: center;"
_FILE_LABEL = f"bottom: -{GUTTER}px; left: 0; width: 100%; text-align: center;"
_FILL = {k: COLOURS[k] for k in ("land", "land_alt", "water", "trap", "den")}
_MARK = {
    "selected": "box-shadow: inset 0 0 0 4px #f2c12e;",
    "last_to": f"outline: 3px solid {COLOURS['last']}; outline-offset: -3px;",
    "last_from": f"outline: 3px dashed {COLOURS['last']}; outline-offset: -3px;",
    "capture": "box-shadow: inset 0 0 0 4px #1e8c3c;",
}
_AFTER = {
    "target": 'content: ""; width: 18px; height: 18px; border-radius: 50%; '
    "background: rgba(30, 140, 60, 0.75); top: calc(50% - 9px); left: calc(50% - 9px);",
    "forbidden": 'content: "\\2715"; color: #b00020; font-size: 22px; font-weight: 700; '
    "top: calc(50% - 15px); left: calc(50% - 8px);",
    "took": 'content: "\\00D7"; width: 18px; height: 18px; line-height: 18px; top: 2px; '
    "right: 2px; border-radius: 50%; background: #111; color: #fff; font-size: 14px; "
    "font-weight: 700;",
}


def _label_size(label: str) -> str:
    """The font size of a piece's name: one character (象) larger, long names smaller (a
    name of 8 letters, "Elephant", fits the smallest disc)."""
    if len(label) == 1:
        return "15px"
    return "10px" if len(label) <= 6 else "9px"


def _coordinates(flipped: bool) -> list[str]:
    """Rank numbers left of the board's first column (each square's ``::before``) and file
    letters below its last row (``::after``), as shown (1–9 and a–g, reversed when
    ``flipped``), like the Games page's board."""
    order = display_order(flipped)
    out = []
    for row in order:
        rank = row[0] // NFILES + 1
        out.append(f'.st-key-{KEY}{row[0]}::before {{ content: "{rank}"; {_RANK_LABEL} }}')
    for sq in order[-1]:
        letter = FILES[sq % NFILES]
        out.append(f'.st-key-{KEY}{sq}::after {{ content: "{letter}"; {_FILE_LABEL} }}')
    return out


def board_css(cells: list[Cell], flipped: bool = False) -> str:
    """The style rules of a board's buttons (one block per square) and its coordinates."""
    out = [_BASE, *_coordinates(flipped)]
    for c in cells:
        sel = f".st-key-{KEY}{c.square} button"
        rules = [f"background: {_FILL[c.kind]};"]
        rules += [_MARK[m] for m in c.marks if m in _MARK]
        if c.kind == "den":
            rules.append("color: #fff3e0; font-weight: 700;")
        out.append(f"{sel} {{ {' '.join(rules)} }}")
        if c.side:
            out.append(
                f"{sel} p {{ background: {COLOURS[c.side]}; color: #fff; border-radius: 50%; "
                f"width: calc(var(--sq) * {DISC / SIZE:.3f}); "
                f"height: calc(var(--sq) * {DISC / SIZE:.3f}); display: flex; "
                "flex-direction: column; align-items: center; justify-content: center; "
                f"font-size: {_label_size(c.label)} !important; border: 2px solid #fff; "
                "box-sizing: border-box; white-space: nowrap; }"
            )
            out.append(
                f'{sel} p::before {{ content: "{c.letter}"; font-size: 9px; opacity: 0.8; }}'
            )
            out.append(
                f'{sel} p::after {{ content: "{c.power}"; font-size: 15px; font-weight: 700; }}'
            )
        for m in c.marks:
            if m in _AFTER:
                out.append(f"{sel}::after {{ {_AFTER[m]} }}")
    return "\n".join(out)


def display_order(flipped: bool) -> list[list[int]]:
    """Squares row by row as shown: rank 9 first (Red at the bottom), or rank 1 first with
    the files reversed (Blue at the bottom) when ``flipped``."""
    ranks = range(NRANKS) if flipped else range(NRANKS - 1, -1, -1)
    files = range(NFILES - 1, -1, -1) if flipped else range(NFILES)
    return [[r * NFILES + f for f in files] for r in ranks]


def draw_board(cells: list[Cell], flipped: bool, on_click: Callable[[int], None]) -> None:
    """Lay out the board's buttons (a click calls ``on_click(square)``) and their style."""
    st.html(f"<style>{board_css(cells, flipped)}</style>")
    with st.container(key="play_board", gap=None):
        for row in display_order(flipped):
            with st.container(horizontal=True, gap=None):
                for sq in row:
                    c = cells[sq]
                    st.button(c.label or "\u00a0", key=f"{KEY}{sq}", on_click=on_click, args=(sq,))
