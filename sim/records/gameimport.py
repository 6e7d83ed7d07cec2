"""Importing game records written in the text format (:mod:`sim.records.gametext`).

Every game is replayed under its rules from its start (:func:`sim.records.rowreplay.replay_columns`)
and its result checked against the replay, as ``dsq replay --game`` checks a recorded
game; the first game that fails is refused with its file and line, and then nothing is
written. The games go into the data folder as one batch per ``[Batch]`` tag (games without
one into a fresh ``import-<time>-<hex>`` batch), each with a batch record marked
``imported`` (the file it came from, when, and the ``Date`` tag), so statistics count them
and ``dsq replay --game`` replays them like any other.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from engine import __version__ as ENGINE_VERSION
from engine import parse_rules
from engine.codes import PLAYER_LOSSES, REASONS, Reason
from engine.errors import DsqError
from sim.bots import parse_bot
from sim.records.gametext import (
    ENGINE_TAGS,
    WINNER_OF,
    GameText,
    GameTextError,
    parse_games,
)
from sim.records.human import done_record
from sim.records.replay import agrees
from sim.records.rowreplay import PlyError, replay_columns
from sim.stats.query import HUMAN
from sim.storage import importing
from sim.storage.paths import batch_path, check_batch_id, games_dir
from sim.storage.recordcheck import RecordError, check_record
from sim.storage.records import create_batch_record, now_iso
from sim.storage.schema import SCHEMA_VERSION
from sim.storage.writing import rows_to_table, write_games_chunk

LABEL = "imported"
TABLE_ROWS = 2000  # rows gathered before they are packed into an Arrow table
FILE_ROWS = 100_000  # the most games in one written file


def new_import_batch_id() -> str:
    """A fresh batch id for imported games that name none: ``import-<UTC time>-<hex>``."""
    return "import-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def _player(game: GameText, tag: str) -> str:
    spec = game.tag(tag)
    if spec is None:
        raise GameTextError(game.first_line, f"the game has no [{tag}] tag")
    if spec != HUMAN:
        try:
            parse_bot(spec)
        except DsqError as exc:
            raise GameTextError(game.line_of(tag), f"[{tag}] {exc}") from None
    return spec


def _engine(game: GameText, side: str) -> dict[str, Any] | None:
    if game.tag(f"{side}Engine") is None:
        return None
    return {key: game.tag(f"{side}Engine{suffix}") for suffix, key in ENGINE_TAGS.items()}


def _check_result(game: GameText, winner: str, reason: str, replayed: Any, cap: int) -> None:
    """GameTextError unless the recorded ``winner`` and ``reason`` fit the replay."""
    line = game.line_of("Reason") if game.tag("Reason") is not None else game.line_of("Result")
    end = replayed.position.result
    plies = replayed.columns["plies"]
    if reason not in REASONS:
        raise GameTextError(game.line_of("Reason"), f"unknown end reason {reason!r}")
    if not agrees(None if end is None else end.as_dict(), winner, reason):
        got = "goes on" if end is None else f"ends {end.winner}, {end.reason}"
        raise GameTextError(
            line, f"the recorded result ({winner}, {reason}) is not the replay's: the game {got}"
        )
    if reason == "ply_cap" and (winner != "draw" or plies != cap):
        raise GameTextError(line, f"a ply_cap draw ends at its ply cap {cap}, not at ply {plies}")
    if reason in PLAYER_LOSSES and winner == "draw":
        raise GameTextError(line, f"a game ended by {reason} has a winner")
    if reason == Reason.AGREED_DRAW.label and winner != "draw":
        raise GameTextError(line, f"a game ended by {reason} is a draw")
    if plies > cap:
        raise GameTextError(game.line_of("PlyCap"), f"{plies} plies over the ply cap {cap}")


def _per_ply(game: GameText, flag: str, values: list[Any]) -> list[Any] | None:
    if game.tag(flag) is None and all(v is None for v in values):
        return None
    if flag == "MoveTimes":
        for (move, line), v in zip(game.moves, values, strict=True):
            if v is None:
                raise GameTextError(line, f"move {move} has no time: every move needs one here")
    return values


def game_row(game: GameText, default_batch: str, default_index: int) -> dict[str, Any]:
    """The GAME_SCHEMA row of one game read from text, replayed and checked
    (GameTextError naming the line of what is wrong)."""
    rules_text = game.tag("Rules")
    if rules_text is None:
        raise GameTextError(game.first_line, "the game has no [Rules] tag")
    token, token_line = game.result or ("*", game.first_line)
    if token == "*":
        raise GameTextError(token_line, "an unfinished game (*) cannot be recorded")
    result_tag = game.tag("Result")
    if result_tag is not None and result_tag != token:
        raise GameTextError(token_line, f"the result {token} differs from [Result {result_tag!r}]")
    try:
        ruleset = parse_rules(rules_text)
    except DsqError as exc:
        raise GameTextError(game.line_of("Rules"), f"[Rules] {exc}") from None
    red, blue = _player(game, "Red"), _player(game, "Blue")
    moves = [m for m, _ in game.moves]
    branching = game.float_tag("Branching")
    try:
        replayed = replay_columns(ruleset, moves, game.tag("FEN"), branching is None)
    except PlyError as exc:
        raise GameTextError(game.moves[exc.ply][1], str(exc)) from None
    except DsqError as exc:
        raise GameTextError(game.line_of("FEN"), f"[FEN] {exc}") from None
    cols = replayed.columns
    count = game.int_tag("PlyCount")
    if count is not None and count != len(moves):
        raise GameTextError(game.line_of("PlyCount"), f"[PlyCount] {count}, moves {len(moves)}")
    end = replayed.position.result
    reason = game.tag("Reason") or (end.reason if end is not None else None)
    if reason is None:
        raise GameTextError(game.first_line, "the game has no [Reason] and the rules end none")
    winner = WINNER_OF[token]
    cap = game.int_tag("PlyCap")
    cap = cap if cap is not None else max(len(moves), 1)
    _check_result(game, winner, reason, replayed, cap)
    batch = game.tag("Batch") or default_batch
    try:
        check_batch_id(batch)
    except DsqError as exc:
        raise GameTextError(game.line_of("Batch"), f"[Batch] {exc}") from None
    index = game.int_tag("Index")
    index = default_index if index is None else index
    if index < 0:
        raise GameTextError(game.line_of("Index"), "[Index] is a game index, 0 or more")
    version = game.int_tag("SchemaVersion")
    version = SCHEMA_VERSION if version is None else version
    if not 1 <= version <= SCHEMA_VERSION:
        raise GameTextError(game.line_of("SchemaVersion"), f"[SchemaVersion] 1..{SCHEMA_VERSION}")
    pair = game.int_tag("Pair")
    row: dict[str, Any] = {
        "schema_version": version,
        "batch_id": batch,
        "game_index": index,
        "pair_id": index if pair is None else pair,
        "seed": game.int_tag("Seed") or 0,
        "rules": ruleset.spec,
        "red": red,
        "blue": blue,
        "opening_plies": game.int_tag("OpeningPlies") or 0,
        "ply_cap": cap,
        "winner": winner,
        "reason": reason,
        **cols,
        "engine_version": game.tag("EngineVersion") or ENGINE_VERSION,
        "duration_ms": game.float_tag("DurationMs") or 0.0,
        "forfeit_note": game.tag("ForfeitNote"),
        "time_control": game.tag("TimeControl"),
        "move_ms": _per_ply(game, "MoveTimes", game.times),
        "red_clock_ms": game.int_tag("RedClockMs"),
        "blue_clock_ms": game.int_tag("BlueClockMs"),
        "red_engine": _engine(game, "Red"),
        "blue_engine": _engine(game, "Blue"),
        "start_fen": game.tag("FEN"),
        "scores": _per_ply(game, "Scores", game.scores),
    }
    if branching is not None:
        row["branching"] = branching
    return row


@dataclass
class _Batch:
    """The games of one batch being imported: packed tables and a summary for its record."""

    tables: list[pa.Table] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    indices: set[int] = field(default_factory=set)
    first: dict[str, Any] | None = None
    counts: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0, "draw": 0})
    results: list[tuple[int, str, str]] = field(default_factory=list)  # index, red, winner
    swap: bool = False
    ply_cap: int = 1
    date: str | None = None

    def add(self, row: dict[str, Any], date: str | None) -> None:
        """Keep a checked row."""
        if self.first is None or row["game_index"] < self.first["game_index"]:
            self.first = {k: row[k] for k in ("game_index", "rules", "red", "blue")}
            self.first["opening_plies"] = row["opening_plies"]
            self.first["engine_version"] = row["engine_version"]
        self.date = self.date or date
        self.counts[row["winner"]] += 1
        self.results.append((row["game_index"], row["red"], row["winner"]))
        self.ply_cap = max(self.ply_cap, row["ply_cap"])
        self.indices.add(row["game_index"])
        self.pending.append(row)
        if len(self.pending) >= TABLE_ROWS:
            self.pack()

    def pack(self) -> None:
        """Pack the pending rows into an Arrow table (compact, typed)."""
        if self.pending:
            try:
                self.tables.append(rows_to_table(self.pending))
            except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
                raise DsqError(f"a game does not fit the game schema: {exc}") from None
            self.pending = []

    def bot_counts(self, a: str, b: str) -> dict[str, Any]:
        """The record's ``counts``: by colour, the wins of bot ``a`` (the spec's red) and
        ``b`` whatever colour they played, and, when the games alternate colours as a
        swapped batch's do (a is red in even games), the pentanomial of their pairs."""
        # lazy: the batch package is only needed here
        from sim.core.tally import Tally

        self.results.sort()
        a_wins = sum(1 for _, red, w in self.results if w != "draw" and (w == "red") == (red == a))
        decided = sum(1 for *_, w in self.results if w != "draw")
        alternating = all(red == (b if i % 2 else a) for i, red, _ in self.results)
        if not (self.swap and alternating):
            return {**self.counts, "a_wins": a_wins, "b_wins": decided - a_wins}
        tally = Tally(swap=True)
        for index, _, winner in self.results:
            tally.add(index, winner)
        return tally.record_counts()

    def record(self, batch_id: str, source: str) -> dict[str, Any]:
        """The batch record of these games, marked as imported from ``source``."""
        assert self.first is not None
        first = self.first
        spec = {
            "rules": first["rules"],
            "red": first["red"],
            "blue": first["blue"],
            "games": len(self.indices),
            "seed": 0,
            "swap": self.swap,
            "opening_plies": min(first["opening_plies"], self.ply_cap - 1),
            "ply_cap": self.ply_cap,
        }
        counts = self.bot_counts(first["red"], first["blue"])
        imported = {"file": source, "at": now_iso(), "date": self.date}
        record = done_record(
            batch_id,
            spec,
            counts,
            len(self.indices),
            first["engine_version"],
            LABEL,
            imported=imported,
        )
        try:
            return check_record(record, batch_id)
        except RecordError as exc:
            raise DsqError(f"batch {batch_id}: cannot make its record: {exc}") from None


