"""The Python face of the engine: a position with its history, moves as ``a3a4``; it draws
itself as an SVG (:meth:`Position.svg`, and so in Jupyter)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine import core
from engine.board import piece_letter, square_index, square_name
from engine.codes import SIDE_NAMES, Reason, Status
from engine.errors import DsqError, MoveError
from engine.fen import format_fen, has_fen, parse_fen
from engine.rules import Ruleset, parse_rules
from engine.svg import board_svg

WINNER_NAMES = tuple(s.winner for s in Status)  # by status code: "", red, blue, draw


class Result(NamedTuple):
    """How a game ended: ``winner`` is red, blue or draw; ``reason`` as in docs/rules.md."""

    winner: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        """``{"winner": ..., "reason": ...}``."""
        return {"winner": self.winner, "reason": self.reason}


def encode_move(move: str) -> int:
    """``"a3a4"`` -> ``from * 64 + to``; raises MoveError when it is not a move's form."""
    text = move.strip()
    if len(text) != 4:
        raise MoveError(f"a move is written <from><to>, e.g. a3a4, not {move!r}")
    return square_index(text[:2]) * 64 + square_index(text[2:])


# Every move code's name, looked up rather than built for each move.
_MOVE_NAMES = tuple(square_name(mv >> 6) + square_name(mv & 63) for mv in range(64 * 64))


def decode_move(mv: int) -> str:
    """``from * 64 + to`` -> ``"a3a4"``."""
    mv = int(mv)
    if 0 <= mv < 64 * 64:
        return _MOVE_NAMES[mv]
    return square_name(mv >> 6) + square_name(mv & 63)


