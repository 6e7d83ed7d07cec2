"""Draw a Dou Shou Qi position as an SVG in the dashboard's language.

The drawing itself is :func:`engine.svg.board_svg` (pure, shared with the Jupyter drawing
of a ``Position``); this module gives it the language's words from the catalogue and the
animals' names and letters from :mod:`sim.report.names` (the fox setting shows the wolf as
a fox, letter ``F``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dashboard.i18n import side_name, text
from engine import svg
from engine.svg import COLOURS, BoardLabels, Piece, piece_from_letter, strength
from sim.report.names import animal_letter, animal_name

__all__ = ["COLOURS", "Piece", "board_labels", "board_svg", "piece_from_letter", "strength"]


@cache
def board_labels(lang: str = "en", fox: bool = False) -> BoardLabels:
    """The words on a board in ``lang``, the wolf shown as a fox when ``fox`` is on."""
    return BoardLabels(
        den=text(lang, "board.den"),
        trap=text(lang, "board.trap"),
        aria=text(lang, "board.aria"),
        piece_title=text(lang, "board.piece_title"),
        red=side_name(lang, "red"),
        blue=side_name(lang, "blue"),
        names=tuple(animal_name(a, lang, fox) for a in range(1, 9)),
        letters=tuple(animal_letter(a, fox) for a in range(1, 9)),
    )


def board_svg(
    board: Sequence[str | None],
    last_move: tuple[int, int] | None = None,
    capture_square: int | None = None,
    dog_over_wolf: bool = False,
    caption: str | None = None,
    lang: str = "en",
    fox: bool = False,
) -> str:
    """An SVG drawing of a position (:func:`engine.svg.board_svg`) with the words of
    ``lang``; ``fox`` shows the wolf as a fox (name and letter ``F``; display only)."""
    return svg.board_svg(
        board, last_move, capture_square, dog_over_wolf, caption, board_labels(lang, fox)
    )
