"""Recording a game a person played (the dashboard's Play page) like any other game.

The person's side is stored as the player spec ``human``
(:data:`sim.stats.query.HUMAN`); statistics leave such games out unless asked. A record
holds moves from the initial position only (the schema has no starting position), so a
game set up from another FEN cannot be recorded, and neither can one that did not end by
the rules (a resignation has no end reason in the schema).

:func:`human_game_row` replays the moves through the engine and derives every column from
that replay, with the same meanings as :func:`sim.play.referee.play_game`'s records;
:func:`save_human_game` writes the row as a one-game batch (a parquet file and a batch
record), so the game appears beside the simulated ones and can be replayed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import Position, encode_move, parse_rules
from engine.errors import DsqError
from sim.stats.query import HUMAN
from sim.storage.records import hostname, now_iso, write_batch_record
from sim.storage.schema import ANIMALS, SCHEMA_VERSION
from sim.storage.writing import write_games_chunk

__all__ = ["HUMAN", "RecordError", "human_game_row", "new_play_batch_id", "save_human_game"]

LABEL = "human game"
_LETTERS = "RCDWPTLE"


class RecordError(DsqError):
    """A game that cannot be recorded; ``why`` says which rule of recording it breaks
    (``unfinished``: not ended by the rules; ``no_human``: nobody is ``human``)."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


def _code(letter: str) -> int:
    """The piece code of a FEN letter: 1..8 Red rat..elephant, 9..16 Blue."""
    return _LETTERS.index(letter.upper()) + 1 + (8 if letter.islower() else 0)


def engine_version() -> str:
    """The version string of the engine, as every record stores it."""
    import engine

    return str(getattr(engine, "__version__", "unknown"))


def human_game_row(
    rules: str,
    red: str,
    blue: str,
    moves: Sequence[str],
    seed: int = 0,
    duration_ms: float = 0.0,
    batch_id: str = "",
    game_index: int = 0,
) -> dict[str, Any]:
    """The GAME_SCHEMA row of a game from the initial position, replayed through the engine.

    ``red`` / ``blue`` are ``human`` or a bot spec (stored as given); ``seed`` is the seed
    the bot drew its moves from; ``moves`` are written like ``a3a4``. Raises
    :class:`RecordError` when no side is ``human`` or the game did not end by the rules,
    and the engine's DsqError when a move is illegal.
    """
    if HUMAN not in (red, blue):
        raise RecordError("no_human", "a recorded human game has a player named 'human'")
    ruleset = parse_rules(rules)
    pos = Position(ruleset)
    captures: list[dict[str, int]] = []
    branching = 0
    mover_letter = ""
    for ply, move in enumerate(moves):
        branching += len(pos.legal_codes())
        target = pos.piece_at(move[2:4])
        mover_letter = pos.piece_at(move[:2]) or ""
        pos.play(move)
        if target:
            captures.append(
                {
                    "ply": ply,
                    "capturer": _code(mover_letter),
                    "captured": _code(target),
                    "square": encode_move(move) & 63,
                }
            )
    result = pos.result
    if result is None:
        raise RecordError("unfinished", "only a game that ended by the rules can be recorded")
    board = pos.board()
    red_caps = sum(1 for c in captures if c["capturer"] <= 8)
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
        "plies": plies,
        "red_captures": red_caps,
        "blue_captures": len(captures) - red_caps,
        "red_pieces_left": sum(1 for p in board if p and p.isupper()),
        "blue_pieces_left": sum(1 for p in board if p and p.islower()),
        "den_animal": ANIMALS[_LETTERS.index(mover_letter.upper())]
        if result.reason == "den"
        else None,
        "branching": branching / plies if plies else 0.0,
        "moves": [encode_move(m) for m in moves],
        "captures": captures,
        "engine_version": engine_version(),
        "duration_ms": float(duration_ms),
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
    now = now_iso()
    counts = {"red": 0, "blue": 0, "draw": 0}
    counts[row["winner"]] += 1
    record = {
        "batch_id": batch_id,
        "group": batch_id,
        "label": LABEL,
        "spec": {
            "rules": row["rules"],
            "red": row["red"],
            "blue": row["blue"],
            "games": 1,
            "seed": row["seed"],
            "swap": False,
            "opening_plies": 0,
            "ply_cap": row["ply_cap"],
        },
        "status": "done",
        "games_planned": 1,
        "games_done": 1,
        "counts": counts,
        "created_at": now,
        "started_at": now,
        "finished_at": now,
        "host": hostname(),
        "pid": os.getpid(),
        "engine_version": row["engine_version"],
        "schema_version": SCHEMA_VERSION,
        "error": None,
    }
    write_batch_record(data_dir, record)
    return batch_id
