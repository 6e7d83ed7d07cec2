"""Adjudication by search scores, as cutechess-cli's ``-resign`` and ``-draw`` define it.

The referee hands every ply to a :class:`ScoreAdjudicator` after the move is made (and
only when the rules have not ended the game with it), with the score the mover gave its
move from its own point of view, on the scale of :mod:`sim.bots.scores` ([-1, 1], a mate
±1, evaluation units ``u`` as ``tanh(u / 800)``). The game ends at the first ply after
which a rule holds; the draw rule is looked at first, as in cutechess:

- **resign** ``movecount=K,score=X[,twosided=true]`` (``0 < X <= 1``): a side loses
  (reason ``adjudicated_resign``) when its own last K moves all scored ``<= -X``; with
  ``twosided=true`` also the opponent's last K moves must all have scored ``>= X``. Each
  side's run counts that side's moves only (the opponent's moves in between neither add
  to it nor break it).
- **draw** ``movenumber=P,movecount=K,score=Y`` (``0 <= Y <= 1``): the game is drawn
  (reason ``adjudicated_draw``) when the last 2K plies, both sides' moves, all scored
  within ``[-Y, Y]`` and at least P moves of each side (2P plies) have been played. A
  capture restarts the run (cutechess restarts it at a capture or pawn move, the moves
  that cannot be taken back): the capture's own score is its first ply.

A move without a score (a bot that reports none, such as ``random`` and ``greedy``, the
random opening plies, a move not searched) breaks every run it belongs to: the mover's
resign runs and the draw run start again from zero, as cutechess does with a book move.
So a side that never reports a score never resigns, and a game with such a side is never
drawn by the scores.

A cutechess threshold in centipawns ``S`` maps to ``tanh(S / 800)`` (the protocol's
``cp`` is dsq's evaluation unit, an elephant 1000): ``score=500`` is 0.555,
``score=1000`` is 0.848; ``score=0.9`` here is 1178 units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.codes import Reason, Status
from engine.errors import DsqError

MAX_MOVECOUNT = 1000
MAX_MOVENUMBER = 32768  # half of the largest ply cap, rounded up


@dataclass(frozen=True)
class ResignRule:
    """``--resign``: K moves of a side at ``<= -score`` (and, two-sided, the opponent's K
    at ``>= score``)."""

    movecount: int
    score: float
    twosided: bool = False

    @property
    def canonical(self) -> str:
        """The stored form, e.g. ``movecount=3,score=0.9``."""
        text = f"movecount={self.movecount},score={_number(self.score)}"
        return text + (",twosided=true" if self.twosided else "")


@dataclass(frozen=True)
class DrawRule:
    """``--draw``: 2K plies within ``[-score, score]`` after ``movenumber`` moves each."""

    movenumber: int
    movecount: int
    score: float

    @property
    def canonical(self) -> str:
        """The stored form, e.g. ``movenumber=20,movecount=4,score=0.05``."""
        return (
            f"movenumber={self.movenumber},movecount={self.movecount},score={_number(self.score)}"
        )


def _number(x: float) -> str:
    return format(x, ".12g")


def _pairs(flag: str, text: object, keys: tuple[str, ...]) -> dict[str, str]:
    """``key=value`` items (comma- or space-separated) of a flag's value."""
    if not isinstance(text, str):
        raise DsqError(f"{flag} must be text such as {_EXAMPLES[flag]}, got {text!r}")
    items = [t for t in text.replace(",", " ").split() if t]
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in keys or not value:
            raise DsqError(
                f"{flag} {text!r}: {item!r} is not one of {', '.join(k + '=' for k in keys)}"
                f" (e.g. {flag} {_EXAMPLES[flag]})"
            )
        if key in out:
            raise DsqError(f"{flag} {text!r}: {key} is given twice")
        out[key] = value
    return out


