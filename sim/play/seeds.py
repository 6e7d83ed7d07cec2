"""Seeds and colours of a batch's games, from the batch seed and the game index only.

Never from the order of execution: game ``i`` of a batch gets the same seed, opening seed,
pair and colours whichever worker plays it, and whenever.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from dataclasses import dataclass

MAX_SEED = 2**63 - 1
_GAME_DOMAIN = 0
_OPENING_DOMAIN = 1


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
