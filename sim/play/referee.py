"""The referee: one game between two bot specs, recorded as a GAME_SCHEMA row (a dict).

Generators (all :func:`engine.rng.seed_state` xorshift states):

- the opening (the first ``opening_plies`` plies, uniform among the legal moves) draws
  from ``seed_state(opening_seed)``, ``opening_seed`` defaulting to ``seed``, so the two
  games of a colour-swapped pair given the same ``opening_seed`` share their opening;
- Red's bot draws from ``seed_state(bot_seed(seed, 0))`` and Blue's from
  ``seed_state(bot_seed(seed, 1))``, where :func:`bot_seed` mixes the game seed with the
  colour through splitmix64.

Same arguments, same game. When both bots are ``random`` or ``greedy`` the whole game
runs in one compiled loop (:func:`sim.bots.fast.play_fast`; its moves take microseconds,
untimed); otherwise the referee asks each bot for its move ply by ply
(:mod:`sim.play.stepwise`), timing each answer: a side over its time budget or the rules'
time rules (``move_time``, ``game_time``) loses on ``time``, an external engine's fault
by ``forfeit`` (:mod:`sim.external`). A game
decided on time is not reproducible (move times are recorded for a side its spec times, an
engine, or a game the rules' clock ended). Each ply a searching bot chose records its
search score in Red's view (``scores``, :mod:`sim.bots.scores`); fast bots have none.

With ``adjudicate="tablebase"`` a game ends at its first position where an endgame table
settles the result for certain (:mod:`sim.tablebase.adjudicate`), recorded with reason
``tablebase``; the compiled loop's games are cut at that same position afterwards. With
``resign``/``draw`` rules (:mod:`sim.core.adjudication`) the players' search scores may end
a game (``adjudicated_resign``, ``adjudicated_draw``); the compiled loop's bots have none.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import core
from engine.codes import ANIMAL_NAMES, Reason, Status
from engine.errors import DsqError
from engine.fen import parse_fen
from engine.position import decode_move
from engine.rng import GOLDEN, MASK64, mix64, seed_word
from engine.rules import Ruleset, parse_rules
from sim.bots import fast
from sim.bots.context import BotContext
from sim.bots.piece_values import values_array
from sim.bots.registry import fast_kinds
from sim.bots.spec import DEFAULT_VALUES, BotSpec, parse_bot
from sim.core.adjudication import score_adjudicator
from sim.play.stepwise import play_stepwise

if TYPE_CHECKING:
    from sim.external.registry import EngineRegistry
    from sim.tablebase.adjudicate import Adjudicator

# The columns of clocks, forfeits and engines, the start position and the search scores
# (``OPTIONAL_COLUMNS`` of the storage schema, which a test checks): None for a game without
# them (the referee's games begin at the initial position; fast bots report no scores).
NO_EXTRAS = dict.fromkeys(
    ("forfeit_note", "time_control", "move_ms", "red_clock_ms", "blue_clock_ms")
    + ("red_engine", "blue_engine", "start_fen", "scores")
)
_FAST_KINDS = fast_kinds()
_KINDS: dict[tuple[int, int], np.ndarray] = {}


def bot_seed(seed: int, side: int) -> int:
    """The seed of ``side``'s bot (0 Red, 1 Blue) in the game of seed ``seed``."""
    return mix64((int(seed) * 2 + 1 + side * GOLDEN) & MASK64)


@lru_cache(maxsize=64)
def _rules(rules: Ruleset | str) -> tuple[str, Ruleset, np.ndarray, np.ndarray, np.ndarray]:
    ruleset = parse_rules(rules)
    ra = ruleset.as_array()
    values = values_array(DEFAULT_VALUES, ruleset)
    return ruleset.spec, ruleset, ra, parse_fen("start", ra, 1), values


@lru_cache(maxsize=256)
def _bot(spec: str) -> BotSpec:
    return parse_bot(spec)


