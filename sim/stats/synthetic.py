"""Synthetic recorded games with known properties, for tests and benchmarks of the statistics.

Nothing here plays Dou Shou Qi: outcomes are drawn from given probabilities, so a test
knows what the statistics should find (a balanced dataset, a first-player bias, a bot
stronger by a given Elo). Tables have exactly :data:`sim.storage.schema.GAME_SCHEMA`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sim.storage.schema import ANIMALS, CAPTURE_TYPE, GAME_SCHEMA, OPTIONAL_FIELDS, SCHEMA_VERSION

_DEFAULT_ROW: dict[str, Any] = {
    "schema_version": SCHEMA_VERSION,
    "batch_id": "b1",
    "game_index": 0,
    "pair_id": 0,
    "seed": 0,
    "rules": "standard",
    "red": "random",
    "blue": "random",
    "opening_plies": 0,
    "ply_cap": 1000,
    "winner": "red",
    "reason": "den",
    "plies": 40,
    "red_captures": 0,
    "blue_captures": 0,
    "red_pieces_left": 8,
    "blue_pieces_left": 8,
    "den_animal": None,
    "branching": 20.0,
    "moves": [],
    "captures": [],
    "engine_version": "synthetic",
    "duration_ms": 1.0,
    **{f.name: None for f in OPTIONAL_FIELDS},  # no clock, forfeit, engine, FEN
}


def game_row(**values: Any) -> dict[str, Any]:
    """One game row with every column; unspecified columns take plain defaults.

    ``den_animal`` defaults to ``"lion"`` when ``reason == "den"``; ``game_index`` and
    ``pair_id`` should be given by the caller when it matters.
    """
    row = dict(_DEFAULT_ROW)
    row.update(values)
    if row["reason"] == "den" and "den_animal" not in values:
        row["den_animal"] = "lion"
    return row


def rows_table(rows: Sequence[Mapping[str, Any]]) -> pa.Table:
    """A GAME_SCHEMA table from row dicts (missing columns filled by :func:`game_row`)."""
    full = [game_row(**dict(r)) for r in rows]
    cols = {f.name: [r[f.name] for r in full] for f in GAME_SCHEMA}
    return pa.Table.from_pydict(cols, schema=GAME_SCHEMA)


def synthetic_table(
    n: int,
    *,
    seed: int = 0,
    batch_id: str = "synthetic",
    rules: str = "standard",
    bots: tuple[str, str] = ("alphabeta:depth=2", "random"),
    elo: Mapping[str, float] | None = None,
    first_player_elo: float = 0.0,
    draw_rate: float = 0.2,
    swap: bool = True,
    mean_plies: float = 80.0,
    ply_cap: int = 400,
    captures_per_game: float = 6.0,
    moves: bool = True,
    first_index: int = 0,
) -> pa.Table:
    """``n`` synthetic games of one batch between two bots.

    Outcomes: Red's expected score is the logistic of ``elo[red] - elo[blue] +
    first_player_elo``; draws happen with probability ``draw_rate`` (capped so that the
    expected score is reachable). With ``swap`` games ``2k`` and ``2k+1`` share ``pair_id``
    ``k`` with colours exchanged. Decisive games end by den (80%), capture_all (15%) or
    no_moves (5%); draws by no_capture (70%) or ply_cap (30%, length = ``ply_cap``).
    """
    rng = np.random.default_rng(seed)
    elo = dict(elo or {})
    idx = np.arange(first_index, first_index + n, dtype=np.int64)
    swapped = (idx % 2 == 1) if swap else np.zeros(n, dtype=bool)
    a, b = bots
    red = np.where(swapped, b, a)
    blue = np.where(swapped, a, b)
    diff = np.where(swapped, elo.get(b, 0.0) - elo.get(a, 0.0), elo.get(a, 0.0) - elo.get(b, 0.0))
    e = 1.0 / (1.0 + 10.0 ** (-(diff + first_player_elo) / 400.0))
    d = np.minimum(draw_rate, 2 * np.minimum(e, 1 - e))
    p_red = e - d / 2
    u = rng.random(n)
    winner = np.where(u < p_red, "red", np.where(u < p_red + d, "draw", "blue"))
    decisive = winner != "draw"
    v = rng.random(n)
    reason = np.where(
        decisive,
        np.where(v < 0.8, "den", np.where(v < 0.95, "capture_all", "no_moves")),
        np.where(v < 0.7, "no_capture", "ply_cap"),
    )
    plies = np.clip(rng.gamma(4.0, mean_plies / 4.0, n).round().astype(np.int64), 5, ply_cap - 1)
    plies = np.where(reason == "ply_cap", ply_cap, plies)
    animals = np.array(ANIMALS, dtype=object)
    den_animal = np.where(reason == "den", animals[rng.integers(0, 8, n)], np.array(None))

    ncap = np.minimum(rng.poisson(captures_per_game, n), 15)
    offsets = np.concatenate([[0], np.cumsum(ncap)]).astype(np.int32)
    total = int(offsets[-1])
    game_of = np.repeat(np.arange(n), ncap)
    cap_side_red = rng.random(total) < 0.5
    capturer = rng.integers(1, 9, total) + np.where(cap_side_red, 0, 8)
    captured = rng.integers(1, 9, total) + np.where(cap_side_red, 8, 0)
    cap_struct = pa.StructArray.from_arrays(
        [
            pa.array((rng.random(total) * np.maximum(plies[game_of], 1)).astype(np.uint16)),
            pa.array(capturer.astype(np.int8)),
            pa.array(captured.astype(np.int8)),
            pa.array(rng.integers(0, 63, total).astype(np.int8)),
        ],
        fields=list(CAPTURE_TYPE),
    )
    captures = pa.ListArray.from_arrays(pa.array(offsets), cap_struct)
    red_caps = np.bincount(game_of[cap_side_red], minlength=n)
    blue_caps = ncap - red_caps

    if moves:
        moff = np.concatenate([[0], np.cumsum(plies)]).astype(np.int64)
        mvals = rng.integers(0, 63 * 64 + 63, int(moff[-1])).astype(np.uint16)
        moves_arr = pa.LargeListArray.from_arrays(pa.array(moff), pa.array(mvals)).cast(
            pa.list_(pa.uint16())
        )
    else:
        moves_arr = pa.array([[] for _ in range(n)], type=pa.list_(pa.uint16()))

    cols = {
        "schema_version": pa.array(np.full(n, SCHEMA_VERSION, dtype=np.int16)),
        "batch_id": pa.array([batch_id] * n, type=pa.string()),
        "game_index": pa.array(idx.astype(np.int32)),
        "pair_id": pa.array((idx // 2 if swap else idx).astype(np.int32)),
        "seed": pa.array(rng.integers(0, 2**62, n, dtype=np.int64)),
        "rules": pa.array([rules] * n, type=pa.string()),
        "red": pa.array(red.astype(object), type=pa.string()),
        "blue": pa.array(blue.astype(object), type=pa.string()),
        "opening_plies": pa.array(np.full(n, 4, dtype=np.int16)),
        "ply_cap": pa.array(np.full(n, ply_cap, dtype=np.int32)),
        "winner": pa.array(winner.astype(object), type=pa.string()),
        "reason": pa.array(reason.astype(object), type=pa.string()),
        "plies": pa.array(plies.astype(np.int32)),
        "red_captures": pa.array(red_caps.astype(np.int16)),
        "blue_captures": pa.array(blue_caps.astype(np.int16)),
        "red_pieces_left": pa.array((8 - blue_caps).clip(0, 8).astype(np.int8)),
        "blue_pieces_left": pa.array((8 - red_caps).clip(0, 8).astype(np.int8)),
        "den_animal": pa.array(den_animal, type=pa.string()),
        "branching": pa.array(rng.normal(22.0, 3.0, n).astype(np.float32)),
        "moves": moves_arr,
        "captures": captures,
        "engine_version": pa.array(["synthetic"] * n, type=pa.string()),
        "duration_ms": pa.array(rng.gamma(2.0, 5.0, n).astype(np.float32)),
        **{f.name: pa.nulls(n, f.type) for f in OPTIONAL_FIELDS},
    }
    return pa.Table.from_pydict(cols, schema=GAME_SCHEMA)


def write_synthetic_dataset(
    data_dir: str | Path,
    n: int,
    *,
    chunk: int = 10_000,
    batch_id: str = "synthetic",
    **kwargs: Any,
) -> list[Path]:
    """Write ``n`` synthetic games of one batch under ``data_dir`` in the storage layout
    (``games/<batch_id>/part-*.parquet``, via :func:`sim.storage.writing.write_games_chunk`)."""
    # lazy: start-up time (the parquet writer: only when games are written)
    from sim.storage.writing import write_games_chunk

    paths = []
    seed = int(kwargs.pop("seed", 0))
    for k, start in enumerate(range(0, n, chunk)):
        m = min(chunk, n - start)
        t = synthetic_table(
            m, seed=seed * 1_000_003 + k, batch_id=batch_id, first_index=start, **kwargs
        )
        paths.append(write_games_chunk(Path(data_dir), batch_id, t))
    return paths