class Position:
    """A position under a rule set, with the moves played since it was set up."""

    def __init__(self, rules: Ruleset | str | None = None, fen: str | None = None) -> None:
        self.rules = parse_rules(rules)
        self.rules_array = self.rules.as_array()
        self.st = parse_fen(fen if fen is not None else "start", self.rules_array)
        self._buf = np.empty(core.MAX_MOVES, dtype=np.int32)
        self.history: list[str] = []

    def __repr__(self) -> str:
        text = self.fen() if self.has_fen else self.board_text()
        return f"Position({self.rules.spec!r}, {text!r})"

    def copy(self) -> Position:
        """An independent copy (same rules, position and history)."""
        other = Position.__new__(Position)
        other.rules = self.rules
        other.rules_array = self.rules_array
        other.st = self.st.copy()
        other._buf = np.empty(core.MAX_MOVES, dtype=np.int32)
        other.history = list(self.history)
        return other

    def _reserve(self, plies: int) -> None:
        need = int(self.st[core.S_NPLY]) + plies
        if need > core.history_capacity(self.st):
            bigger = core.new_state(max(need, 2 * core.history_capacity(self.st)))
            bigger[: self.st.shape[0]] = self.st
            self.st = bigger

    def _scratch(self, plies: int) -> np.ndarray:
        """A copy of the state (position and history) with room for ``plies`` more plies."""
        used = core.HEADER + core.HIST_SIZE * int(self.st[core.S_NPLY])
        work = core.new_state(int(self.st[core.S_NPLY]) + plies + 1)
        work[:used] = self.st[:used]
        return work

    def legal_codes(self) -> np.ndarray:
        """The legal moves as ``from * 64 + to`` codes, in generation order."""
        n = core.settle(self.st, self.rules_array, self._buf)
        return self._buf[:n].copy()

    def legal_moves(self) -> list[str]:
        """The legal moves, sorted; empty when the game is over."""
        n = core.settle(self.st, self.rules_array, self._buf)
        return sorted([_MOVE_NAMES[m] for m in self._buf[:n].tolist()])

    @property
    def result(self) -> Result | None:
        """The outcome, or None while the game goes on."""
        core.settle(self.st, self.rules_array, self._buf)
        status = Status(int(self.st[core.S_STATUS]))
        if status is Status.ONGOING:
            return None
        return Result(status.winner, Reason(int(self.st[core.S_REASON])).label)

    @property
    def side(self) -> str:
        """The side to move: ``"red"`` or ``"blue"``."""
        return SIDE_NAMES[int(self.st[core.S_SIDE])]

    @property
    def ply(self) -> int:
        """Plies played since the position was set up."""
        return int(self.st[core.S_NPLY])

    def play(self, move: str) -> None:
        """Play one move such as ``a3a4``; raises MoveError if it is not legal here."""
        mv = encode_move(move)
        legal = self.legal_codes()
        if mv not in legal:
            result = self.result
            if result is not None:
                raise MoveError(
                    f"move {move} after the end of the game ({result.winner}, {result.reason})"
                )
            frm = int(self.st[mv >> 6])
            if frm == 0 or (frm - 1) // 8 != int(self.st[core.S_SIDE]):
                raise MoveError(f"illegal move {move}: no {self.side} piece on {move[:2]}")
            others = sorted(decode_move(m) for m in legal if (m >> 6) == (mv >> 6))
            hint = ", ".join(others) if others else "none"
            raise MoveError(
                f"illegal move {move} for {self.side}; legal moves of that piece: {hint}"
            )
        self._reserve(1)
        core.make_move(self.st, self.rules_array, mv)
        self.history.append(decode_move(mv))

    def play_moves(self, moves: str | list[str]) -> None:
        """Play moves in order; a MoveError names the ply (1-based) of the bad move."""
        items = moves.split() if isinstance(moves, str) else list(moves)
        for i, move in enumerate(items, start=1):
            try:
                self.play(move)
            except MoveError as exc:
                raise MoveError(f"ply {i}: {exc}") from None

    def undo(self) -> None:
        """Take back the last move."""
        if not self.history:
            raise MoveError("no move to take back")
        core.unmake_move(self.st)
        self.history.pop()

    def fen(self) -> str:
        """The FEN of the current position. A game won in a den ends with an animal on the
        den, a position no FEN describes (docs/rules.md refuses it): there this text is not a FEN
        dsq reads, and :attr:`has_fen` is False."""
        return format_fen(self.st)

    @property
    def has_fen(self) -> bool:
        """Whether :meth:`fen` is a FEN dsq reads back (False after a win in a den)."""
        return has_fen(self.st)

    def fen_or_none(self) -> str | None:
        """The FEN of the current position, or None when it has none (won in a den)."""
        return format_fen(self.st) if has_fen(self.st) else None

    def board_text(self) -> str:
        """The board of the current position in FEN notation (the FEN's first field), given
        for every position, one won in a den included."""
        return format_fen(self.st).split()[0]

    def piece_at(self, square: str) -> str | None:
        """The piece letter on a square (uppercase Red), or None."""
        code = int(self.st[square_index(square)])
        return piece_letter(code) if code else None

    def board(self) -> list[str | None]:
        """Piece letters by square index 0..62 (None for empty)."""
        return [piece_letter(int(c)) if c else None for c in self.st[:63]]

    def perft(self, depth: int) -> int:
        """Leaf count of the legal-move tree ``depth`` plies deep (history-aware)."""
        if depth < 0:
            raise DsqError(f"perft depth must be 0 or more, not {depth}")
        return int(core.perft(self._scratch(depth), self.rules_array, depth))

    def divide(self, depth: int) -> dict[str, int]:
        """perft(depth - 1) below each legal move, keyed by move."""
        if depth < 1:
            raise DsqError(f"divide needs a depth of 1 or more, not {depth}")
        moves = np.empty(core.MAX_MOVES, dtype=np.int32)
        counts = np.empty(core.MAX_MOVES, dtype=np.int64)
        n = core.divide(self._scratch(depth), self.rules_array, depth, moves, counts)
        return dict(sorted((decode_move(moves[i]), int(counts[i])) for i in range(n)))

    def caption(self) -> str:
        """One line about the position: its rules and the side to move, or the result."""
        result = self.result
        if result is None:
            return f"{self.rules.spec}: {self.side} to move"
        if result.winner == "draw":
            return f"{self.rules.spec}: draw ({result.reason})"
        return f"{self.rules.spec}: {result.winner} wins ({result.reason})"

    def svg(self, caption: str | None = None) -> str:
        """The position drawn as an SVG (:func:`engine.svg.board_svg`): the last move
        outlined, a capture by it marked, and ``caption`` (default :meth:`caption`) below."""
        last = capture = None
        if self.history:
            mv = encode_move(self.history[-1])
            last = (mv >> 6, mv & 63)
            before = self.copy()
            before.undo()
            if int(before.st[mv & 63]):
                capture = mv & 63
        return board_svg(
            self.board(),
            last_move=last,
            capture_square=capture,
            dog_over_wolf=self.rules.dog_over_wolf,
            caption=self.caption() if caption is None else caption,
        )

    def _repr_svg_(self) -> str:
        """The drawing Jupyter shows for a position (:meth:`svg`)."""
        return self.svg()