def outcome(status: int, reason: int) -> tuple[str, str]:
    """The stored ``(winner, reason)`` of a game that stopped with the kernel's ``status``
    and ``reason`` codes; a game stopped while ongoing reached the ply cap: a draw by
    ``ply_cap``."""
    if status == Status.ONGOING:
        return Status.DRAWN.winner, Reason.PLY_CAP.label
    return Status(status).winner, Reason(reason).label


def _check_int(name: str, value: object, low: int) -> int:
    if type(value) is int and value >= low:
        return value
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise DsqError(f"{name} must be a whole number >= {low}, not {value!r}")
    return int(value)


def play_game(
    rules: Ruleset | str,
    red: str,
    blue: str,
    seed: int,
    opening_plies: int = 0,
    ply_cap: int = 1000,
    opening_seed: int | None = None,
    fen: str | None = None,
    adjudicate: str = "none",
    tables: str | None = None,
    engines: EngineRegistry | None = None,
    opening_moves: Sequence[int] = (),
    resign: str = "none",
    draw: str = "none",
) -> dict[str, Any]:
    """Play one game and return its record (the per-game columns of GAME_SCHEMA).

    ``fen`` (optional, not stored in the record) starts from another position.
    ``opening_moves`` (move codes, legal there: an opening suite's line, checked when the
    suite was read) are the game's first moves, before the ``opening_plies`` random ones;
    the record's ``opening_plies`` counts both, its ``moves`` begin with them.
    ``adjudicate`` is ``none`` or ``tablebase`` (end the game by the tables in ``tables``,
    default the data folder's); bots that probe tables read ``tables`` too, and engine bots
    start from ``engines`` (default: the default registry). ``resign``/``draw``: the score
    adjudication (:mod:`sim.core.adjudication`; random and greedy report no scores). Raises
    DsqError on a bad rules spec, bot spec, number or rule.
    """
    t0 = time.perf_counter()
    key = rules if isinstance(rules, Ruleset) else str(rules)
    rules_spec, ruleset, ra, start, values = _rules(key)
    red_spec, blue_spec = _bot(str(red)), _bot(str(blue))
    seed = _check_int("seed", seed, -(2**63))
    opening_plies = _check_int("opening_plies", opening_plies, 0)
    ply_cap = _check_int("ply_cap", ply_cap, 1)
    oseed = seed if opening_seed is None else _check_int("opening_seed", opening_seed, -(2**63))
    if fen is not None:
        start = parse_fen(fen, ra, 1)
    forced = np.array(opening_moves, dtype=np.int32)
    # The opening's, Red's and Blue's generator words (each exactly ``seed_state(...)``).
    rngs = np.array(
        [seed_word(oseed), seed_word(bot_seed(seed, 0)), seed_word(bot_seed(seed, 1))],
        dtype=np.uint64,
    )
    opening = len(forced) + opening_plies  # plies not chosen by the bots
    adj = _adjudicator(ruleset, adjudicate, tables)
    scorer = score_adjudicator(resign, draw)
    kinds = _fast_kinds(red_spec.name, blue_spec.name)
    if kinds is not None:
        packed = fast.fast_game(start, ra, kinds, values, rngs, forced, opening_plies, ply_cap)
        if adj is not None:
            packed = _cut_packed(start, ra, adj, packed)
    else:
        st = core.new_state(ply_cap + 1)
        st[: start.shape[0]] = start
        extras: dict[str, Any] = {}
        context = BotContext.of(tables, engines)
        packed = play_stepwise(
            st,
            ruleset,
            ra,
            (red_spec, blue_spec),
            rngs,
            opening_plies,
            ply_cap,
            adj,
            extras,
            context,
            forced,
            scorer,
        )
        record = _record(packed, rules_spec, red_spec, blue_spec, opening, ply_cap, t0)
        return {**record, **extras}
    return _record(packed, rules_spec, red_spec, blue_spec, opening, ply_cap, t0)


