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
untimed); otherwise the referee asks each bot for its move ply by ply, timing each answer:
a side over its time budget or the rules' time rules (``move_time``, ``game_time``) loses
on ``time``, an external engine's fault by ``forfeit`` (:mod:`sim.external`). A game
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
from engine.codes import ANIMAL_NAMES, H_CAPTURED, H_PIECE, Reason, Status
from engine.errors import DsqError, MoveError
from engine.fen import parse_fen
from engine.position import decode_move
from engine.rng import GOLDEN, MASK64, mix64, rng_below, seed_word
from engine.rules import Ruleset, parse_rules
from sim.bots import fast
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.piece_values import values_array
from sim.bots.protocol import make_bot, warm_up
from sim.bots.registry import fast_kinds
from sim.bots.scores import mover_score, red_view
from sim.bots.spec import DEFAULT_VALUES, BotSpec, parse_bot
from sim.core.adjudication import ScoreAdjudicator, score_adjudicator
from sim.external.clocks import GameClocks
from sim.external.process import EngineFault

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
        packed = _play_stepwise(
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


def _play_stepwise(
    st: np.ndarray,
    ruleset: Ruleset,
    ra: np.ndarray,
    specs: tuple[BotSpec, BotSpec],
    rngs: np.ndarray,
    opening_plies: int,
    ply_cap: int,
    adj: Any = None,
    extras: dict[str, Any] | None = None,
    context: BotContext = DEFAULT_CONTEXT,
    forced: np.ndarray | None = None,
    scorer: ScoreAdjudicator | None = None,
) -> np.ndarray:
    """The game loop asking each bot for its move; returns what ``fast.fast_game`` does,
    and fills ``extras`` (if given) with the clock, forfeit, engine and score columns. The
    first moves are ``forced`` (an opening suite's line), the next ``opening_plies`` random.

    ``adj`` (a :class:`sim.tablebase.adjudicate.Adjudicator`, optional) may end the game
    at any position where it goes on, before a move is chosen there; so may ``scorer``
    after a ply its rules settle (the rules' end of the game first). Each move's wall time
    is measured around the bot's answer: a side whose move overruns its time budget loses
    on ``time``; an external engine's fault (it cannot start, an illegal move, ``0000``,
    garbage, a crash, silence) loses by ``forfeit``.
    """

    for spec in specs:  # loading is never thinking time: before any clock starts
        warm_up(spec, ruleset, context)
    bots = [
        make_bot(specs[0], ruleset, rngs[1:2], context),
        make_bot(specs[1], ruleset, rngs[2:3], context),
    ]
    clocks = GameClocks.for_specs(specs, ruleset)
    timed = any(c.limited for c in clocks.sides) or any(getattr(b, "external", False) for b in bots)
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    moves = np.empty(ply_cap, dtype=np.int32)
    move_ms: list[int] = []
    scores: list[float | None] = []  # Red's view of each ply's search score (None: none)
    plies = branch = 0
    n_forced = 0 if forced is None else len(forced)
    loss: tuple[int, Reason, str] | None = None  # (side, reason, note) of a forfeit
    try:
        faults = start_engines(bots, clocks)
        while plies < ply_cap:
            n = int(core.settle(st, ra, buf))
            if n == 0 or _judged(adj, scorer, st):
                break
            branch += n
            ms, score, side = 0.0, None, int(st[core.S_SIDE])
            if plies < n_forced:
                mv = int(forced[plies])  # type: ignore[index]
            elif plies < n_forced + opening_plies:
                mv = int(buf[rng_below(rngs[0:1], n)])
            else:
                if (fault_note := faults[side]) is not None:
                    loss = (side, Reason.FORFEIT, fault_note)
                    break
                t0 = time.perf_counter()
                try:
                    mv = bots[side].choose(st)
                except EngineFault as fault:
                    loss = (side, Reason.FORFEIT, fault.note)
                    break
                ms = (time.perf_counter() - t0) * 1000.0
                if (late := clocks.judge(side, ms)) is not None:  # its spec's and the rules'
                    loss = (side, Reason.TIME, late)
                    break
                if mv not in buf[:n]:
                    raise MoveError(
                        f"bot {specs[side].canonical} chose an illegal move {decode_move(mv)}"
                    )
                score = red_view(mover_score(bots[side]), side)
            moves[plies] = mv
            move_ms.append(min(round(ms), 2**32 - 1))
            scores.append(score)
            core.make_move(st, ra, mv)
            plies += 1
            if scorer is not None:  # the mover's own score; whether the ply captured
                took = bool(st[core.HEADER + (plies - 1) * core.HIST_SIZE + H_CAPTURED])
                scorer.update(plies, side, red_view(score, side), took)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    if plies == ply_cap and loss is None and core.settle(st, ra, buf) > 0:
        _judged(adj, scorer, st)
    last = int(st[core.HEADER + (plies - 1) * core.HIST_SIZE + H_PIECE]) if plies else 0
    status, reason = int(st[core.S_STATUS]), int(st[core.S_REASON])
    if loss is not None:
        status, reason = int(Status.won_by(1 - loss[0])), int(loss[1])
    summary = [plies, branch, status, reason, st[core.S_COUNT], st[core.S_COUNT + 1], last]
    caps = fast.capture_table(st, plies).ravel()
    packed = np.concatenate(
        (np.array(summary, dtype=np.int64), moves[:plies].astype(np.int64), caps)
    )
    if extras is not None:
        timed = timed or (loss is not None and loss[1] == Reason.TIME)
        extras.update({
            "forfeit_note": loss[2] if loss is not None else None,
            "time_control": clocks.text if timed else None,
            "move_ms": move_ms if timed else None,
            "red_clock_ms": clocks.remaining(0) if timed else None,
            "blue_clock_ms": clocks.remaining(1) if timed else None,
            "red_engine": getattr(bots[0], "identity", None),
            "blue_engine": getattr(bots[1], "identity", None),
            "scores": scores if any(s is not None for s in scores) else None,
        })  # fmt: skip
    return packed


def start_engines(bots: list[Any], clocks: GameClocks) -> list[str | None]:
    """Start the external engines of a game on its clocks (other players, and None for a
    person, are left alone); the forfeit note of each that cannot start."""
    faults: list[str | None] = [None, None]
    for side, bot in enumerate(bots):
        if getattr(bot, "external", False):
            bot.clocks = clocks
            try:
                bot.start()
            except EngineFault as fault:
                faults[side] = fault.note
    return faults


def _judged(adj: Any, scorer: ScoreAdjudicator | None, st: np.ndarray) -> bool:
    """Whether the tables (``adj``) or the scores (``scorer``) end the game at this position
    the rules leave going on (then recorded in ``st``)."""
    status = adj.status(st) if adj is not None else None
    found = (status, Reason.TABLEBASE) if status is not None else scorer and scorer.result
    if not found:
        return False
    st[core.S_STATUS], st[core.S_REASON] = found
    return True


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
