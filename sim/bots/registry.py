"""Every kind of bot, registered once: its name, meaning, parameters, the class that plays
it and, for bots the referee can run inside its compiled game loop, their kernel kind.

Adding a bot kind is one :class:`BotKind` entry in :data:`KINDS` (and its player class,
named here as ``"module:Class"`` and imported only when a bot of that kind is built, so
parsing specs never loads numba).

A kind may also carry a ``fill`` rule: parameters whose value depends on which others the
spec gave. The searching bots use one (:func:`budget_lifts_cap`): a time or node budget
given without a depth (playouts) lifts the default cap to its maximum, so the budget
decides when to stop. The filled value is written into the canonical spec, which
therefore still names exactly the player.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from sim.bots.params import VALUES, Param

TABLEBASE = Param(
    "tablebase",
    "choice",
    "on",
    "use the endgame tables on disk when they cover the position: play a clock-safe win "
    "straight from them, keep a draw or the longest loss (off: search only)",
    choices=("on", "off"),
    listed=False,  # added after the first games were stored: named only when off
)


class TimeControlParam(Param):
    """The ``tc`` of an engine bot (read by ``sim.engines.botspec``; shown by ``dsq bots``)."""

    def allowed(self) -> str:
        """The forms a time control takes."""
        return "MOVES/SECONDS+INCREMENT (e.g. 40/60+0.6), SECONDS+INCREMENT or SECONDS"


# Kernel kinds of the bots the compiled game loop plays itself (``sim.bots.fast``).
FAST_RANDOM = 0
FAST_GREEDY = 1

Fill = Callable[[dict[str, Any], frozenset[str]], None]
"""``fill(values, given)``: complete a parsed spec's ``values`` (every parameter, defaults
filled in) in place, knowing the names of the parameters the spec text ``given``."""


@dataclass(frozen=True)
class BotKind:
    """One kind of bot.

    ``player`` names the class built for a spec (``"module:Class"``, constructed as
    ``Class(spec, ruleset, rng)``); ``fast_kind`` is the kernel kind of a bot that
    ``sim.bots.fast`` plays in compiled code, else None; ``fill`` completes the values of
    parameters that depend on which others a spec gives (see :data:`Fill`), else None.
    ``spec_module`` names a module whose ``parse_body(text, body)``, ``canonical(params)``
    and ``short(params)`` read and write the specs of a kind that does not fit
    ``key=value`` parameters alone (``engine``).
    """

    name: str
    help: str
    params: tuple[Param, ...]
    player: str
    fast_kind: int | None = None
    spec_module: str | None = None
    fill: Fill | None = None


def budget_lifts_cap(cap: Param, budgets: tuple[str, ...]) -> Fill:
    """A :data:`Fill` rule: when a spec sets one of ``budgets`` above 0 but does not give
    ``cap``, ``cap`` takes its maximum (an explicit ``cap`` still caps)."""

    def fill(values: dict[str, Any], given: frozenset[str]) -> None:
        if cap.name not in given and any(values[b] for b in budgets):
            values[cap.name] = int(cap.high)

    return fill


DEPTH = Param(
    "depth",
    "int",
    4,
    "deepest iteration, in plies; with a time_ms or nodes budget and no depth given, 60 "
    "(the budget decides)",
    1,
    60,
)
PLAYOUTS = Param(
    "playouts",
    "int",
    2000,
    "playouts per move; with a time_ms budget and no playouts given, 100000000 (the "
    "budget decides)",
    1,
    10**8,
)


KINDS: dict[str, BotKind] = {
    k.name: k
    for k in (
        BotKind(
            "random",
            "uniform among the legal moves",
            (),
            "sim.bots.simple:KernelBot",
            FAST_RANDOM,
        ),
        BotKind(
            "greedy",
            "a winning move if any (den entry, last capture, opponent left without moves); "
            "else the best capture that does not lose the piece at once; else a move that "
            "hangs no piece (and leaves no den threat); random among equals",
            (),
            "sim.bots.simple:KernelBot",
            FAST_GREEDY,
        ),
        BotKind(
            "alphabeta",
            "iterative-deepening negamax with alpha-beta, transposition table (Zobrist), "
            "move ordering (table move, captures by victim, killers, history), quiescence "
            "over captures and den entries, mate-distance scores",
            (
                DEPTH,
                Param(
                    "noise",
                    "int",
                    0,
                    "seeded random term in [-noise, noise] added to each evaluated position",
                    0,
                    1000,
                ),
                Param(
                    "time_ms",
                    "int",
                    0,
                    "time budget per move in ms (0: none); the deepest completed iteration wins",
                    0,
                    3_600_000,
                ),
                Param(
                    "nodes",
                    "int",
                    0,
                    "node budget per move (0: none); the deepest completed iteration wins",
                    0,
                    10**12,
                ),
                Param(
                    "contempt",
                    "int",
                    30,
                    "how much worse than 0 a draw (no-capture clock, or a repeated position "
                    "in the search) is for the searching side",
                    -10000,
                    10000,
                ),
                Param("tt_mb", "int", 16, "transposition table size in MiB", 1, 4096),
                VALUES,
                TABLEBASE,
            ),
            "sim.bots.alphabeta:AlphaBetaBot",
            fill=budget_lifts_cap(DEPTH, ("time_ms", "nodes")),
        ),
        BotKind(
            "mcts",
            "UCT Monte Carlo tree search; capped rollouts scored by the evaluation; plays the "
            "most visited move; never misses an immediate win",
            (
                PLAYOUTS,
                Param("c", "float", 1.4, "UCT exploration constant", 0.0, 100.0),
                Param(
                    "rollout", "choice", "random", "rollout policy", choices=("random", "greedy")
                ),
                Param(
                    "rollout_plies",
                    "int",
                    20,
                    "plies per rollout before the evaluation scores it (0: score the leaf)",
                    0,
                    10000,
                ),
                Param(
                    "time_ms",
                    "int",
                    0,
                    "time budget per move in ms (0: none); stops early when reached",
                    0,
                    3_600_000,
                ),
                VALUES,
                TABLEBASE,
            ),
            "sim.bots.mcts:MctsBot",
            fill=budget_lifts_cap(PLAYOUTS, ("time_ms",)),
        ),
        BotKind(
            "engine",
            "an external engine speaking the UCI-style protocol, named in the engine registry "
            "(engines.toml): engine:NAME,movetime=100 or engine:NAME,tc=40/60+0.6; other "
            "key=value pairs are set as the engine's options; any fault forfeits the game",
            (
                Param(
                    "movetime",
                    "int",
                    1000,
                    "time per move in ms (the default limit)",
                    1,
                    86_400_000,
                ),
                Param("depth", "int", 0, "search depth per move (0: none)", 0, 1000),
                Param("nodes", "int", 0, "nodes per move (0: none)", 0, 10**15),
                TimeControlParam(
                    "tc",
                    "text",
                    "none",
                    "a clock instead of movetime, as cutechess writes it",
                ),
                Param(
                    "margin",
                    "int",
                    1000,
                    "ms an answer may come after its time budget before the move loses on time",
                    0,
                    3_600_000,
                ),
            ),
            "sim.engines.bot:EngineBot",
            spec_module="sim.engines.botspec",
        ),
    )
}


def fast_kinds() -> dict[str, int]:
    """``{bot name: kernel kind}`` of the bots the compiled game loop plays itself."""
    return {k.name: k.fast_kind for k in KINDS.values() if k.fast_kind is not None}


@cache
def player_class(name: str) -> Any:
    """The class that plays bots of kind ``name`` (imported on first use)."""
    module, _, attr = KINDS[name].player.partition(":")
    return getattr(importlib.import_module(module), attr)
