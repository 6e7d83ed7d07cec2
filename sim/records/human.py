"""Recording a game a person played (the dashboard's Play page) like any other game.

The person's side is stored as the player spec ``human``
(:data:`sim.bots.spec.HUMAN`); statistics leave such games out unless asked. A game may
begin at a set-up position (stored in ``start_fen``) and may end by the rules or be
stopped (:class:`Stop`): the person resigns (reason ``resign``, the bot wins) or leaves the
game (``abandoned``, the bot wins), the bot, an external engine, faults (reason
``forfeit`` with the fault in ``forfeit_note``, as the referee records it), either side
loses on time (``time``), or the two agree to a draw (``agreed_draw``, where the rules
allow it).

:func:`human_game_row` replays the moves through the engine and derives every column from
that replay, with the same meanings as :func:`sim.play.referee.play_game`'s records;
:func:`save_human_game` writes the row as a one-game batch (a parquet file and a batch
record), so the game appears beside the simulated ones and can be replayed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import Result, parse_rules
from engine import __version__ as ENGINE_VERSION
from engine.codes import Reason
from engine.errors import DsqError
from sim.bots.spec import HUMAN
from sim.records.rowreplay import replay_columns
from sim.storage.records import hostname, now_iso, write_batch_record
from sim.storage.schema import SCHEMA_VERSION
from sim.storage.writing import write_games_chunk

__all__ = [
    "HUMAN",
    "RecordError",
    "Stop",
    "done_record",
    "human_game_row",
    "new_play_batch_id",
    "save_human_game",
]

LABEL = "human game"


class RecordError(DsqError):
    """A game that cannot be recorded; ``why`` says which rule of recording it breaks
    (``unfinished``: neither ended by the rules nor stopped; ``no_human``: nobody is
    ``human``; ``stop``: a stop that does not fit the game)."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


@dataclass(frozen=True)
class Stop:
    """How a game that the rules did not end was stopped: ``loser`` (``red``/``blue``)
    lost by ``reason``: ``resign`` (the person gave up), ``abandoned`` (the person left),
    ``forfeit`` (the bot, an external engine, faulted; ``note`` is the referee's forfeit
    note, ``kind: message``) or ``time`` (a move went over its time limit or the rules'
    time rules; ``note`` says by how much); or ``agreed_draw`` (a draw the person offered
    and the bot accepted; ``loser`` is the side that offered it, and nobody loses)."""

    loser: str
    reason: str
    note: str | None = None


RESIGN, FORFEIT, TIME = Reason.RESIGN.label, Reason.FORFEIT.label, Reason.TIME.label
ABANDONED, AGREED_DRAW = Reason.ABANDONED.label, Reason.AGREED_DRAW.label
STOP_REASONS = (RESIGN, FORFEIT, TIME, ABANDONED, AGREED_DRAW)
PERSON_STOPS = (RESIGN, ABANDONED, AGREED_DRAW)  # what only the person does


def _check_stop(stop: Stop, red: str, blue: str) -> None:
    """RecordError unless ``stop`` fits the players: the person resigns, leaves or offers
    the draw, the bot forfeits, either loses on time."""
    if stop.reason not in STOP_REASONS or stop.loser not in ("red", "blue"):
        raise RecordError("stop", f"a recorded game cannot be stopped by {stop.reason!r}")
    if stop.reason == TIME:
        return
    loser_is_human = (red if stop.loser == "red" else blue) == HUMAN
    if loser_is_human != (stop.reason in PERSON_STOPS):
        who = "the person" if stop.reason in PERSON_STOPS else "the bot"
        raise RecordError("stop", f"only {who} can stop a recorded game by {stop.reason}")


