"""The referee's columnar fast path: many games between fast bots, straight to Arrow arrays.

When both bots of a game are ``random`` or ``greedy``, :func:`play_fast_games` plays a
whole list of games in one compiled call (:func:`sim.bots.fast.fast_games`) and returns
the per-game columns of GAME_SCHEMA as Arrow arrays, with no Python object per game or
move. Each game is exactly the one :func:`sim.play.referee.play_game` plays with the same
arguments (tested); only ``duration_ms`` differs: the call's time shared among its games
in proportion to their plies. :func:`play_fast_columns` is the same for a batch's chunk:
the seeds come as arrays, and the games stop at a deadline.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pyarrow as pa

from engine import core
from engine.codes import ANIMAL_NAMES, DEN, DRAWN, ONGOING, PLY_CAP, REASON_NAMES, Status
from engine.fen import parse_fen
from engine.rng import GOLDEN, MASK64, mix64_array, seed_words
from sim.bots import fast
from sim.bots.fast import fast_outcomes_from
from sim.bots.spec import BotSpec
from sim.openings.suite import Suite
from sim.play.referee import _FAST_KINDS, _adjudicator, _bot, _check_int, _rules
from sim.storage.schema import CAPTURE_TYPE, GAME_SCHEMA, OPTIONAL_FIELDS

# Stored strings by kernel code (a capped game, still ongoing, is stored as a draw by
# ply_cap, as :func:`sim.play.referee.outcome` does).
_WINNER_BY_STATUS = pa.array([s.winner for s in Status], type=pa.string())
_REASON_BY_CODE = pa.array(REASON_NAMES, type=pa.string())
_ANIMAL_BY_CODE = pa.array([None, *ANIMAL_NAMES], type=pa.string())


def fast_pair(red: str, blue: str) -> bool:
    """Whether both bot specs are fast bots (``random`` or ``greedy``)."""
    return _bot(str(red)).name in _FAST_KINDS and _bot(str(blue)).name in _FAST_KINDS


def generator_words(seeds: np.ndarray, opening_seeds: np.ndarray) -> np.ndarray:
    """Per game, the opening's, Red's and Blue's generator words of ``play_game`` with
    these seeds (int64 arrays): ``seed_state`` of the opening seed and of
    ``bot_seed(seed, side)`` (:mod:`sim.play.referee`), as a uint64 array (n, 3)."""
    z = seeds.view(np.uint64) * np.uint64(2) + np.uint64(1)
    red = mix64_array(z)  # bot_seed(seed, 0)
    blue = mix64_array(z + np.uint64(GOLDEN))  # bot_seed(seed, 1)
    words = (
        seed_words(opening_seeds),
        seed_words(red.view(np.int64)),
        seed_words(blue.view(np.int64)),
    )
    return np.ascontiguousarray(np.stack(words, axis=1))


def _int64s(values: Sequence[int]) -> np.ndarray:
    """Seeds as int64, any integer taken modulo 2**64 (as the generators mix them)."""
    return np.array([int(v) & MASK64 for v in values], dtype=np.uint64).view(np.int64)


@lru_cache(maxsize=1)
def load_kernels() -> None:
    """Load (or compile) the fast path's compiled code now, by playing no game."""
    _, _, ra, start, values = _rules("standard")
    kinds = np.zeros((0, 2), dtype=np.int32)
    fast.fast_games(start, ra, kinds, values, np.zeros((0, 3), dtype=np.uint64), 0, 1, 0)


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
    names = sorted({str(b) for b in (*reds, *blues)})
    code = {name: k for k, name in enumerate(names)}
    columns, _ = play_fast_columns(
        rules,
        names,
        np.array([code[str(r)] for r in reds], dtype=np.int64),
        np.array([code[str(b)] for b in blues], dtype=np.int64),
        _int64s(seeds),
        _int64s(opening_seeds),
        opening_plies,
        ply_cap,
        adjudicate=adjudicate,
        tables=tables,
    )
    return columns


