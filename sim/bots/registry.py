"""Every kind of bot, registered once: its name, meaning, parameters, the class that plays
it, what a move costs (the dashboard's launch estimate), which of its limits a protocol
``go`` sets (``dsq serve``) and, for bots the referee can run inside its compiled game
loop, their kernel kind.

Adding a bot kind is one :class:`BotKind` entry in :data:`KINDS` (or :func:`register`)
and its player class, named here as ``"module:Class"`` and imported only when a bot of
that kind is built, so parsing specs never loads numba.

A kind may also carry a ``fill`` rule: parameters whose value depends on which others the
spec gave. The searching bots use one (:func:`budget_lifts_cap`): a time or node budget
given without a depth (playouts) lifts the default cap to its maximum, so the budget
decides when to stop. The filled value is written into the canonical spec, which
therefore still names exactly the player.

The ``mcts`` bot's search parameters (:data:`MCTS_SEARCH`: exploration, rollouts, how a
leaf is scored, the progressive bias and the minimax blend) are here with the others.
``leaf``, ``leaf_depth``, ``bias`` and ``minimax`` came after games were stored: their
``legacy`` values are the bot before them, which a spec of the classic evaluation that
does not name them plays.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.errors import DsqError
from sim.bots.params import EVAL, VALUES, Param, fill_eval
from sim.core.timecontrol import parse_tc

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

Fill = Callable[[dict[str, Any], frozenset[str]], None]
"""``fill(values, given)``: complete a parsed spec's ``values`` (every parameter, defaults
filled in) in place, knowing the names of the parameters the spec text ``given``."""


Cost = Callable[[dict[str, Any]], float]
"""``cost(params)``: rough seconds one move of a bot with these parameters takes on one
core (measured with ``benchmarks/bench_bots.py`` and ``dsq bench``)."""

UNKNOWN_MOVE_S = 0.1  # the cost of a move of a kind that declares none


@dataclass(frozen=True)
class GoLimits:
    """The attributes of a built bot that the limits of a protocol ``go`` set (``dsq
    engine``): ``depth`` (plies), ``nodes`` and ``time`` (ms for this move); None where the
    kind has no such limit (the ``go`` limit is then ignored)."""

    depth: str | None = None
    nodes: str | None = None
    time: str | None = None

    def attrs(self) -> dict[str, str]:
        """``{limit: attribute}`` of the limits the kind has."""
        named = {"depth": self.depth, "nodes": self.nodes, "time": self.time}
        return {k: v for k, v in named.items() if v is not None}


@dataclass(frozen=True)
class BotKind:
    """One kind of bot.

    ``player`` names the class built for a spec (``"module:Class"``, constructed as
    ``Class(spec, ruleset, rng)``); ``fast_kind`` is the kernel kind of a bot that
    ``sim.bots.fast`` plays in compiled code, else None; ``fill`` completes the values of
    parameters that depend on which others a spec gives (see :data:`Fill`), else None.
    ``spec_module`` names a module whose ``parse_body(text, body)``, ``canonical(params)``
    and ``short(params)`` read and write the specs of a kind that does not fit
    ``key=value`` parameters alone (``engine``). ``cost`` estimates the seconds of a move
    (see :data:`Cost`; None: :data:`UNKNOWN_MOVE_S`); ``limits`` names what a protocol
    ``go`` sets (:class:`GoLimits`); ``external`` marks a kind whose moves come from
    another program (``dsq serve`` serves only dsq's own bots); ``seeded`` a kind whose
    every random choice comes from the referee's seeded generator, so that its games
    replay from their seeds (``--record outcomes`` stores no moves for them).
    """

    name: str
    help: str
    params: tuple[Param, ...]
    player: str
    fast_kind: int | None = None
    spec_module: str | None = None
    fill: Fill | None = None
    cost: Cost | None = None
    limits: GoLimits = GoLimits()
    external: bool = False
    seeded: bool = False

    def move_seconds(self, params: dict[str, Any]) -> float:
        """Rough seconds one move of a bot of this kind with ``params`` takes on one core."""
        return self.cost(params) if self.cost is not None else UNKNOWN_MOVE_S


def budget_lifts_cap(cap: Param, budgets: tuple[str, ...]) -> Fill:
    """A :data:`Fill` rule: when a spec sets one of ``budgets`` above 0 but does not give
    ``cap``, ``cap`` takes its maximum (an explicit ``cap`` still caps)."""

    def fill(values: dict[str, Any], given: frozenset[str]) -> None:
        if cap.name not in given and any(values[b] for b in budgets):
            values[cap.name] = int(cap.high)

    return fill


def both(*rules: Fill) -> Fill:
    """A :data:`Fill` rule applying ``rules`` in turn."""

    def fill(values: dict[str, Any], given: frozenset[str]) -> None:
        for rule in rules:
            rule(values, given)

    return fill


def constant_cost(seconds: float) -> Cost:
    """A :data:`Cost` that does not depend on the parameters."""
    return lambda params: seconds


def _within_time(seconds: float, params: dict[str, Any]) -> float:
    """``seconds``, or the spec's ``time_ms`` budget when that is smaller."""
    budget = params.get("time_ms") or 0
    return min(seconds, budget / 1000.0) if budget else seconds


ALPHABETA_NODE_S = 1 / 7.0e6  # nodes/s; a depth-d search visits about 6**d nodes
MCTS_PLY_S = 1 / 9.6e6  # rollout plies/s (480,000 playouts/s of 20 plies)
MCTS_SETTLE_S = 2.5e-6  # a leaf's quiescence search and the children's priors, seconds
ENGINE_UNTIMED_MOVE_S = 1.0  # an external engine limited by depth or nodes only: a guess


def alphabeta_cost(params: dict[str, Any]) -> float:
    """A search of ``6**depth`` nodes (at most ``nodes``), within its time budget."""
    nodes = min(6.0 ** params["depth"], params["nodes"] or float("inf"))
    return _within_time(nodes * ALPHABETA_NODE_S, params)


def mcts_cost(params: dict[str, Any]) -> float:
    """``playouts`` rollouts of ``rollout_plies`` plies (and the two of the tree) and leaf
    settles, within its time budget."""
    cost = params["playouts"] * (params["rollout_plies"] + 2) * MCTS_PLY_S
    if params["leaf"] == "qsearch":  # each full ply about doubles the settle's work
        cost += params["playouts"] * MCTS_SETTLE_S * 2 ** params["leaf_depth"]
    return _within_time(cost, params)


def engine_cost(params: dict[str, Any]) -> float:
    """An external engine's time per move, or its clock shared over 40 moves."""
    if params["movetime"]:
        return params["movetime"] / 1000.0
    if params["tc"]:
        tc = parse_tc(params["tc"])
        return (tc.base_ms / (tc.moves or 40) + tc.inc_ms) / 1000.0
    return ENGINE_UNTIMED_MOVE_S


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
