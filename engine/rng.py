"""A small seeded random generator for the compiled kernels (xorshift64).

The state is a ``uint64[1]`` array, so a kernel can draw from it and the caller keeps it.
Only shifts and xors are used, so it behaves the same with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel

_MASK64 = (1 << 64) - 1


def seed_state(seed: int) -> np.ndarray:
    """A fresh generator state from any integer seed (mixed with splitmix64, never zero)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return np.array([z or 0x2545F4914F6CDD1D], dtype=np.uint64)


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