def human_game_row(
    rules: str,
    red: str,
    blue: str,
    moves: Sequence[str],
    seed: int = 0,
    duration_ms: float = 0.0,
    batch_id: str = "",
    game_index: int = 0,
    *,
    start_fen: str | None = None,
    stop: Stop | None = None,
    engine: dict[str, Any] | None = None,
    clocks: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The GAME_SCHEMA row of a game, its moves replayed through the engine.

    ``red`` / ``blue`` are ``human`` or a bot spec (stored as given); ``seed`` is the seed
    the bot drew its moves from; ``moves`` are written like ``a3a4`` and played from
    ``start_fen`` (None or the initial position's FEN: the initial position, stored as
    null). ``stop`` records a game the rules did not end (a resignation, an engine's
    forfeit, ...); ``engine`` is the identity of the external engine the bot was, if it
    was one; ``clocks`` the columns ``time_control``, ``move_ms``, ``red_clock_ms`` and
    ``blue_clock_ms`` of a timed game (null without).
    Raises :class:`RecordError` when no side is ``human``, the game neither ended by the
    rules nor was stopped, or it was stopped after its end; the engine's DsqError when
    the FEN or a move is not valid.
    """
    if HUMAN not in (red, blue):
        raise RecordError("no_human", "a recorded human game has a player named 'human'")
    if stop is not None:
        _check_stop(stop, red, blue)
    ruleset = parse_rules(rules)
    replayed = replay_columns(ruleset, moves, start_fen)
    result = replayed.position.result
    if stop is not None:
        if result is not None:
            raise RecordError("stop", f"the game had ended by the rules ({result.reason})")
        if stop.reason == AGREED_DRAW and not ruleset.draw_by_agreement:
            raise RecordError("stop", f"{ruleset.spec} has no draw by agreement")
        winner = "draw" if stop.reason == AGREED_DRAW else "blue" if stop.loser == "red" else "red"
        result = Result(winner, stop.reason)
    elif result is None:
        raise RecordError(
            "unfinished",
            "only a game that ended by the rules, a resignation or a forfeit can be recorded",
        )
    plies = len(moves)
    return {
        "schema_version": SCHEMA_VERSION,
        "batch_id": batch_id,
        "game_index": game_index,
        "pair_id": game_index,
        "seed": int(seed),
        "rules": ruleset.spec,
        "red": red,
        "blue": blue,
        "opening_plies": 0,
        "ply_cap": max(plies, 1),
        "winner": result.winner,
        "reason": result.reason,
        **replayed.columns,
        "engine_version": ENGINE_VERSION,
        "duration_ms": float(duration_ms),
        "forfeit_note": stop.note if stop is not None and stop.reason in (FORFEIT, TIME) else None,
        **dict.fromkeys(("time_control", "move_ms", "red_clock_ms", "blue_clock_ms")),
        **(clocks or {}),
        "red_engine": engine if engine is not None and blue == HUMAN else None,
        "blue_engine": engine if engine is not None and red == HUMAN else None,
        "start_fen": replayed.start_fen,
        "scores": None,  # a person reports no search score (nor, here, the bot)
    }


def new_play_batch_id() -> str:
    """A fresh batch id for a recorded human game: ``play-<UTC time>-<6 hex>``."""
    return "play-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def save_human_game(data_dir: str | os.PathLike[str], row: dict[str, Any]) -> str:
    """Write a :func:`human_game_row` as a one-game batch in ``data_dir``; its batch id.

    The parquet file is written first (atomically), then the batch record, so readers
    never see a record without its game.
    """
    data_dir = Path(data_dir)
    batch_id = new_play_batch_id()
    row = {**row, "batch_id": batch_id, "game_index": 0, "pair_id": 0}
    write_games_chunk(data_dir, batch_id, [row])
    counts = {"red": 0, "blue": 0, "draw": 0}
    counts[row["winner"]] += 1
    spec = {
        "rules": row["rules"],
        "red": row["red"],
        "blue": row["blue"],
        "games": 1,
        "seed": row["seed"],
        "swap": False,
        "opening_plies": 0,
        "ply_cap": row["ply_cap"],
    }
    record = done_record(batch_id, spec, counts, 1, row["engine_version"], LABEL)
    write_batch_record(data_dir, record)
    return batch_id


def done_record(
    batch_id: str,
    spec: dict[str, Any],
    counts: dict[str, int],
    games: int,
    engine_version: str,
    label: str,
    **extra: Any,
) -> dict[str, Any]:
    """The record of a batch whose ``games`` games were all recorded at once (a person's
    game, imported games): done, created, started and finished now, by this process."""
    now = now_iso()
    return {
        "batch_id": batch_id,
        "group": batch_id,
        "label": label,
        "spec": spec,
        "status": "done",
        "games_planned": games,
        "games_done": games,
        "counts": counts,
        "created_at": now,
        "started_at": now,
        "finished_at": now,
        "host": hostname(),
        "pid": os.getpid(),
        "engine_version": engine_version,
        "schema_version": SCHEMA_VERSION,
        "error": None,
        **extra,
    }
