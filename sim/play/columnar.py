"""The referee's columnar fast path: many games between fast bots, straight to Arrow arrays.

When both bots of a game are ``random`` or ``greedy``, :func:`play_fast_games` plays a
whole list of games in one compiled call (:func:`sim.bots.fast.fast_games`) and returns
the per-game columns of GAME_SCHEMA as Arrow arrays, with no Python object per move.
Each game is exactly the one :func:`sim.play.referee.play_game` plays with the same arguments
(tested); only ``duration_ms`` differs: the call's time shared among its games in
proportion to their plies.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from engine.codes import ANIMAL_NAMES, DEN, DRAWN, ONGOING, PLY_CAP, REASON_NAMES, Status
from sim.bots import fast
from sim.play.referee import (
    _FAST_KINDS,
    _adjudicator,
    _bot,
    _check_int,
    _rules,
    _seed_word,
    bot_seed,
)
from sim.storage.schema import CAPTURE_TYPE, GAME_SCHEMA, V2_FIELDS

# Stored strings by kernel code (a capped game, still ongoing, is stored as a draw by
# ply_cap, as :func:`sim.play.referee.outcome` does).
_WINNER_BY_STATUS = np.array([s.winner for s in Status], dtype=object)
_REASON_BY_CODE = np.array(REASON_NAMES, dtype=object)
_ANIMAL_BY_CODE = np.array([None, *ANIMAL_NAMES], dtype=object)


def fast_pair(red: str, blue: str) -> bool:
    """Whether both bot specs are fast bots (``random`` or ``greedy``)."""
    return _bot(str(red)).name in _FAST_KINDS and _bot(str(blue)).name in _FAST_KINDS


def play_fast_games(
    rules: str,
    reds: Sequence[str],
    blues: Sequence[str],
    seeds: Sequence[int],
    opening_seeds: Sequence[int],
    opening_plies: int = 0,
    ply_cap: int = 1000,
    adjudicate: str = "none",
    tables: str | None = None,
) -> dict[str, pa.Array]:
    """Play game ``i`` = ``play_game(rules, reds[i], blues[i], seeds[i], opening_plies,
    ply_cap, opening_seeds[i], adjudicate=adjudicate, tables=tables)`` for every ``i``; all
    bots must be fast (:func:`fast_pair`). Adjudicated games are cut afterwards at their
    first position the tables settle (:func:`sim.tablebase.adjudicate.cut_games`).

    Returns the per-game columns of GAME_SCHEMA (those ``play_game`` returns) as arrays.
    """
    t0 = time.perf_counter()
    rules_spec, ruleset, ra, start, values = _rules(str(rules))
    adj = _adjudicator(ruleset, adjudicate, tables)
    opening_plies = _check_int("opening_plies", opening_plies, 0)
    ply_cap = _check_int("ply_cap", ply_cap, 1)
    n = len(seeds)
    red_specs = [_bot(str(r)) for r in reds]
    blue_specs = [_bot(str(b)) for b in blues]
    kinds = np.array(
        [
            (_FAST_KINDS[r.name], _FAST_KINDS[b.name])
            for r, b in zip(red_specs, blue_specs, strict=True)
        ],
        dtype=np.int32,
    ).reshape(n, 2)
    rngs = np.array(
        [
            (_seed_word(o), _seed_word(bot_seed(s, 0)), _seed_word(bot_seed(s, 1)))
            for s, o in zip(seeds, opening_seeds, strict=True)
        ],
        dtype=np.uint64,
    ).reshape(n, 3)
    summary, moves, move_offsets, caps, cap_offsets = fast.fast_games(
        start, ra, kinds, values, rngs, opening_plies, ply_cap
    )
    if adj is not None:
        from sim.tablebase.adjudicate import cut_games

        summary, moves, move_offsets, caps, cap_offsets = cut_games(
            start, ra, adj, summary, moves, move_offsets, caps, cap_offsets
        )
    plies = summary[:, 0]
    capped = summary[:, 2] == ONGOING
    status = np.where(capped, DRAWN, summary[:, 2])
    reason = np.where(capped, PLY_CAP, summary[:, 3])
    game_of_capture = np.repeat(np.arange(n), np.diff(cap_offsets))
    red_caps = np.bincount(game_of_capture[caps[:, 1] <= 8], minlength=n)
    blue_caps = np.diff(cap_offsets) - red_caps
    den = np.where(reason == DEN, (summary[:, 6] - 1) % 8 + 1, 0)
    capture_structs = pa.StructArray.from_arrays(
        [
            pa.array(caps[:, 0].astype(np.uint16)),
            pa.array(caps[:, 1].astype(np.int8)),
            pa.array(caps[:, 2].astype(np.int8)),
            pa.array(caps[:, 3].astype(np.int8)),
        ],
        fields=list(CAPTURE_TYPE),
    )
    elapsed_ms = (time.perf_counter() - t0) * 1000.0
    total_plies = max(int(plies.sum()), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        branching = np.where(plies > 0, summary[:, 1] / np.maximum(plies, 1), 0.0)

    def col(name: str, values: object) -> pa.Array:
        """``values`` as an Arrow array of the type of GAME_SCHEMA's column ``name``."""
        return pa.array(values, type=GAME_SCHEMA.field(name).type)

    return {
        "rules": col("rules", [rules_spec] * n),
        "red": col("red", [s.canonical for s in red_specs]),
        "blue": col("blue", [s.canonical for s in blue_specs]),
        "opening_plies": col("opening_plies", np.full(n, opening_plies, dtype=np.int16)),
        "ply_cap": col("ply_cap", np.full(n, ply_cap, dtype=np.int32)),
        "winner": col("winner", _WINNER_BY_STATUS[status]),
        "reason": col("reason", _REASON_BY_CODE[reason]),
        "plies": col("plies", plies.astype(np.int32)),
        "red_captures": col("red_captures", red_caps.astype(np.int16)),
        "blue_captures": col("blue_captures", blue_caps.astype(np.int16)),
        "red_pieces_left": col("red_pieces_left", summary[:, 4].astype(np.int8)),
        "blue_pieces_left": col("blue_pieces_left", summary[:, 5].astype(np.int8)),
        "den_animal": col("den_animal", _ANIMAL_BY_CODE[den]),
        "branching": col("branching", branching.astype(np.float32)),
        "moves": pa.ListArray.from_arrays(pa.array(move_offsets), pa.array(moves)),
        "captures": pa.ListArray.from_arrays(pa.array(cap_offsets), capture_structs),
        "duration_ms": col("duration_ms", (elapsed_ms * plies / total_plies).astype(np.float32)),
        **{f.name: pa.nulls(n, f.type) for f in V2_FIELDS},  # no clock, forfeit or engine
    }
