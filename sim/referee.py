"""The referee: one game between two bot specs, recorded as a GAME_SCHEMA row (a dict).

Generators (all :func:`engine.rng.seed_state` xorshift states):

- the opening (the first ``opening_plies`` plies, uniform among the legal moves) draws
  from ``seed_state(opening_seed)``, ``opening_seed`` defaulting to ``seed``, so the two
  games of a colour-swapped pair given the same ``opening_seed`` share their opening;
- Red's bot draws from ``seed_state(bot_seed(seed, 0))`` and Blue's from
  ``seed_state(bot_seed(seed, 1))``, where :func:`bot_seed` mixes the game seed with the
  colour through splitmix64.

Same arguments, same game. When both bots are ``random`` or ``greedy`` the whole game
runs in one compiled loop (:func:`sim.bots.fast.play_fast`); otherwise the referee asks
each bot for its move ply by ply.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

import numpy as np

from engine import core
from engine.errors import DsqError, MoveError
from engine.fen import parse_fen
from engine.position import decode_move
from engine.rng import rng_below, seed_state
from engine.rules import Ruleset, parse_rules
from sim.bots import fast
from sim.bots.spec import DEFAULT_VALUES, BotSpec, parse_bot
from sim.schema import ANIMALS

_MASK64 = (1 << 64) - 1
_FAST_KINDS = {"random": fast.RANDOM, "greedy": fast.GREEDY}
_WINNERS = ("", "red", "blue", "draw")
_VALUES = np.asarray(DEFAULT_VALUES, dtype=np.int64)


def bot_seed(seed: int, side: int) -> int:
    """The seed of ``side``'s bot (0 Red, 1 Blue) in the game of seed ``seed``."""
    z = (int(seed) * 2 + 1 + side * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


@lru_cache(maxsize=64)
def _rules(rules: Ruleset | str) -> tuple[str, Ruleset, np.ndarray, np.ndarray]:
    ruleset = parse_rules(rules)
    ra = ruleset.as_array()
    return ruleset.spec, ruleset, ra, parse_fen("start", ra, 1)


@lru_cache(maxsize=256)
def _bot(spec: str) -> BotSpec:
    return parse_bot(spec)


def _check_int(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise DsqError(f"{name} must be a whole number >= {low}, not {value!r}")
    return int(value)


def _start_state(fen: str | None, ra: np.ndarray, start: np.ndarray, ply_cap: int) -> np.ndarray:
    st = core.new_state(ply_cap + 1)
    if fen is None:
        st[: start.shape[0]] = start
    else:
        parsed = parse_fen(fen, ra, 1)
        st[: parsed.shape[0]] = parsed
    return st


def play_game(
    rules: Ruleset | str,
    red: str,
    blue: str,
    seed: int,
    opening_plies: int = 0,
    ply_cap: int = 1000,
    opening_seed: int | None = None,
    fen: str | None = None,
) -> dict[str, Any]:
    """Play one game and return its record (the per-game columns of GAME_SCHEMA).

    ``fen`` (optional, not stored in the record) starts from another position.
    Raises DsqError on a bad rules spec, bot spec or number.
    """
    t0 = time.perf_counter()
    rules_spec, ruleset, ra, start = _rules(rules if isinstance(rules, Ruleset) else str(rules))
    red_spec, blue_spec = _bot(str(red)), _bot(str(blue))
    seed = _check_int("seed", seed, -(2**63))
    opening_plies = _check_int("opening_plies", opening_plies, 0)
    ply_cap = _check_int("ply_cap", ply_cap, 1)
    oseed = seed if opening_seed is None else _check_int("opening_seed", opening_seed, -(2**63))
    st = _start_state(fen, ra, start, ply_cap)
    rng_open = seed_state(oseed)
    rng_red = seed_state(bot_seed(seed, 0))
    rng_blue = seed_state(bot_seed(seed, 1))
    moves = np.empty(ply_cap, dtype=np.int32)
    if red_spec.name in _FAST_KINDS and blue_spec.name in _FAST_KINDS:
        kinds = np.array([_FAST_KINDS[red_spec.name], _FAST_KINDS[blue_spec.name]], np.int32)
        plies, branch = fast.play_fast(
            st, ra, kinds, _VALUES, rng_open, rng_red, rng_blue, opening_plies, ply_cap, moves
        )
    else:
        plies, branch = _play_stepwise(
            st,
            ruleset,
            ra,
            (red_spec, blue_spec),
            (rng_red, rng_blue),
            rng_open,
            opening_plies,
            ply_cap,
            moves,
        )
    return _record(
        st,
        rules_spec,
        red_spec,
        blue_spec,
        opening_plies,
        ply_cap,
        int(plies),
        int(branch),
        moves,
        t0,
    )


def _play_stepwise(
    st: np.ndarray,
    ruleset: Ruleset,
    ra: np.ndarray,
    specs: tuple[BotSpec, BotSpec],
    rngs: tuple[np.ndarray, np.ndarray],
    rng_open: np.ndarray,
    opening_plies: int,
    ply_cap: int,
    moves: np.ndarray,
) -> tuple[int, int]:
    from sim.bots.base import make_bot

    bots = [make_bot(specs[0], ruleset, rngs[0]), make_bot(specs[1], ruleset, rngs[1])]
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    plies = branch = 0
    while plies < ply_cap:
        n = int(core.settle(st, ra, buf))
        if n == 0:
            break
        branch += n
        if plies < opening_plies:
            mv = int(buf[rng_below(rng_open, n)])
        else:
            mv = bots[int(st[core.S_SIDE])].choose(st)
            if mv not in buf[:n]:
                raise MoveError(
                    f"bot {specs[int(st[core.S_SIDE])].canonical} chose an illegal "
                    f"move {decode_move(mv)}"
                )
        moves[plies] = mv
        core.make_move(st, ra, mv)
        plies += 1
    if plies == ply_cap:
        core.settle(st, ra, buf)
    return plies, branch


def _record(
    st: np.ndarray,
    rules_spec: str,
    red: BotSpec,
    blue: BotSpec,
    opening_plies: int,
    ply_cap: int,
    plies: int,
    branch: int,
    moves: np.ndarray,
    t0: float,
) -> dict[str, Any]:
    status = int(st[core.S_STATUS])
    if status == core.ONGOING:
        winner, reason = "draw", "ply_cap"
    else:
        winner, reason = _WINNERS[status], core.REASON_NAMES[int(st[core.S_REASON])]
    rows = fast.capture_table(st, plies).tolist()
    captures = [{"ply": i, "capturer": a, "captured": d, "square": q} for i, a, d, q in rows]
    red_caps = sum(1 for row in rows if row[1] <= 8)
    den_animal = None
    if reason == "den":
        last = int(st[core.HEADER + (plies - 1) * core.HIST_SIZE + 2])
        den_animal = ANIMALS[(last - 1) % 8]
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
        "red_pieces_left": int(st[core.S_COUNT]),
        "blue_pieces_left": int(st[core.S_COUNT + 1]),
        "den_animal": den_animal,
        "branching": branch / plies if plies else 0.0,
        "moves": moves[:plies].tolist(),
        "captures": captures,
        "duration_ms": (time.perf_counter() - t0) * 1000.0,
    }


def game_moves(record: dict[str, Any]) -> list[str]:
    """The moves of a game record decoded as ``a3a4`` strings."""
    return [decode_move(int(m)) for m in record["moves"]]
