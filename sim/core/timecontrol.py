"""Time controls as cutechess writes them: ``40/60+0.6`` (40 moves in 60 s, 0.6 s added
after each move), ``60+0.6`` (the whole game), ``60``; and per-move budgets.

Pure: no processes, no numba. The clocks of a game are in :mod:`sim.external.clocks`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import DsqError

MAX_MS = 86_400_000  # one day: the longest budget or clock accepted
_TC_RE = re.compile(r"^(?:(\d{1,4})/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


@dataclass(frozen=True)
class TimeControl:
    """A clock: ``base_ms`` for every ``moves`` moves (0: for the whole game), plus
    ``inc_ms`` after each move."""

    moves: int
    base_ms: int
    inc_ms: int

    @property
    def text(self) -> str:
        """The canonical form, e.g. ``40/60+0.6`` or ``60``."""
        out = f"{self.moves}/" if self.moves else ""
        out += _seconds(self.base_ms)
        if self.inc_ms:
            out += "+" + _seconds(self.inc_ms)
        return out

    def __str__(self) -> str:
        return self.text


def clock_text(ms: float) -> str:
    """What a clock shows for ``ms`` milliseconds left: ``m:ss`` (whole seconds, rounded
    down; ``h:mm:ss`` from an hour; nothing below ``0:00``): 557886 -> ``9:17``."""
    seconds = max(0, int(ms // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _seconds(ms: int) -> str:
    """Milliseconds as seconds without a trailing ``.0``: 60000 -> ``60``, 600 -> ``0.6``."""
    whole, frac = divmod(int(ms), 1000)
    return str(whole) if not frac else f"{whole}.{frac:03d}".rstrip("0")


def parse_tc(text: str) -> TimeControl:
    """``40/60+0.6``, ``60+0.6`` or ``60`` (seconds) -> :class:`TimeControl`; DsqError if bad."""
    raw = str(text).strip()
    m = _TC_RE.match(raw)
    if not m:
        raise DsqError(
            f"bad time control {raw!r}: write MOVES/SECONDS+INCREMENT (e.g. 40/60+0.6), "
            "SECONDS+INCREMENT (60+0.6) or SECONDS"
        )
    moves = int(m.group(1) or 0)
    base_ms = round(float(m.group(2)) * 1000)
    inc_ms = round(float(m.group(3) or 0) * 1000)
    if m.group(1) is not None and moves < 1:
        raise DsqError(f"bad time control {raw!r}: the moves before the clock resets must be >= 1")
    if not 0 < base_ms <= MAX_MS or inc_ms > MAX_MS:
        raise DsqError(
            f"bad time control {raw!r}: the clock must be above 0 and at most {MAX_MS // 1000} s"
        )
    return TimeControl(moves, base_ms, inc_ms)


@dataclass
class SideClock:
    """One side's time limit in a game: a clock (``tc``), a per-move budget
    (``movetime_ms``), or none; ``margin_ms`` is how far an answer may overrun its budget
    before the move loses on time."""

    tc: TimeControl | None = None
    movetime_ms: int | None = None
    margin_ms: int = 1000
    remaining_ms: float = 0.0
    moves_made: int = 0

    def __post_init__(self) -> None:
        if self.tc is not None:
            self.remaining_ms = float(self.tc.base_ms)

    @property
    def limited(self) -> bool:
        """Whether this side's moves are timed at all."""
        return self.tc is not None or self.movetime_ms is not None

    @property
    def text(self) -> str:
        """``40/60+0.6``, ``movetime=100`` or ``none``."""
        if self.tc is not None:
            return self.tc.text
        if self.movetime_ms is not None:
            return f"movetime={self.movetime_ms}"
        return "none"

    def budget_ms(self) -> float | None:
        """The time this move may take before it loses on time (margin excluded), or None."""
        if self.tc is not None:
            return self.remaining_ms
        if self.movetime_ms is not None:
            return float(self.movetime_ms)
        return None

    def moves_to_go(self) -> int | None:
        """Moves left before the clock is next refilled (``40/...`` controls), else None."""
        if self.tc is None or not self.tc.moves:
            return None
        return self.tc.moves - self.moves_made % self.tc.moves

    def over_time(self, elapsed_ms: float) -> bool:
        """Whether a move that took ``elapsed_ms`` loses on time."""
        budget = self.budget_ms()
        return budget is not None and elapsed_ms > budget + self.margin_ms

    def charge(self, elapsed_ms: float) -> None:
        """Account for a move that took ``elapsed_ms`` (within its budget and margin)."""
        self.moves_made += 1
        if self.tc is None:
            return
        self.remaining_ms = max(0.0, self.remaining_ms - elapsed_ms) + self.tc.inc_ms
        if self.tc.moves and self.moves_made % self.tc.moves == 0:
            self.remaining_ms += self.tc.base_ms
