"""Plain-text tables with aligned columns (``dsq stats``, ``dsq batches``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence


def aligned_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: Collection[int] | None = None,
    indent: str = "  ",
) -> str:
    """The header and rows as lines of columns padded to a common width, two spaces apart.

    ``right`` holds the indices of the columns whose cells are right-aligned (by default
    every column but the first; the header is always left-aligned); every line starts with
    ``indent`` and has no trailing spaces.
    """
    right = set(range(1, len(header))) if right is None else set(right)
    cells = [list(header), *(list(r) for r in rows)]
    for r in cells:
        if len(r) != len(header):
            raise ValueError(f"a row has {len(r)} cells, the header {len(header)}: {r}")
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = []
    for k, r in enumerate(cells):
        parts = [
            c.rjust(w) if i in right and k > 0 else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append((indent + "  ".join(parts)).rstrip())
    return "\n".join(lines)
