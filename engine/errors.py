"""Errors a user can cause: bad FEN, bad rules spec, illegal move, bad number."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class DsqError(ValueError):
    """Base class of every user-facing error; the CLI prints it on one line and exits 2."""


class RulesError(DsqError):
    """An unknown preset, option or value in a rules spec."""


class FenError(DsqError):
    """A malformed or invalid FEN."""


class MoveError(DsqError):
    """A malformed or illegal move, or a move after the end of the game."""


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The one of ``choices`` closest to the mistyped ``word`` (a flag, a preset, a bot...),
    or None when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean X?"`` with X :func:`closest` to ``word``, else ``""``: what an
    error line appends."""
    close = closest(word, choices)
    return f"; did you mean {close}?" if close else ""
