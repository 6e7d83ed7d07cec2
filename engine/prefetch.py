"""A hint to the processor to bring a row of a table into its cache ahead of its use.

The alpha-beta search probes its transposition table once per node at a random slot: a
load from main memory that stalls the search. ``prefetch_row(table, row)`` starts that
load early (LLVM's ``llvm.prefetch``, a read kept in every cache level) and returns at
once; it changes nothing, so with ``NUMBA_DISABLE_JIT=1`` it is plain Python doing nothing.
"""

from __future__ import annotations

from typing import Any

import llvmlite.ir as llvm_ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

__all__ = ["prefetch_row"]


def prefetch_row(table: Any, row: int) -> None:
    """Hint that ``table[row]`` (a row of a 2D C-contiguous array) is read soon."""
    return None


@intrinsic
def _prefetch(typingctx, table, row):  # noqa: ARG001 - numba's intrinsic signature
    """LLVM's prefetch of the first element of ``table[row]`` (no bounds check: a hint
    never faults)."""
    if not (isinstance(table, types.Array) and table.ndim == 2 and table.layout == "C"):
        return None
    if not isinstance(row, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # noqa: ARG001
        tabty = signature.args[0]
        arr = context.make_array(tabty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer2(
            context,
            builder,
            data=arr.data,
            shape=cgutils.unpack_tuple(builder, arr.shape, 2),
            strides=cgutils.unpack_tuple(builder, arr.strides, 2),
            layout=tabty.layout,
            inds=[idx, zero],
        )
        i8p = llvm_ir.IntType(8).as_pointer()
        i32 = llvm_ir.IntType(32)
        fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        # read (0), keep in every cache level (3), data cache (1)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(table, row), codegen


@overload(prefetch_row, inline="always")
def _prefetch_row_compiled(table, row):
    def impl(table, row):
        _prefetch(table, row)

    return impl