def _int(flag: str, key: str, value: str, low: int, high: int) -> int:
    if not value.isascii() or not value.isdigit() or not low <= int(value) <= high:
        raise DsqError(f"{flag}: {key} must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


def _score(flag: str, value: str, low_open: bool) -> float:
    try:
        x = float(value)
    except ValueError:
        x = math.nan
    bad = not math.isfinite(x) or x > 1 or (x <= 0 if low_open else x < 0)
    if bad:
        span = "above 0 and at most 1" if low_open else "from 0 to 1"
        raise DsqError(
            f"{flag}: score must be {span} on dsq's [-1, 1] scale (a threshold of S "
            f"centipawns is tanh(S/800)), not {value!r}"
        )
    return x


_EXAMPLES = {
    "--resign": "movecount=3,score=0.9[,twosided=true]",
    "--draw": "movenumber=20,movecount=4,score=0.05",
}


def _require(flag: str, given: dict[str, str], keys: tuple[str, ...]) -> None:
    missing = [k for k in keys if k not in given]
    if missing:
        raise DsqError(f"{flag} needs {', '.join(missing)} (e.g. {flag} {_EXAMPLES[flag]})")


def parse_resign(text: object) -> ResignRule | None:
    """The rule of a ``--resign`` value (None for ``none``); DsqError, one line, if bad."""
    if text == "none":
        return None
    flag = "--resign"
    given = _pairs(flag, text, ("movecount", "score", "twosided"))
    _require(flag, given, ("movecount", "score"))
    two = given.get("twosided", "false")
    if two not in ("true", "false"):
        raise DsqError(f"{flag}: twosided must be true or false, not {two!r}")
    return ResignRule(
        _int(flag, "movecount", given["movecount"], 1, MAX_MOVECOUNT),
        _score(flag, given["score"], low_open=True),
        two == "true",
    )


def parse_draw(text: object) -> DrawRule | None:
    """The rule of a ``--draw`` value (None for ``none``); DsqError, one line, if bad."""
    if text == "none":
        return None
    flag = "--draw"
    given = _pairs(flag, text, ("movenumber", "movecount", "score"))
    _require(flag, given, ("movenumber", "movecount", "score"))
    return DrawRule(
        _int(flag, "movenumber", given["movenumber"], 0, MAX_MOVENUMBER),
        _int(flag, "movecount", given["movecount"], 1, MAX_MOVECOUNT),
        _score(flag, given["score"], low_open=False),
    )


def canonical_resign(text: object) -> str:
    """The canonical ``--resign`` value (``none`` or the rule's stored form)."""
    rule = parse_resign(text)
    return "none" if rule is None else rule.canonical


def canonical_draw(text: object) -> str:
    """The canonical ``--draw`` value (``none`` or the rule's stored form)."""
    rule = parse_draw(text)
    return "none" if rule is None else rule.canonical


class ScoreAdjudicator:
    """The runs of one game's scores; :meth:`update` after every ply says when a rule
    holds, as ``(status, reason)`` codes of :mod:`engine.codes`."""

    def __init__(self, resign: ResignRule | None, draw: DrawRule | None) -> None:
        self.resign = resign
        self.draw = draw
        self.losing = [0, 0]  # each side's run of its own moves at <= -X
        self.winning = [0, 0]  # each side's run of its own moves at >= X
        self.level = 0  # the run of plies (both sides) within [-Y, Y]
        self.result: tuple[int, int] | None = None

    def update(self, plies: int, side: int, score: float | None, captured: bool) -> None:
        """Count the ply just played (``plies`` played so far, by ``side`` 0 Red / 1 Blue,
        its mover's ``score`` from its own view or None, whether it captured); sets
        :attr:`result` when a rule holds after it."""
        if self.result is not None:
            return
        if score is None:
            self.level = self.losing[side] = self.winning[side] = 0
            return
        draw = self.draw
        if draw is not None:
            self.level = (1 if captured else self.level + 1) if abs(score) <= draw.score else 0
            if plies // 2 >= draw.movenumber and self.level >= 2 * draw.movecount:
                self.result = (int(Status.DRAWN), int(Reason.ADJUDICATED_DRAW))
                return
        rule = self.resign
        if rule is not None:
            self.losing[side] = self.losing[side] + 1 if score <= -rule.score else 0
            self.winning[side] = self.winning[side] + 1 if score >= rule.score else 0
            if self.losing[side] >= rule.movecount and (
                not rule.twosided or self.winning[1 - side] >= rule.movecount
            ):
                self.result = (int(Status.won_by(1 - side)), int(Reason.ADJUDICATED_RESIGN))


def score_adjudicator(resign: object = "none", draw: object = "none") -> ScoreAdjudicator | None:
    """The adjudicator of a game's ``--resign`` and ``--draw`` values (None when both are
    ``none``); DsqError on a bad value."""
    rules = parse_resign(resign), parse_draw(draw)
    return None if rules == (None, None) else ScoreAdjudicator(*rules)
