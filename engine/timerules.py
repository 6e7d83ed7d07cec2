"""The players' rules of a rule set (``docs/rules.md``, "Clocks"): the time per move and
the strikes that lose, the clock for the whole game, and draws by agreement.

They judge moves by how long they took, which no position holds: the compiled kernels
never read them. The referee (:mod:`sim.play.referee`), the game with a person at the
board (:mod:`sim.interactive.session`) and the engines' clocks (:mod:`sim.external.clocks`)
apply them through :class:`RuleClock`. Pure: no numba, no files.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import Ruleset


@dataclass(frozen=True)
class TimeRules:
    """A rule set's time rules in milliseconds: ``move_ms`` per move (None: no limit) with
    ``strikes`` (strikes in a row that lose), ``game_ms`` per side for the whole game (None:
    no clock); ``draws`` whether the players may agree to a draw."""

    move_ms: int | None = None
    strikes: int = 1
    game_ms: int | None = None
    draws: bool = False

    @property
    def timed(self) -> bool:
        """Whether any move is timed by the rules."""
        return self.move_ms is not None or self.game_ms is not None

    @property
    def text(self) -> str:
        """``move 30 s, 2 strikes``, ``game 600 s``, both joined by ``; ``, or ``none``."""
        parts = []
        if self.move_ms is not None:
            parts.append(f"move {self.move_ms // 1000} s, {self.strikes} strikes")
        if self.game_ms is not None:
            parts.append(f"game {self.game_ms // 1000} s")
        return "; ".join(parts) or "none"


def time_rules(rules: Ruleset) -> TimeRules:
    """The time rules and the draw rule of ``rules``."""
    return TimeRules(
        move_ms=rules.move_time * 1000 or None,  # Clocks 1: move_time (0: no limit)
        strikes=rules.time_strikes,  # Clocks 1: time_strikes in a row lose
        game_ms=rules.game_time * 1000 or None,  # Clocks 2: game_time (0: no clock)
        draws=rules.draw_by_agreement,  # Clocks 3: draw_by_agreement
    )


def move_strikes(move_ms: int | None, elapsed_ms: float) -> int:
    """The strikes a move of ``elapsed_ms`` earns under a limit of ``move_ms``: one for
    each full limit it went past (a move of 31 s under 30 s: 1; of 61 s: 2)."""
    if move_ms is None or elapsed_ms <= move_ms:
        return 0
    return int(-(-elapsed_ms // move_ms)) - 1  # Clocks 1: each further limit, one more


@dataclass
class RuleClock:
    """One side's standing under the time rules during a game: what is left of its game
    clock (``left_ms``) and its strikes in a row (``strikes``)."""

    rules: TimeRules
    left_ms: float | None = None
    strikes: int = 0

    def __post_init__(self) -> None:
        if self.left_ms is None and self.rules.game_ms is not None:
            self.left_ms = float(self.rules.game_ms)

    def budget_ms(self) -> float | None:
        """The longest the next move may take without losing or earning a strike (None:
        untimed): the time per move, or what is left of the clock if that is less."""
        limits = [x for x in (self.rules.move_ms, self.left_ms) if x is not None]
        return float(min(limits)) if limits else None

    def verdict(self, elapsed_ms: float) -> str | None:
        """Why a move of ``elapsed_ms`` (not yet charged) loses on time, or None."""
        if self.left_ms is not None and elapsed_ms > self.left_ms:  # Clocks 2: game_time
            return f"its clock of {self.rules.game_ms // 1000} s ran out"  # type: ignore[operator]
        earned = move_strikes(self.rules.move_ms, elapsed_ms)
        if earned and self.strikes + earned >= self.rules.strikes:  # Clocks 1: time_strikes
            total = self.strikes + earned
            return (
                f"{total} strikes in a row over {self.rules.move_ms // 1000} s per move"  # type: ignore[operator]
                f" ({self.rules.strikes} lose)"
            )
        return None

    def charge(self, elapsed_ms: float) -> None:
        """Account for a move of ``elapsed_ms`` that did not lose."""
        if self.left_ms is not None:
            self.left_ms = max(0.0, self.left_ms - elapsed_ms)
        earned = move_strikes(self.rules.move_ms, elapsed_ms)
        self.strikes = self.strikes + earned if earned else 0