def read_games(lines: Iterable[tuple[int, str]], name: str) -> dict[str, _Batch]:
    """Every game of the numbered ``lines`` replayed, checked and gathered by batch;
    DsqError ``NAME:LINE: why`` for the first that fails."""
    default = new_import_batch_id()
    batches: dict[str, _Batch] = {}
    count = 0
    game: GameText | None = None
    try:
        for game in parse_games(lines):
            row = game_row(game, default, count)
            batch = batches.setdefault(row["batch_id"], _Batch())
            if row["game_index"] in batch.indices:
                line = game.line_of("Index")
                raise GameTextError(line, f"game {row['batch_id']}:{row['game_index']} twice")
            if batch.first is not None and (row["red"], row["blue"]) != (
                batch.first["red"],
                batch.first["blue"],
            ):
                batch.swap = True
            batch.add(row, game.tag("Date"))
            count += 1
    except GameTextError as exc:
        raise DsqError(f"{name}:{exc.line}: {exc}") from None
    except FileReadError:
        raise  # names the file (and line) itself
    except DsqError as exc:
        where = game.first_line if game is not None else 1
        raise DsqError(f"{name}:{where}: {exc}") from None
    for batch in batches.values():
        batch.pack()
    if not batches:
        raise DsqError(f"{name}: no games in the file")
    return batches


