"""Replaying a game through the engine: the Games page, ``dsq replay`` and ``dsq replay
--game``.

A recorded game holds its canonical rules spec, its moves (``from * 64 + to`` codes) and
the FEN it began from (``start_fen``, null for the initial position); replaying the moves
from there with :class:`engine.Position` gives every position (:func:`replay_game`: one
frame per ply, captures found on the way), and the result, which is compared with the
recorded one (:func:`verdict`). :func:`replay` is the report ``dsq replay`` prints of any
game; :func:`replay_recorded` that report of a recorded game beside its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Position, decode_move, parse_rules
from engine.board import square_index
from engine.codes import PLAYER_STOPS, RULE_ENDS, SCORE_ADJUDICATIONS
from engine.errors import DsqError, MoveError
from sim.records.gametext import move_tokens
from sim.storage.paths import check_batch_id


def result_json(pos: Position) -> dict[str, str] | None:
    """The result of a position as the JSON the CLI prints."""
    result = pos.result
    return None if result is None else result.as_dict()


def position_json(pos: Position) -> dict[str, str | None]:
    """The position as the CLI prints it: ``"fen"``, a FEN dsq reads back, or null when the
    position has none (an animal on a den: the game was won there), and ``"board"``, the
    board in FEN notation (the FEN's first field), always given."""
    return {"fen": pos.fen_or_none(), "board": pos.board_text()}


@dataclass(frozen=True)
class Frame:
    """The position after ``ply`` plies (ply 0 is the position the game began at)."""

    ply: int
    move: str | None
    mover: str | None
    board: tuple[str | None, ...]
    captured: str | None = None  # the FEN letter of the piece the move captured ("c": blue cat)

    @property
    def last_move(self) -> tuple[int, int] | None:
        """``(from, to)`` squares of the move that led here."""
        if self.move is None:
            return None
        return square_index(self.move[:2]), square_index(self.move[2:])

    @property
    def capture_square(self) -> int | None:
        """The square where the move that led here captured, if it did."""
        return square_index(self.move[2:]) if self.captured and self.move else None


@dataclass(frozen=True)
class Replay:
    """Every frame of a game, the result the engine reaches, and any replay error: the
    engine's message (``error``) and the ply and move it refused (None: the rules spec
    itself could not be set up)."""

    rules: str
    frames: tuple[Frame, ...]
    winner: str | None
    reason: str | None
    error: str | None = None
    dog_over_wolf: bool = False
    error_ply: int | None = None
    error_move: str | None = None
    start_fen: str | None = None  # the set-up position the game began at (None: initial)
    start_side: str = "red"  # who moved first

    def to_move(self, ply: int) -> str:
        """The side to move after ``ply`` plies."""
        other = "blue" if self.start_side == "red" else "red"
        return self.start_side if ply % 2 == 0 else other

    @property
    def plies(self) -> int:
        """Plies successfully replayed."""
        return len(self.frames) - 1


def replay_game(
    rules: str, moves: Sequence[int], ply_cap: int | None = None, start_fen: str | None = None
) -> Replay:
    """Replay ``moves`` (``from * 64 + to`` codes) under ``rules`` from ``start_fen`` (None:
    the initial position).

    The result is the engine's, or a ``ply_cap`` draw when the game reached ``ply_cap``
    plies unfinished (the simulator's cap, not a rule). A move the engine refuses (a
    damaged record) stops the replay; ``error_ply`` says which ply (None with a rules spec
    or FEN that cannot be set up).
    """
    try:
        ruleset = parse_rules(rules)
        pos = Position(ruleset, fen=start_fen)
    except DsqError as exc:
        return Replay(rules, (), None, None, error=str(exc))
    start_side = pos.side
    frames = [Frame(0, None, None, tuple(pos.board()))]
    error = error_move = None
    error_ply = None
    for i, code in enumerate(moves, start=1):
        move = decode_move(int(code))
        before = frames[-1].board
        mover = pos.side
        try:
            pos.play(move)
        except DsqError as exc:
            error, error_ply, error_move = str(exc), i, move
            break
        target = before[square_index(move[2:])]
        frames.append(Frame(i, move, mover, tuple(pos.board()), target or None))
    result = pos.result
    winner, reason = (result.winner, result.reason) if result else (None, None)
    if result is None and error is None and ply_cap is not None and len(moves) >= ply_cap:
        winner, reason = "draw", "ply_cap"
    return Replay(
        ruleset.spec,
        tuple(frames),
        winner,
        reason,
        error,
        ruleset.dog_over_wolf,
        error_ply,
        error_move,
        start_fen,
        start_side,
    )


def replay_cap(reason: str, ply_cap: int) -> int | None:
    """The ply cap a recorded game is replayed with: none for a game a player stopped (a
    resignation, a forfeit, a loss on time: it ended before any cap), nor for one the
    referee adjudicated on the players' scores (it ended there, even at the cap's ply)."""
    return None if reason in PLAYER_STOPS or reason in SCORE_ADJUDICATIONS else int(ply_cap)


def verdict(winner: str, reason: str, rep: Replay) -> str:
    """How a replay compares with the recorded ``winner`` and ``reason``: ``agree`` (the
    same result), ``tables`` (the endgame tables ended it: the replay goes on),
    ``stopped`` (a player stopped it, or the referee on the players' scores, the position
    left unfinished) or ``differ``."""
    if rep.winner == winner and rep.reason == reason:
        return "agree"
    going_on = rep.winner is None and rep.error is None
    if reason == "tablebase" and going_on:
        return "tables"
    if (reason in PLAYER_STOPS or reason in SCORE_ADJUDICATIONS) and going_on:
        return "stopped"
    return "differ"


def replay(rules: str | None, fen: str | None, moves: str | list[str]) -> dict[str, Any]:
    """The replay report of one game (what ``dsq replay`` prints: the legal-move count
    before each move, the result and the final position); DsqError names the ply of an
    illegal move."""
    pos = Position(rules, fen)
    items = moves.split() if isinstance(moves, str) else [str(m) for m in moves]
    counts = []
    for ply, move in enumerate(items, start=1):
        counts.append(len(pos.legal_codes()))
        try:
            pos.play(move)
        except MoveError as exc:
            raise MoveError(f"ply {ply}: {exc}") from None
    return {
        "plies": len(items),
        "legal_counts": counts,
        "result": result_json(pos),
        **position_json(pos),
    }


def parse_game_ref(text: str) -> tuple[str, int]:
    """``"BATCH:INDEX"`` -> ``(batch_id, index)``; DsqError when it is not of that form."""
    bid, sep, index = text.rpartition(":")
    if not sep or not index.isascii() or not index.isdigit() or len(index) > 10:
        raise DsqError(f"--game {text!r}: expected BATCH:INDEX, e.g. sample-random-1:17")
    try:
        check_batch_id(bid)
    except DsqError as exc:
        raise DsqError(f"--game {text!r}: {exc}") from None
    return bid, int(index)


def agrees(replayed: dict[str, str] | None, winner: str, reason: str) -> bool:
    """Whether a replay's result matches a recorded winner and reason: the same result for
    an end the rules give, a game still going on for one stopped before (any other reason:
    the ply cap, the tables, a forfeit, the clock, a resignation)."""
    if reason in RULE_ENDS:
        return replayed == {"winner": winner, "reason": reason}
    return replayed is None


def replay_recorded(data_dir: Path, ref: str) -> dict[str, Any]:
    """The replay report (as ``dsq replay`` prints it) of recorded game ``ref``, with
    ``"game"``, its ``"moves"`` and ``"movetext"`` (numbered, as in the text records of
    :mod:`sim.records.gametext`), ``"recorded"`` (its stored winner, reason and plies)
    ``"moves_stored"`` (false: the game was recorded without its moves, which were
    recomputed from its seed, :mod:`sim.batch.recompute`) and ``"agrees"``."""
    # lazy: start-up time (duckdb, pandas)
    from sim.stats.games import game_record, replay_input
    from sim.storage.reading import open_dataset

    bid, index = parse_game_ref(ref)
    with open_dataset(data_dir) as ds:
        found = ds.read(lambda: game_record(ds.con, bid, index))
    if found is None:
        raise DsqError(f"no recorded game {bid}:{index} in {data_dir}")
    # lazy: start-up time (the batch runner: only for a game recorded without its moves)
    from sim.batch.recompute import with_moves

    record, again = with_moves(data_dir, found)
    if again is not None and not again.agrees:
        raise DsqError(
            f"game {bid}:{index} was recorded without its moves (--record outcomes) and "
            f"cannot be replayed from its seed: {again.why}"
        )
    line = replay_input(record)
    report = replay(line["rules"], line["fen"], line["moves"])
    recorded = {
        "winner": record["winner"],
        "reason": record["reason"],
        "plies": int(record["plies"]),
    }
    same = agrees(report["result"], recorded["winner"], recorded["reason"])
    bare = {"moves": record["moves"], "start_fen": line["fen"], "winner": record["winner"]}
    return {
        "game": f"{bid}:{index}",
        "rules": line["rules"],
        "start_fen": line["fen"],
        "moves": line["moves"],
        "movetext": " ".join(move_tokens(bare)),
        **report,
        "recorded": recorded,
        "moves_stored": again is None,  # False: recomputed from the seed (--record outcomes)
        "agrees": same and report["plies"] == recorded["plies"],
    }
