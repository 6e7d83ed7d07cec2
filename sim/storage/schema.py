"""The parquet schema of recorded games (one row per game) and its version.

Moves are stored compactly as ``list<uint16>`` with ``from * 64 + to`` (squares 0..62,
``a1 = 0``); capture events as a list of structs. ``data/README.md`` documents every column.
"""

from __future__ import annotations

from typing import TypedDict

import pyarrow as pa

from engine import codes

SCHEMA_VERSION = 4

# The values of the string columns, from the engine's vocabulary (engine.codes):
WINNERS = codes.WINNERS  # winner: red, blue, draw
REASONS = codes.REASONS  # reason: den, capture_all, no_moves, no_capture, ply_cap, ...
ANIMALS = codes.ANIMAL_NAMES  # den_animal and the animal names of the statistics, rat..elephant

CAPTURE_TYPE = pa.struct(
    [
        ("ply", pa.uint16()),  # 0-based ply index of the capturing move in the game
        ("capturer", pa.int8()),  # piece code: 1..8 red rat..elephant, 9..16 blue
        ("captured", pa.int8()),  # piece code of the captured piece
        ("square", pa.int8()),  # square index 0..62 where the capture happened
    ]
)

# Who an external engine was (version 2): its registry name, the ``id name`` line it
# answered the handshake with, and the SHA-256 of its program file (null if not a file).
ENGINE_TYPE = pa.struct(
    [
        ("name", pa.string()),
        ("version", pa.string()),
        ("sha256", pa.string()),
    ]
)

# Columns added in version 2 (clocks, forfeits, engines). Files of version 1 lack them and
# are read with these columns NULL; rows of in-process bots without a clock leave them NULL.
V2_FIELDS = [
    pa.field("forfeit_note", pa.string()),  # what the forfeiting (or flagged) side did
    pa.field("time_control", pa.string()),  # e.g. "40/60+0.6" or "red 40/60+0.6, blue none"
    pa.field("move_ms", pa.list_(pa.uint32())),  # each ply's thinking time in milliseconds
    pa.field("red_clock_ms", pa.int32()),  # Red's clock at the end (null: no clock)
    pa.field("blue_clock_ms", pa.int32()),
    pa.field("red_engine", ENGINE_TYPE),  # the external engine that played red, or null
    pa.field("blue_engine", ENGINE_TYPE),
]
# Columns added in version 3: where a game began. Files of versions 1 and 2 lack it and are
# read with it NULL, which is what it means there too (every such game began at the start).
V3_FIELDS = [
    pa.field("start_fen", pa.string()),  # the FEN the game began from; null: the initial one
]
# Columns added in version 4: each ply's search score (docs in data/README.md). Files of
# versions 1 to 3 lack it and read with it NULL, as do games where no ply reported a score.
V4_FIELDS = [
    pa.field("scores", pa.list_(pa.float32())),  # per ply, Red's view in [-1, 1]; null: none
]
OPTIONAL_FIELDS = [*V2_FIELDS, *V3_FIELDS, *V4_FIELDS]  # what an older file may lack (NULL)
OPTIONAL_COLUMNS = tuple(f.name for f in OPTIONAL_FIELDS)

GAME_SCHEMA = pa.schema(
    [
        ("schema_version", pa.int16()),
        ("batch_id", pa.string()),
        ("game_index", pa.int32()),
        ("pair_id", pa.int32()),
        ("seed", pa.int64()),
        ("rules", pa.string()),
        ("red", pa.string()),
        ("blue", pa.string()),
        ("opening_plies", pa.int16()),
        ("ply_cap", pa.int32()),
        ("winner", pa.string()),
        ("reason", pa.string()),
        ("plies", pa.int32()),
        ("red_captures", pa.int16()),
        ("blue_captures", pa.int16()),
        ("red_pieces_left", pa.int8()),
        ("blue_pieces_left", pa.int8()),
        ("den_animal", pa.string()),  # null unless reason == "den"
        ("branching", pa.float32()),  # mean number of legal moves over the game's positions
        ("moves", pa.list_(pa.uint16())),
        ("captures", pa.list_(CAPTURE_TYPE)),
        ("engine_version", pa.string()),
        ("duration_ms", pa.float32()),
        *OPTIONAL_FIELDS,
    ]
)

# Encodings of the columns that dictionaries do not suit (every other column is
# dictionary-encoded): game and pair indices ascend (deltas of one pack into almost
# nothing), seeds are random 63-bit numbers (plain: a dictionary only adds to them) and
# the branching factor's bytes compress best split by significance.
COLUMN_ENCODINGS = {
    "game_index": "DELTA_BINARY_PACKED",
    "pair_id": "DELTA_BINARY_PACKED",
    "seed": "PLAIN",
    "branching": "BYTE_STREAM_SPLIT",
}


def _leaves(name: str, kind: pa.DataType) -> list[str]:
    """The parquet column paths of an Arrow field (``moves.list.element``, ...)."""
    if pa.types.is_list(kind):
        return _leaves(f"{name}.list.element", kind.value_type)
    if pa.types.is_struct(kind):
        return [p for f in kind for p in _leaves(f"{name}.{f.name}", f.type)]
    return [name]


# Every other column, by its parquet path (nested ones by their leaves: moves.list.element)
DICTIONARY_COLUMNS = [
    path for f in GAME_SCHEMA if f.name not in COLUMN_ENCODINGS for path in _leaves(f.name, f.type)
]


class Capture(TypedDict):
    """One capture of a game (``captures``): the 0-based ``ply`` of the capturing move, the
    piece codes of ``capturer`` and ``captured`` (1..8 Red's rat..elephant, 9..16 Blue's)
    and the ``square`` (0..62) where it happened."""

    ply: int
    capturer: int
    captured: int
    square: int


class EngineInfo(TypedDict):
    """The external engine that played a side (``red_engine``, ``blue_engine``)."""

    name: str
    version: str | None
    sha256: str | None


class GameRecord(TypedDict):
    """One recorded game, a row of :data:`GAME_SCHEMA` as Python values (data/README.md
    says what each column means): lists for the list columns, None for NULL."""

    schema_version: int
    batch_id: str
    game_index: int
    pair_id: int
    seed: int
    rules: str
    red: str
    blue: str
    opening_plies: int
    ply_cap: int
    winner: str
    reason: str
    plies: int
    red_captures: int
    blue_captures: int
    red_pieces_left: int
    blue_pieces_left: int
    den_animal: str | None
    branching: float
    moves: list[int] | None
    captures: list[Capture] | None
    engine_version: str
    duration_ms: float | None
    forfeit_note: str | None
    time_control: str | None
    move_ms: list[int] | None
    red_clock_ms: int | None
    blue_clock_ms: int | None
    red_engine: EngineInfo | None
    blue_engine: EngineInfo | None
    start_fen: str | None
    scores: list[float | None] | None