def _adjudicator(ruleset: Ruleset, adjudicate: str, tables: str | None) -> Any:
    """The tables' adjudicator of a game, or None (``adjudicate="none"``)."""
    if adjudicate == "none":
        return None
    # lazy: start-up time (numba kernels)
    from sim.tablebase.adjudicate import adjudicator, check_mode

    check_mode(adjudicate)
    return adjudicator(ruleset, tables)


def _fast_kinds(red: str, blue: str) -> np.ndarray | None:
    """The kernel kinds of two fast bots, or None when one of them is not fast."""
    if red in _FAST_KINDS and blue in _FAST_KINDS:
        key = (_FAST_KINDS[red], _FAST_KINDS[blue])
        kinds = _KINDS.get(key)
        if kinds is None:
            kinds = _KINDS[key] = np.array(key, dtype=np.int32)
        return kinds
    return None


def _record(
    packed: np.ndarray,
    rules_spec: str,
    red: BotSpec,
    blue: BotSpec,
    opening_plies: int,
    ply_cap: int,
    t0: float,
) -> dict[str, Any]:
    """The game record from the packed kernel output (see ``fast.fast_game``)."""
    data = packed.tolist()
    plies, branch, status, reason_code, red_left, blue_left, last = data[: fast.SUMMARY_SIZE]
    winner, reason = outcome(status, reason_code)
    k = fast.SUMMARY_SIZE + plies
    captures = [
        {"ply": i, "capturer": a, "captured": d, "square": q}
        for i, a, d, q in zip(
            data[k::4], data[k + 1 :: 4], data[k + 2 :: 4], data[k + 3 :: 4], strict=True
        )
    ]
    red_caps = sum(1 for c in data[k + 1 :: 4] if c <= 8)
    return {
        "rules": rules_spec,
        "red": red.canonical,
        "blue": blue.canonical,
        "opening_plies": opening_plies,
        "ply_cap": ply_cap,
        "winner": winner,
        "reason": reason,
        "plies": plies,
        "red_captures": red_caps,
        "blue_captures": len(captures) - red_caps,
        "red_pieces_left": red_left,
        "blue_pieces_left": blue_left,
        "den_animal": ANIMAL_NAMES[(last - 1) % 8] if reason == Reason.DEN.label else None,
        "branching": branch / plies if plies else 0.0,
        "moves": data[fast.SUMMARY_SIZE : k],
        "captures": captures,
        "duration_ms": (time.perf_counter() - t0) * 1000.0,
        **NO_EXTRAS,
    }


def game_moves(record: dict[str, Any]) -> list[str]:
    """The moves of a game record decoded as ``a3a4`` strings."""
    return [decode_move(int(m)) for m in record["moves"]]


def _cut_packed(
    start: np.ndarray, rules: np.ndarray, adj: Adjudicator, packed: np.ndarray
) -> np.ndarray:
    """:func:`sim.tablebase.adjudicate.cut_games` for the one game packed by
    :func:`sim.bots.fast.fast_game`."""
    # lazy: start-up time (the tables' kernels, compiled only when games are adjudicated)
    from sim.tablebase.adjudicate import cut_games

    SUMMARY_SIZE = fast.SUMMARY_SIZE
    plies = int(packed[0])
    summary = packed[None, :SUMMARY_SIZE].copy()
    moves = packed[SUMMARY_SIZE : SUMMARY_SIZE + plies]
    caps = packed[SUMMARY_SIZE + plies :].reshape(-1, 4)
    summary, moves, _, caps, _ = cut_games(
        start,
        rules,
        adj,
        summary,
        moves,
        np.array([0, plies], dtype=np.int64),
        caps,
        np.array([0, caps.shape[0]], dtype=np.int64),
    )
    return np.concatenate((summary[0], moves.astype(np.int64), caps.ravel().astype(np.int64)))
