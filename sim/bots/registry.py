"""Every kind of bot, registered once: its name, meaning, parameters, the class that plays
it, what a move costs (the dashboard's launch estimate, :mod:`sim.bots.move_costs`), which
of its limits a protocol ``go`` sets (``dsq serve``) and, for bots the referee can run
inside its compiled game loop, their kernel kind.

Adding a bot kind is one :class:`~sim.bots.bot_kind.BotKind` entry in :data:`KINDS` (or
:func:`register`) and its player class, named here as ``"module:Class"`` and imported
only when a bot of that kind is built, so parsing specs never loads numba.

A kind may also carry a ``fill`` rule: parameters whose value depends on which others the
spec gave. The searching bots use one (:func:`sim.bots.bot_kind.budget_lifts_cap`): a
time or node budget given without a depth (playouts) lifts the default cap to its
maximum, so the budget decides when to stop. The filled value is written into the
canonical spec, which therefore still names exactly the player.

The ``mcts`` bot's search parameters (:data:`MCTS_SEARCH`: exploration, rollouts, how a
leaf is scored, the progressive bias and the minimax blend) are here with the others.
``leaf``, ``leaf_depth``, ``bias`` and ``minimax`` came after games were stored: their
``legacy`` values are the bot before them, which a spec of the classic evaluation that
does not name them plays.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.errors import DsqError
from sim.bots.bot_kind import BotKind, GoLimits, both, budget_lifts_cap
from sim.bots.move_costs import alphabeta_cost, constant_cost, engine_cost, mcts_cost
from sim.bots.params import EVAL, VALUES, Param, fill_eval

MCTS_SEARCH = (
    Param("c", "float", 0.05, "UCT exploration constant", 0.0, 100.0),
    Param("rollout", "choice", "random", "rollout policy", choices=("random", "greedy")),
    Param(
        "rollout_plies",
        "int",
        0,
        "plies per rollout before the evaluation scores it (0: score the leaf)",
        0,
        10000,
    ),
    Param(
        "leaf",
        "choice",
        "qsearch",
        "how a leaf (or a rollout's last position) is scored: eval (the "
        "evaluation) or qsearch (the evaluation after the captures and den entries)",
        choices=("eval", "qsearch"),
        legacy="eval",
    ),
    Param(
        "leaf_depth",
        "int",
        0,
        "with leaf=qsearch: full plies searched (alpha-beta) before the quiescence search",
        0,
        4,
        legacy=0,
    ),
    Param(
        "bias",
        "float",
        1.0,
        "progressive bias: weight of each child's prior (the evaluation after its "
        "move) added to UCT as bias * prior / (visits + 1); 0: none, unvisited "
        "children first at random",
        0.0,
        100.0,
        legacy=0.0,
    ),
    Param(
        "minimax",
        "float",
        0.0,
        "weight of a child's minimax value (over the tree's evaluations) blended "
        "with its mean playout value in the selection (needs bias above 0)",
        0.0,
        1.0,
        legacy=0.0,
    ),
)


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
    """The ``tc`` of an engine bot (read by ``sim.external.botspec``; shown by ``dsq bots``)."""

    def allowed(self) -> str:
        """The forms a time control takes."""
        return "MOVES/SECONDS+INCREMENT (e.g. 40/60+0.6), SECONDS+INCREMENT or SECONDS"


# Kernel kinds of the bots the compiled game loop plays itself (``sim.bots.fast``).
FAST_RANDOM = 0
FAST_GREEDY = 1


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
            cost=constant_cost(1e-7),
            seeded=True,
        ),
        BotKind(
            "greedy",
            "a winning move if any (den entry, last capture, opponent left without moves); "
            "else the best capture that does not lose the piece at once; else a move that "
            "hangs no piece (and leaves no den threat); random among equals",
            (),
            "sim.bots.simple:KernelBot",
            FAST_GREEDY,
            cost=constant_cost(1.2e-6),
            seeded=True,
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
                EVAL,
                TABLEBASE,
                Param(
                    "lmr",
                    "int",
                    0,
                    "late-move reductions: 1 searches each quiet move after the third one "
                    "ply shallower first (two from the ninth on, at depth 5 and more), and "
                    "again at full depth only if it beats the best so far; 0 searches "
                    "every move to full depth",
                    0,
                    1,
                    listed=False,
                ),
                Param(
                    "aspiration",
                    "int",
                    0,
                    "aspiration windows: 1 searches each iteration from depth 4 in a window "
                    "of +-40 around the last one's score, widened fourfold on the side it "
                    "fails; 0 always searches the full window",
                    0,
                    1,
                    listed=False,
                ),
                Param(
                    "soft",
                    "int",
                    0,
                    "soft limit, in percent of the node or time budget: no new iteration "
                    "starts once that share is spent (the budget still ends the one under "
                    "way); 0: iterations start until the budget is spent",
                    0,
                    100,
                    listed=False,
                ),
            ),
            "sim.bots.alphabeta:AlphaBetaBot",
            fill=both(budget_lifts_cap(DEPTH, ("time_ms", "nodes")), fill_eval),
            cost=alphabeta_cost,
            limits=GoLimits(depth="depth", nodes="node_budget", time="time_ms"),
            seeded=True,
        ),
        BotKind(
            "mcts",
            "UCT Monte Carlo tree search; each leaf scored by the evaluation after its captures "
            "and den entries (or by capped rollouts), children's priors from the evaluation; "
            "plays the most visited move; never misses an immediate win",
            (
                PLAYOUTS,
                *MCTS_SEARCH,
                Param(
                    "time_ms",
                    "int",
                    0,
                    "time budget per move in ms (0: none); stops early when reached",
                    0,
                    3_600_000,
                ),
                VALUES,
                EVAL,
                TABLEBASE,
            ),
            "sim.bots.mcts:MctsBot",
            fill=both(budget_lifts_cap(PLAYOUTS, ("time_ms",)), fill_eval),
            cost=mcts_cost,
            limits=GoLimits(time="time_ms"),
            seeded=True,
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
            "sim.external.bot:EngineBot",
            spec_module="sim.external.botspec",
            cost=engine_cost,
            external=True,
        ),
    )
}


def fast_kinds() -> dict[str, int]:
    """``{bot name: kernel kind}`` of the bots the compiled game loop plays itself."""
    return {k.name: k.fast_kind for k in KINDS.values() if k.fast_kind is not None}


def register(kind: BotKind) -> None:
    """Add a kind of bot (DsqError if its name is taken or is not a plain lowercase word):
    specs, ``dsq bots``, the referee, ``dsq serve`` and the dashboard then know it."""
    if kind.name in KINDS:
        raise DsqError(f"a bot kind {kind.name!r} is already registered")
    if not kind.name.isidentifier() or kind.name != kind.name.lower():
        raise DsqError(f"bot kind names are lowercase words, not {kind.name!r}")
    KINDS[kind.name] = kind


def unregister(name: str) -> None:
    """Remove the kind ``name`` added by :func:`register` (nothing if it is not there)."""
    if KINDS.pop(name, None) is not None:
        player_class.cache_clear()


@cache
def player_class(name: str) -> Any:
    """The class that plays bots of kind ``name`` (imported on first use)."""
    module, _, attr = KINDS[name].player.partition(":")
    return getattr(importlib.import_module(module), attr)
