"""A small seeded random generator for the compiled kernels (xorshift64).

The state is a ``uint64[1]`` array, so a kernel can draw from it and the caller keeps it.
Only shifts and xors are used, so it behaves the same with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15  # splitmix64's increment: 2**64 / the golden ratio
_NONZERO = 0x2545F4914F6CDD1D  # the state used when a seed mixes to 0 (xorshift's fixed point)


def mix64(z: int) -> int:
    """splitmix64's finaliser of a 64-bit integer: the one seed mix of the project (every
    seed of a game, a bot, an opening or a suite's order is derived with it)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def mix64_array(z: np.ndarray) -> np.ndarray:
    """:func:`mix64` of every element of a uint64 array (array arithmetic wraps)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def seed_word(seed: int) -> int:
    """The generator word of :func:`seed_state` (splitmix64's first output, never zero)."""
    return mix64((int(seed) + GOLDEN) & MASK64) or _NONZERO


def seed_words(seeds: np.ndarray) -> np.ndarray:
    """:func:`seed_word` of every seed of an int64 array (taken mod 2**64), as uint64."""
    z = mix64_array(seeds.view(np.uint64) + np.uint64(GOLDEN))
    return np.where(z == 0, np.uint64(_NONZERO), z)


def seed_state(seed: int) -> np.ndarray:
    """A fresh generator state from any integer seed (mixed with splitmix64, never zero)."""
    return np.array([seed_word(seed)], dtype=np.uint64)


@kernel
def rng_next(s):
    """The next 64 random bits."""
    x = s[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    s[0] = x
    return x


@kernel
def rng_below(s, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**31``."""
    return np.int64(((rng_next(s) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel
def rng_float(s):
    """A uniform float in ``[0, 1)``."""
    return np.float64(rng_next(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
