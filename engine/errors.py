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


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean X?"`` when one of ``choices`` is close to the mistyped ``word``
    (a flag, a preset, a bot...), else ``""``: what an error line appends."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""
