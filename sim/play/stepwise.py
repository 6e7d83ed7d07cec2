"""The referee's stepwise game loop (:mod:`sim.play.referee` plays the compiled one): each
bot is asked for its move ply by ply and each answer is timed; a side over its time budget
or the rules' time rules loses on ``time``, an external engine's fault by ``forfeit``; the
tables and the players' search scores may end the game at a position the rules leave
going on.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from engine import core
from engine.codes import H_CAPTURED, H_PIECE, Reason, Status
from engine.errors import MoveError
from engine.position import decode_move
from engine.rng import rng_below
from engine.rules import Ruleset
from sim.bots import fast
from sim.bots.context import DEFAULT_CONTEXT, BotContext
from sim.bots.protocol import make_bot, warm_up
from sim.bots.scores import mover_score, red_view
from sim.bots.spec import BotSpec
from sim.core.adjudication import ScoreAdjudicator
from sim.external.clocks import GameClocks
from sim.external.process import EngineFault


def play_stepwise(
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