def play_fast_columns(
    rules: str,
    bots: Sequence[str],
    red: np.ndarray,
    blue: np.ndarray,
    seeds: np.ndarray,
    opening_seeds: np.ndarray,
    opening_plies: int,
    ply_cap: int,
    deadline: float | None = None,
    adjudicate: str = "none",
    tables: str | None = None,
    suite: Suite | None = None,
    which: np.ndarray | None = None,
    moves: bool = True,
) -> tuple[dict[str, pa.Array], int]:
    """:func:`play_fast_games` with the bots given as indices into ``bots`` and the seeds
    as int64 arrays; the games are played in order until all are done or the
    ``time.perf_counter`` ``deadline`` has passed (at least one is played). Returns the
    columns of the games played and their number.

    With ``suite``, game ``i`` plays the suite's entry ``which[i]``: it starts from the
    entry's FEN (the ``start_fen`` column; null for the initial position) with the entry's
    moves first, as ``play_game(..., fen=, opening_moves=)`` does."""
    t0 = time.perf_counter()
    rules_spec, ruleset, ra, start, values = _rules(str(rules))
    n_all = len(red)
    if suite is None or which is None:
        starts = np.ascontiguousarray(start[None, : core.HEADER])
        which = np.zeros(n_all, dtype=np.int64)
        forced, offsets = np.zeros(0, dtype=np.int32), np.zeros(2, dtype=np.int64)
        lengths, fens = np.zeros(1, dtype=np.int64), pa.nulls(1, pa.string())
    else:
        starts, forced, offsets, fens = _suite_arrays(suite, rules_spec)
        lengths = np.diff(offsets)
        which = np.ascontiguousarray(which, dtype=np.int64)
    adj = _adjudicator(ruleset, adjudicate, tables)
    opening_plies = _check_int("opening_plies", opening_plies, 0)
    ply_cap = _check_int("ply_cap", ply_cap, 1)
    specs = [_bot(str(b)) for b in bots]
    kind = np.array([_FAST_KINDS[s.name] for s in specs], dtype=np.int32)
    kinds = np.ascontiguousarray(np.stack((kind[red], kind[blue]), axis=1), dtype=np.int32)
    rngs = generator_words(
        np.asarray(seeds, dtype=np.int64), np.asarray(opening_seeds, dtype=np.int64)
    )
    deadline_us = 0 if deadline is None else max(1, int(deadline * 1e6))
    args = (starts, which, forced, offsets, ra, kinds, values, rngs, opening_plies, ply_cap,
            deadline_us)  # fmt: skip
    if not moves and adj is None:
        plies0 = lengths[which] + opening_plies
        out = fast_outcomes_from(*args)
        return _outcome_columns(
            out, rules_spec, specs, red, blue, plies0, ply_cap, fens.take(pa.array(which))
        )
    summary, moves_, move_offsets, caps, cap_offsets = fast.fast_games_from(*args)
    n = summary.shape[0]
    if adj is not None:
        # lazy: start-up time (numba kernels)
        from sim.tablebase.adjudicate import cut_games

        summary, moves_, move_offsets, caps, cap_offsets = cut_games(
            starts, ra, adj, summary, moves_, move_offsets, caps, cap_offsets, which[:n]
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
    canonical = pa.array([s.canonical for s in specs], type=pa.string())

    def col(name: str, values: object) -> pa.Array:
        """``values`` as an Arrow array of the type of GAME_SCHEMA's column ``name``."""
        return pa.array(values, type=GAME_SCHEMA.field(name).type)

    columns = {
        "rules": pa.repeat(pa.scalar(rules_spec, pa.string()), n),
        "red": canonical.take(red[:n]),
        "blue": canonical.take(blue[:n]),
        "opening_plies": col(
            "opening_plies", (lengths[which[:n]] + opening_plies).astype(np.int16)
        ),
        "ply_cap": col("ply_cap", np.full(n, ply_cap, dtype=np.int32)),
        "winner": _WINNER_BY_STATUS.take(status),
        "reason": _REASON_BY_CODE.take(reason),
        "plies": col("plies", plies.astype(np.int32)),
        "red_captures": col("red_captures", red_caps.astype(np.int16)),
        "blue_captures": col("blue_captures", blue_caps.astype(np.int16)),
        "red_pieces_left": col("red_pieces_left", summary[:, 4].astype(np.int8)),
        "blue_pieces_left": col("blue_pieces_left", summary[:, 5].astype(np.int8)),
        "den_animal": _ANIMAL_BY_CODE.take(den),
        "branching": col("branching", branching.astype(np.float32)),
        "moves": pa.ListArray.from_arrays(pa.array(move_offsets), pa.array(moves_)),
        "captures": pa.ListArray.from_arrays(pa.array(cap_offsets), capture_structs),
        "duration_ms": col("duration_ms", (elapsed_ms * plies / total_plies).astype(np.float32)),
        **{f.name: pa.nulls(n, f.type) for f in OPTIONAL_FIELDS},  # no clock, forfeit, engine
        "start_fen": fens.take(pa.array(which[:n])),
    }
    if not moves:  # adjudicated games were cut with their moves; they are not stored
        for name in UNSTORED:
            columns[name] = pa.nulls(n, GAME_SCHEMA.field(name).type)
    return columns, n


# The columns of a game --record outcomes leaves null (with the clocks, engines, scores)
UNSTORED = ("moves", "captures", "duration_ms")


def _outcome_columns(
    out: np.ndarray,
    rules_spec: str,
    specs: Sequence[BotSpec],
    red: np.ndarray,
    blue: np.ndarray,
    opening_plies: np.ndarray,
    ply_cap: int,
    fens: pa.Array,
) -> tuple[dict[str, pa.Array], int]:
    """The columns of games played without their moves (``out``: the rows of
    :func:`sim.bots.fast.fast_outcomes_from`), built from whole arrays."""
    n = out.shape[0]
    plies = out[:, 0]
    capped = out[:, 2] == ONGOING
    reason = np.where(capped, PLY_CAP, out[:, 3])
    den = np.where(reason == DEN, (out[:, 6] - 1) % 8 + 1, 0)
    branching = out[:, 1] / np.maximum(plies, 1)
    canonical = pa.array([s.canonical for s in specs], type=pa.string())

    def col(name: str, values: np.ndarray) -> pa.Array:
        """``values`` as an Arrow array of the type of GAME_SCHEMA's column ``name``."""
        kind = GAME_SCHEMA.field(name).type
        return pa.array(values.astype(kind.to_pandas_dtype()), type=kind)

    columns = {
        "rules": pa.repeat(pa.scalar(rules_spec, pa.string()), n),
        "red": canonical.take(red[:n]),
        "blue": canonical.take(blue[:n]),
        "opening_plies": col("opening_plies", opening_plies[:n]),
        "ply_cap": pa.repeat(pa.scalar(ply_cap, pa.int32()), n),
        "winner": _WINNER_BY_STATUS.take(np.where(capped, DRAWN, out[:, 2])),
        "reason": _REASON_BY_CODE.take(reason),
        "plies": col("plies", plies),
        "red_captures": col("red_captures", out[:, 7]),
        "blue_captures": col("blue_captures", out[:, 8]),
        "red_pieces_left": col("red_pieces_left", out[:, 4]),
        "blue_pieces_left": col("blue_pieces_left", out[:, 5]),
        "den_animal": _ANIMAL_BY_CODE.take(den),
        "branching": col("branching", branching),
        **{name: pa.nulls(n, GAME_SCHEMA.field(name).type) for name in UNSTORED},
        **{f.name: pa.nulls(n, f.type) for f in OPTIONAL_FIELDS},  # no clock, forfeit, engine
        "start_fen": fens[:n],
    }
    return columns, n


@lru_cache(maxsize=8)
def _suite_arrays(suite: Suite, rules_spec: str) -> tuple[np.ndarray, ...]:
    """A suite as the compiled loop takes it: the state header of each entry's start, its
    moves (flat int32 codes) and their offsets, and the start FENs (an Arrow array)."""
    _, _, ra, start, _ = _rules(rules_spec)
    heads = [
        start[: core.HEADER]
        if e.start_fen is None
        else parse_fen(e.start_fen, ra, 1)[: core.HEADER]
        for e in suite.entries
    ]
    codes = [c for e in suite.entries for c in e.codes]
    offsets = np.zeros(len(suite) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(e.moves) for e in suite.entries])
    fens = pa.array([e.start_fen for e in suite.entries], type=pa.string())
    return np.ascontiguousarray(np.stack(heads)), np.array(codes, dtype=np.int32), offsets, fens
