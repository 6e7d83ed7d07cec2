"""The ``position`` command of a game state: the FEN it was set up from (or ``startpos``)
and every move played since, so the engine can apply its own repetition rules.

The state's history (``engine.state``) holds the moves since set-up; the set-up position
is found by taking them all back on a copy, once per game (later calls see the same
history grow and reuse it). FENs and moves are written in the engine's dialect
(``fen_side``, ``fen_case``, ``fen_counters`` and ``move_case`` of its registry entry).
"""

from __future__ import annotations

import numpy as np

from engine import core
from engine.codes import H_FROM, H_TO
from engine.fen import START_FEN, format_fen
from engine.position import decode_move
from sim.external.registry import EngineEntry

_FROM_TO = np.array([H_FROM, H_TO])


def dialect_fen(
    fen: str, fen_side: str = "rb", fen_counters: bool = True, fen_case: str = "red_upper"
) -> str:
    """Our FEN in an engine's dialect: ``w`` for red with ``fen_side="wb"``, red's pieces in
    lower case (blue's in upper case) with ``fen_case="red_lower"``, and without
    ``<clock> <fullmove>`` unless ``fen_counters``."""
    fields = fen.split()
    if fen_side == "wb" and fields[1] == "r":
        fields[1] = "w"
    if fen_case == "red_lower":
        fields[0] = fields[0].swapcase()
    return " ".join(fields if fen_counters else fields[:2])


def history_codes(st: np.ndarray) -> np.ndarray:
    """The moves played since set-up as ``from * 64 + to`` codes."""
    n = int(st[core.S_NPLY])
    hist = st[core.HEADER : core.HEADER + n * core.HIST_SIZE].reshape(n, core.HIST_SIZE)
    return hist[:, H_FROM] * 64 + hist[:, H_TO]


def setup_fen(st: np.ndarray) -> str:
    """The FEN of the position the state was set up from (its history taken back)."""
    work = st.copy()
    for _ in range(int(st[core.S_NPLY])):
        core.unmake_move(work)
    return format_fen(work)


class PositionText:
    """Writes ``position`` commands for one engine, caching the set-up of the game."""

    def __init__(self, entry: EngineEntry, fen_always: bool = False) -> None:
        self.entry = entry
        self.fen_always = fen_always  # the initial position as a FEN too (the rules check)
        self._codes: list[int] = []
        self._texts: list[str] = []
        self._head = ""

    def command(self, st: np.ndarray) -> str:
        """``position startpos|fen FEN [moves m1 m2 ...]`` for the state ``st``."""
        codes = history_codes(st).tolist()
        k = len(self._codes)
        if not self._head or k > len(codes) or codes[:k] != self._codes:
            self._start(st)
            k = 0
        self._codes.extend(codes[k:])
        self._texts.extend(self.entry.move_text(decode_move(c)) for c in codes[k:])
        if not self._texts:
            return self._head
        return f"{self._head} moves {' '.join(self._texts)}"

    def _start(self, st: np.ndarray) -> None:
        fen = setup_fen(st)
        e = self.entry
        if fen == START_FEN and e.startpos and not self.fen_always:
            self._head = "position startpos"
        else:
            text = dialect_fen(fen, e.fen_side, e.fen_counters, e.fen_case)
            self._head = f"position fen {text}"
        self._codes, self._texts = [], []
