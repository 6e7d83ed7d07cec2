"""Search scores on one scale: what a bot thought of the move it chose, in [-1, 1].

Every bot that searches reports a score with its move, each on its own scale: alpha-beta
and external engines in the evaluation's units (the animal values, an elephant 1000;
``cp`` over the protocol) or as a mate (``mate_in``), MCTS as the mean playout result in
[0, 1]. They are mapped to one scale, from the mover's point of view, +1 a won game and -1
a lost one:

- a mate (a forced end found by the search, or a win from the endgame tables) is ±1 by
  its sign (``mate 0``, the protocol's "mated", is -1);
- evaluation units ``u`` become ``tanh(u / EVAL_SCALE)`` with ``EVAL_SCALE = 800``: a
  lead of a cat (200) is 0.24, of a tiger (800) 0.76, of an elephant (1000) 0.85, of the
  elephant and the lion together 0.98. It is the scale MCTS itself puts on an evaluation:
  a playout cut short scores ``1 / (1 + exp(-u / 400))``, and ``2v - 1`` of that is
  ``tanh(u / 800)``, so the two bots' scores of a quiet position agree;
- an MCTS value ``v`` (its expected score: 1 win, 0.5 draw, 0 loss) becomes ``2v - 1``.

:func:`mover_score` is the one accessor (a bot's ``last_score()``, None for bots that do
not search); :func:`red_view` turns a mover's score into Red's (the game record's
``scores`` column).
"""

from __future__ import annotations

import math
from typing import Any

EVAL_SCALE = 800.0
"""Evaluation units at which a lead scores tanh(1) = 0.76 (a tiger's value; MCTS's scale)."""


def from_mate(mate_in: int) -> float:
    """A mate for the mover (positive: it wins) as ±1."""
    return 1.0 if mate_in > 0 else -1.0


def from_eval(units: float) -> float:
    """Evaluation units (the animal values, or a protocol ``cp``) on the [-1, 1] scale."""
    return math.tanh(float(units) / EVAL_SCALE)


def from_value(value: float) -> float:
    """An expected score in [0, 1] (MCTS's mean playout result) on the [-1, 1] scale."""
    return min(1.0, max(-1.0, 2.0 * float(value) - 1.0))


def from_report(info: dict[str, Any]) -> float | None:
    """The score of a search report with ``mate_in`` or an integer ``score`` in evaluation
    units (alpha-beta's ``info``, an engine's ``info score``), or None if it has neither."""
    mate = info.get("mate_in")
    if isinstance(mate, int):
        return from_mate(mate)
    score = info.get("score")
    if isinstance(score, int | float) and not isinstance(score, bool):
        return from_eval(score)
    return None


def mover_score(bot: Any) -> float | None:
    """The score ``bot`` gave its last move, from its own point of view, or None (a bot
    that does not search, or a move it did not search: the only legal one, say)."""
    last = getattr(bot, "last_score", None)
    return last() if last is not None else None


def red_view(score: float | None, side: int) -> float | None:
    """A mover's score as Red's (``side`` 0 Red, 1 Blue moved)."""
    if score is None:
        return None
    return score if side == 0 else -score
