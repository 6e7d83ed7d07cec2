"""A draw offered to a bot (``docs/rules.md`` Clocks 3, ``draw_by_agreement``): the bot
accepts or declines by its own view of the game.

The bot's view is the search score of its last move (:func:`sim.bots.scores.mover_score`,
in [-1, 1] from its own side, +1 a won game); a bot that reports no score (random,
greedy), or has not moved yet, weighs the material on the board with the bots' animal
values on the same scale (:func:`sim.bots.scores.from_eval`). It accepts when that view
is below :data:`ACCEPT_BELOW`: when it does not see itself clearly ahead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.codes import ANIMAL_LETTERS
from engine.position import Position
from sim.bots.piece_values import values_array
from sim.bots.scores import from_eval, mover_score

ACCEPT_BELOW = 0.1
"""A bot accepts a draw when its score for itself is below this (0.1 is about 80 units of
evaluation, less than a cat's value: a level game, or one it is losing)."""


@dataclass(frozen=True)
class DrawAnswer:
    """A bot's answer to a draw offer: whether it ``accepted``, its ``score`` for itself
    and where that came from (``search``: its last move's score; ``material``)."""

    accepted: bool
    score: float
    source: str


def material_score(pos: Position, side: str) -> float:
    """The material balance for ``side`` (``red``/``blue``) on the [-1, 1] scale."""
    values = values_array(rules=pos.rules)
    total = 0
    for letter in pos.board():
        if letter is None:
            continue
        value = int(values[ANIMAL_LETTERS.index(letter.upper())])
        total += value if letter.isupper() == (side == "red") else -value
    return from_eval(total)


def answer_draw(bot: Any, pos: Position, side: str) -> DrawAnswer:
    """The answer of ``bot``, playing ``side``, to a draw offered in ``pos``."""
    score = mover_score(bot)
    source = "search"
    if score is None:
        score, source = material_score(pos, side), "material"
    return DrawAnswer(score < ACCEPT_BELOW, float(score), source)
