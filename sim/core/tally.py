"""Running counts of a batch's games, and the early-stopping check that reads them.

A stop check (an SPRT) is a sequential test: :class:`SequentialCheck` runs it on the games
in game-index order, after every game (every colour-swapped pair with ``swap``) of the
run of indices 0, 1, 2, ... known so far. The games are the same for each index whoever
plays them, so the game count at which it decides is the same on any number of workers
and equals the one found offline from the recorded games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.codes import WINNERS

_CODES = {w: k for k, w in enumerate(WINNERS)}  # red 0, blue 1, draw 2 (else 3: not counted)

StopCheck = Callable[[dict[str, Any]], bool]
"""``stop_check(counts) -> bool``: called by :class:`SequentialCheck` with the
:meth:`Tally.counts` of games ``0..n-1`` after each game (each pair with swap); true stops
the batch early (see :func:`sim.stats.sprt.make_stop_check`)."""


class Tally:
    """Running counts of a batch's games, by colour and by bot (``a`` = the ``--red`` bot).

    :meth:`counts` gives ``games``, ``red``, ``blue``, ``draw``, ``a_wins``, ``b_wins``,
    and from bot a's side ``wins``, ``draws``, ``losses``; with colour swapping also
    ``pentanomial`` = ``[LL, LD, DD+WL, WD, WW]`` over the pairs with both games played.
    """

    def __init__(self, swap: bool) -> None:
        self.swap = swap
        self.c = {"games": 0, "red": 0, "blue": 0, "draw": 0, "a_wins": 0, "b_wins": 0}
        self.penta = [0, 0, 0, 0, 0]
        self.half_pairs: dict[int, int] = {}  # pair -> bot a's points (x2) in the first game

    def add(self, game_index: int, winner: str) -> None:
        """Count game ``game_index`` won by ``winner`` (``red``, ``blue`` or ``draw``)."""
        self.c["games"] += 1
        if winner in WINNERS:
            self.c[winner] += 1
        a_is_red = not (self.swap and game_index % 2 == 1)
        a_points = 1
        if winner in ("red", "blue"):
            a_won = (winner == "red") == a_is_red
            self.c["a_wins" if a_won else "b_wins"] += 1
            a_points = 2 if a_won else 0
        if self.swap:
            pair = game_index // 2
            if pair in self.half_pairs:
                self.penta[self.half_pairs.pop(pair) + a_points] += 1
            else:
                self.half_pairs[pair] = a_points

    def add_all(self, results: Sequence[tuple[int, str]]) -> None:
        """:meth:`add` every ``(game_index, winner)`` of ``results``, counted together."""
        if len(results) < 64:
            for gi, w in results:
                self.add(gi, w)
            return
        # lazy: start-up time (numpy: the batch records' readers import bot_results from here)
        import numpy as np

        idx = np.fromiter((gi for gi, _ in results), np.int64, len(results))
        code = np.fromiter((_CODES.get(w, 3) for _, w in results), np.int8, len(results))
        per = np.bincount(code, minlength=4)
        c = self.c
        c["games"] += len(results)
        for k, name in enumerate(WINNERS):
            c[name] += int(per[k])
        a_is_red = (idx % 2 == 0) if self.swap else np.ones(len(idx), dtype=bool)
        a_won = ((code == 0) & a_is_red) | ((code == 1) & ~a_is_red)
        b_won = (code < 2) & ~a_won
        c["a_wins"] += int(a_won.sum())
        c["b_wins"] += int(b_won.sum())
        if not self.swap:
            return
        points = np.where(a_won, 2, np.where(b_won, 0, 1))
        pairs = idx // 2
        order = np.argsort(pairs, kind="stable")
        pairs, points = pairs[order], points[order]
        both = np.flatnonzero(pairs[1:] == pairs[:-1])  # pairs whose two games are here
        for k, m in enumerate(np.bincount(points[both] + points[both + 1], minlength=5)):
            self.penta[k] += int(m)
        alone = np.ones(len(pairs), dtype=bool)
        alone[both] = alone[both + 1] = False
        for pair, pts in zip(pairs[alone].tolist(), points[alone].tolist(), strict=True):
            if pair in self.half_pairs:
                self.penta[self.half_pairs.pop(pair) + pts] += 1
            else:
                self.half_pairs[pair] = pts

    def colours(self) -> dict[str, int]:
        """``{"red", "blue", "draw"}``: the counts the progress shows."""
        return {k: self.c[k] for k in WINNERS}

    def record_counts(self) -> dict[str, Any]:
        """The ``counts`` of a batch record: ``red``, ``blue``, ``draw``, the wins of bot a
        (the ``--red`` bot) and bot b, and with colour swapping the ``pentanomial`` of bot
        a over the pairs with both games recorded (see :func:`bot_results`)."""
        out: dict[str, Any] = self.colours()
        out.update(a_wins=self.c["a_wins"], b_wins=self.c["b_wins"])
        if self.swap:
            out["pentanomial"] = list(self.penta)
        return out

    def counts(self) -> dict[str, Any]:
        """Every count, as passed to a :data:`StopCheck`."""
        out: dict[str, Any] = dict(self.c)
        out.update(wins=self.c["a_wins"], draws=self.c["draw"], losses=self.c["b_wins"])
        if self.swap:
            out["pentanomial"] = list(self.penta)
        return out


class SequentialCheck:
    """Feeds a batch's results to ``check`` in game-index order and finds where it decides.

    Results may come in any order (:meth:`add`); each is held until every lower index is
    known, then counted, and ``check`` is tested after every game, or with ``swap`` after
    every pair (games ``2k`` and ``2k+1``). :attr:`decided_at` is the number of games
    ``0..n-1`` the check first said stop on (None while it has not), :attr:`counts` the
    counts it was last tested on (those of the decision once decided); after the decision
    no result is counted. A check with a ``first_decision(steps)`` method (the SPRT's) is
    handed all the states a call completes at once.
    """

    def __init__(self, check: StopCheck, swap: bool) -> None:
        self.check = check
        self.swap = swap
        self.tally = Tally(swap)
        self.decided_at: int | None = None
        self.counts: dict[str, Any] | None = None
        self._next = 0  # the lowest index not counted yet
        self._held: dict[int, str] = {}

    def add(self, results: Iterable[tuple[int, str]]) -> None:
        """Take games' ``(index, winner)``; test the check on every state they complete."""
        if self.decided_at is not None:
            return
        held, step = self._held, 2 if self.swap else 1
        held.update((gi, w) for gi, w in results if gi >= self._next)
        steps: list[dict[str, Any]] = []
        while self._next in held:
            self.tally.add(self._next, held.pop(self._next))
            self._next += 1
            if self._next % step == 0:
                steps.append(self.tally.counts())
        if not steps:
            return
        first = getattr(self.check, "first_decision", None)
        if first is not None:
            i = first(steps)
        else:
            i = next((k for k, c in enumerate(steps) if self.check(c)), None)
        self.counts = steps[-1] if i is None else steps[i]
        if i is not None:
            self.decided_at = self.counts["games"]
            held.clear()

    @property
    def frontier(self) -> int:
        """The lowest game index not counted yet (every lower one has been)."""
        return self._next


def bot_results(counts: dict[str, Any], swap: bool) -> dict[str, Any] | None:
    """Bot a's ``wins``, ``draws`` and ``losses`` (a = the ``--red`` bot of the spec) from a
    batch record's ``counts``, with ``pentanomial`` when the record holds one; None when
    the counts cannot tell (a colour-swapped batch recorded before the bots' wins were)."""
    if "a_wins" in counts and "b_wins" in counts:
        wins, losses = counts["a_wins"], counts["b_wins"]
    elif not swap:
        wins, losses = counts.get("red", 0), counts.get("blue", 0)  # bot a always red
    else:
        return None
    out: dict[str, Any] = {"wins": wins, "draws": counts.get("draw", 0), "losses": losses}
    if swap and isinstance(counts.get("pentanomial"), list):
        out["pentanomial"] = list(counts["pentanomial"])
    return out
