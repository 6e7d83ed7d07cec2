"""Seeds and colours of a batch's games, from the batch seed and the game index only.

Never from the order of execution: game ``i`` of a batch gets the same seed, opening seed,
pair and colours whichever worker plays it, and whenever.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MAX_SEED = 2**63 - 1
_GAME_DOMAIN = 0
_OPENING_DOMAIN = 1
_SUITE_DOMAIN = 2


def _derive(batch_seed: int, index: int, domain: int) -> int:
    """A 63-bit seed from (batch seed, index, domain): BLAKE2b of their fixed-width bytes."""
    data = struct.pack("<QqB", int(batch_seed) & 0xFFFFFFFFFFFFFFFF, int(index), domain)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little") & MAX_SEED


def new_batch_seed() -> int:
    """A fresh random batch seed in ``[0, 2**63)`` (used when ``--seed`` is not given)."""
    return secrets.randbits(63)


def game_seed(batch_seed: int, game_index: int) -> int:
    """The seed of game ``game_index`` (a non-negative int64)."""
    return _derive(batch_seed, game_index, _GAME_DOMAIN)


def pair_id(game_index: int, swap: bool) -> int:
    """The pair of a game: ``game_index // 2`` with colour swapping, else ``game_index``."""
    return game_index // 2 if swap else game_index


def opening_seed(batch_seed: int, pair: int) -> int:
    """The seed of the random opening shared by the games of pair ``pair``."""
    return _derive(batch_seed, pair, _OPENING_DOMAIN)


def suite_seed(batch_seed: int, cycle: int) -> int:
    """The seed of the order of an opening suite's ``cycle``-th pass (``--openings-order
    random``)."""
    return _derive(batch_seed, cycle, _SUITE_DOMAIN)


@dataclass(frozen=True)
class GamePlan:
    """Everything that decides one game apart from the rules: who plays which colour, seeds."""

    game_index: int
    pair_id: int
    seed: int
    opening_seed: int
    red: str
    blue: str


def plan_game(batch_seed: int, game_index: int, bot_a: str, bot_b: str, swap: bool) -> GamePlan:
    """The plan of game ``game_index``: ``bot_a`` is red, except on odd indices with ``swap``."""
    pid = pair_id(game_index, swap)
    red, blue = (bot_b, bot_a) if swap and game_index % 2 == 1 else (bot_a, bot_b)
    return GamePlan(
        game_index=game_index,
        pair_id=pid,
        seed=game_seed(batch_seed, game_index),
        opening_seed=opening_seed(batch_seed, pid),
        red=red,
        blue=blue,
    )


@dataclass(frozen=True)
class ChunkPlan:
    """The plans of many games of one batch at once (see :func:`plan_games`), as arrays."""

    game_index: np.ndarray
    pair_id: np.ndarray
    seed: np.ndarray
    opening_seed: np.ndarray
    a_is_red: np.ndarray


def _derive_many(batch_seed: int, values: np.ndarray, domain: int) -> np.ndarray:
    """:func:`_derive` of every value, as an int64 array."""
    # lazy: start-up time (numpy: the CLI reads MAX_SEED from here for its argument checks)
    import numpy as np

    pack = struct.Struct("<QqB").pack
    blake2b = hashlib.blake2b
    bs = int(batch_seed) & 0xFFFFFFFFFFFFFFFF
    digests = b"".join(blake2b(pack(bs, v, domain), digest_size=8).digest() for v in values)
    return (np.frombuffer(digests, dtype="<u8") & np.uint64(MAX_SEED)).astype(np.int64)


def plan_games(
    batch_seed: int, indices: Sequence[int], swap: bool, openings: bool = True
) -> ChunkPlan:
    """The plans of games ``indices`` (what :func:`plan_game` gives each of them, ``red``
    being ``bot_a`` where ``a_is_red``), computed together; without ``openings`` (games
    with no random opening ply, which draw nothing from it) every opening seed is 0."""
    # lazy: start-up time (numpy: the CLI reads MAX_SEED from here for its argument checks)
    import numpy as np

    idx = np.asarray(indices, dtype=np.int64)
    pairs = idx // 2 if swap else idx
    seeds = _derive_many(batch_seed, idx.tolist(), _GAME_DOMAIN)
    if openings:
        unique, where = np.unique(pairs, return_inverse=True)
        opening = _derive_many(batch_seed, unique.tolist(), _OPENING_DOMAIN)[where]
    else:
        opening = np.zeros(idx.size, dtype=np.int64)
    a_is_red = (idx % 2 == 0) if swap else np.ones(idx.size, dtype=bool)
    return ChunkPlan(idx, pairs, seeds, opening, a_is_red)