def hashed(lines: Iterable[tuple[int, str]], digest: Any) -> Iterator[tuple[int, str]]:
    """``lines`` as they are, each fed to ``digest`` (a ``hashlib`` object) on the way."""
    for number, line in lines:
        digest.update(line.encode("utf-8"))
        yield number, line


def write_batches(
    data_dir: Path, batches: dict[str, _Batch], source: str, key: str
) -> tuple[list[str], bool]:
    """Write every batch (games and record) all at once (:mod:`sim.storage.importing`):
    readers see all of them or none. ``key`` names the import (a digest of the file): an
    import of the same file that was stopped half-way is finished instead, and nothing
    else written. Returns the batch ids and whether they are that earlier import's.
    DsqError, with nothing written, when a batch of that id is already in ``data_dir``."""
    with importing.import_lock(data_dir):
        earlier = importing.finish_journals(data_dir).get(key)
        if earlier is not None:
            return earlier, True
        for bid in batches:
            if batch_path(data_dir, bid).exists() or games_dir(data_dir, bid).exists():
                raise DsqError(f"batch {bid} is already in {data_dir}: nothing imported")
        records = {bid: b.record(bid, source) for bid, b in batches.items()}
        stage = importing.begin(data_dir, key)
        for bid, batch in batches.items():
            table = pa.concat_tables(batch.tables).sort_by("game_index")
            for start in range(0, table.num_rows, FILE_ROWS):
                write_games_chunk(stage, bid, table.slice(start, FILE_ROWS))
            if not create_batch_record(stage, records[bid]):
                raise DsqError(f"batch {bid} is twice in the import")
            importing.step(f"staged {bid}")
        importing.commit(data_dir, stage, list(batches))
    return list(batches), False


