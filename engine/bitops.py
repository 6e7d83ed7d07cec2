"""Bit counting for the bitboard kernels: the number of set bits and the lowest one.

Compiled code gets the processor's own instructions (LLVM's ``ctpop`` and ``cttz``);
with ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python on ``int``. A
bitboard is an ``int64`` whose bit ``sq`` stands for square ``sq`` (bit 63 is never set).
"""

from __future__ import annotations

import llvmlite.ir as llvm_ir
import numpy as np
from numba import types
from numba.extending import intrinsic, overload

__all__ = ["lowest_bit", "popcount"]


def popcount(x: int) -> int:
    """The number of set bits of a bitboard."""
    return int(x).bit_count()


def lowest_bit(x: int) -> int:
    """The index of the lowest set bit of a non-zero bitboard."""
    x = int(x)
    return (x & -x).bit_length() - 1


@intrinsic
def _ctpop(typingctx, x):  # noqa: ARG001 - numba's intrinsic signature
    """LLVM's population count of an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # noqa: ARG001
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):  # noqa: ARG001 - numba's intrinsic signature
    """LLVM's count of trailing zeros of a non-zero int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # noqa: ARG001
        return builder.cttz(args[0], llvm_ir.Constant(llvm_ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@overload(popcount, inline="always")
def _popcount_compiled(x):
    def impl(x):
        return _ctpop(np.int64(x))

    return impl


@overload(lowest_bit, inline="always")
def _lowest_bit_compiled(x):
    def impl(x):
        return _cttz(np.int64(x))

    return impl
