"""The bot protocol: a bot built from a spec, a rule set and a generator chooses moves.

``make_bot(spec, rules, rng, context)`` returns an object with ``choose(st) -> int`` (a legal move
``from * 64 + to`` of the side to move in the kernel state ``st``, which it leaves as it
found it), ``info`` (what the last search saw: depth, score, nodes, pv, time) and
``spec``. Every bot draws randomness only from ``rng`` (a ``engine.rng.seed_state`` array)
and reads tables and engines only through its ``context`` (:mod:`sim.bots.context`).
The class that plays each kind is named in :mod:`sim.bots.registry`, constructed as
``Class(spec, ruleset, rng, context)``.

``warm_up(spec, rules, context)`` loads the compiled code a bot of that kind plays with
before any clock starts, so loading (or compiling, with a cold numba cache) is never
thinking time.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from engine.errors import DsqError
from engine.position import Position
from engine.rng import seed_state
from engine.rules import Ruleset, parse_rules
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.registry import KINDS, player_class
from sim.bots.spec import BotSpec, parse_bot

# Parameters that keep a warm-up search tiny while it runs every kernel a real search runs,
# budget checks and clock reads included (a time budget far beyond what it takes).
WARM_PARAMS: dict[str, dict[str, Any]] = {
    "alphabeta": {"depth": 4, "time_ms": 600_000, "nodes": 10**9, "tt_mb": 1},
    "mcts": {"playouts": 129, "time_ms": 600_000},
}
# Three animals: a position the endgame tables cover, so their probes load too.
ENDGAME_FEN = "7/7/7/7/7/7/2r4/2L4/5e1 b 0 1"
_warmed: set[tuple[str, str]] = set()
_warm_lock = threading.Lock()


class Bot(Protocol):
    """What the referee and the CLI need from a bot."""

    spec: BotSpec
    info: dict[str, Any]

    def choose(self, st: np.ndarray) -> int:
        """A legal move of the side to move in ``st`` (``st`` is left unchanged)."""
        ...


def make_bot(
    spec: str | BotSpec,
    rules: Ruleset | str | None,
    rng: np.ndarray,
    context: BotContext = DEFAULT_CONTEXT,
) -> Bot:
    """A bot for ``spec`` under ``rules`` drawing from ``rng``, reading the tables and
    engines of ``context`` (default: the default data folder's and registry)."""
    bot_spec = parse_bot(spec)
    return player_class(bot_spec.name)(bot_spec, parse_rules(rules), rng, context)


def warm_up(
    spec: str | BotSpec,
    rules: Ruleset | str | None = None,
    context: BotContext = DEFAULT_CONTEXT,
) -> float:
    """Load every compiled kernel a bot of ``spec`` plays with (move generation, search,
    evaluation, MCTS, clock reads and, with ``tablebase=on``, the table probes): throwaway
    bots of the same kind make tiny searches. Once per kind and process; nothing for an
    external engine (its own process loads before ``readyok``). The tables read are
    ``context``'s. Returns the seconds taken."""
    bot_spec = parse_bot(spec)
    kind = KINDS[bot_spec.name]
    if kind.spec_module is not None:
        return 0.0
    key = (bot_spec.name, str(bot_spec.params.get("tablebase", "")))
    t0 = time.perf_counter()
    with _warm_lock:
        if key in _warmed:
            return 0.0
        ruleset = parse_rules(rules)
        params = {**bot_spec.params, **WARM_PARAMS.get(bot_spec.name, {})}
        small = BotSpec(bot_spec.name, {k: v for k, v in params.items() if k in bot_spec.params})
        positions = [Position(ruleset)]
        if key[1] == "on":
            try:
                positions.append(Position(ruleset, ENDGAME_FEN))
            except DsqError:  # a rule set whose board does not take it
                pass
        for pos in positions:
            player_class(small.name)(small, ruleset, seed_state(0), context).choose(pos.st)
        if key[1] == "on":
            _load_tables(ruleset, context.tables_root())
        _warmed.add(key)
    return time.perf_counter() - t0


def _load_tables(rules: Ruleset, root: Path) -> None:
    """Read the endgame tables on disk for ``rules`` into the process's cache, as many as
    it keeps, so that a game reaching one does not read its file during a move."""
    # lazy: only a bot with tablebase=on reads tables; others never load that package
    from sim.tablebase.store import TableError, cache_for, rules_key

    cache, key = cache_for(root), rules_key(rules)
    room = cache.max_bytes
    for material in cache.materials(key):
        room -= material.size
        if room < 0:
            break
        try:
            cache.get(key, material)
        except TableError:  # a damaged file: the advisor does without it, as in a game
            continue