class FileReadError(DsqError):
    """A file that cannot be read as text lines; the message names it (and the line)."""


def numbered_lines(path: str, limit: int) -> Iterator[tuple[int, str]]:
    """The lines of a file a person names (``-``: standard input), numbered from 1; a file
    that cannot be opened (raised at once), a line longer than ``limit`` characters, a
    special file or text that is not UTF-8 is a :class:`FileReadError` naming the file
    (and line)."""
    # lazy: start-up time
    import stat
    import sys

    shown = "<stdin>" if path == "-" else path
    if path == "-":
        return _lines(sys.stdin, shown, limit)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileReadError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileReadError(f"{shown}: cannot read: not a regular file")
    return _lines(open(fd, encoding="utf-8", newline=None), shown, limit)  # noqa: SIM115


def _lines(stream: Any, shown: str, limit: int) -> Iterator[tuple[int, str]]:
    """The numbered lines of ``stream`` (closed at the end unless it is standard input)."""
    # lazy: start-up time
    import sys

    try:
        number = 0
        while True:
            number += 1
            try:
                line = stream.readline(limit + 1)
            except UnicodeDecodeError:
                raise FileReadError(f"{shown}:{number}: not UTF-8 text") from None
            if not line:
                return
            if len(line) > limit and not line.endswith("\n"):
                raise FileReadError(f"{shown}:{number}: line longer than {limit} characters")
            yield number, line
    finally:
        if stream is not sys.stdin:
            stream.close()
