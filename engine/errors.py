"""Errors a user can cause: bad FEN, bad rules spec, illegal move, bad number."""


class DsqError(ValueError):
    """Base class of every user-facing error; the CLI prints it on one line and exits 2."""


class RulesError(DsqError):
    """An unknown preset, option or value in a rules spec."""


class FenError(DsqError):
    """A malformed or invalid FEN."""


class MoveError(DsqError):
    """A malformed or illegal move, or a move after the end of the game."""
