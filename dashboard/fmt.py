"""How numbers are written on the pages (tests format the statistics layer's values with the
same functions and compare them with what the pages show)."""

from __future__ import annotations

import math
from typing import Any


def is_missing(x: Any) -> bool:
    """None or NaN."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def count(n: Any) -> str:
    """A count with thousands separators: ``12,345``; ``–`` when missing."""
    return "–" if is_missing(n) else f"{int(n):,}"


def pct(p: Any, digits: int = 1) -> str:
    """A fraction as a percentage: ``0.5234 -> 52.3%``; ``–`` when missing."""
    return "–" if is_missing(p) else f"{100 * float(p):.{digits}f}%"


def num(x: Any, digits: int = 1) -> str:
    """A number with ``digits`` decimals and separators: ``1,234.5``; ``–`` when missing,
    ``∞`` when infinite."""
    if is_missing(x):
        return "–"
    if math.isinf(float(x)):
        return "∞" if float(x) > 0 else "-∞"
    return f"{float(x):,.{digits}f}"


def pct_interval(low: Any, high: Any, digits: int = 1) -> str:
    """``95% CI 48.1–52.3%``."""
    if is_missing(low) or is_missing(high):
        return "95% CI –"
    return f"95% CI {100 * float(low):.{digits}f}–{100 * float(high):.{digits}f}%"


def num_interval(low: Any, high: Any, digits: int = 1) -> str:
    """``95% CI 301.2–310.8``."""
    if is_missing(low) or is_missing(high):
        return "95% CI –"
    return f"95% CI {float(low):,.{digits}f}–{float(high):,.{digits}f}"


def p_value(p: Any) -> str:
    """``p = 0.031``, ``p < 0.001``; ``p = –`` when missing."""
    if is_missing(p):
        return "p = –"
    return "p < 0.001" if float(p) < 0.001 else f"p = {float(p):.3f}"


def signed(x: Any, digits: int = 1, unit: str = "") -> str:
    """``+3.2`` / ``-1.0`` with an optional unit; ``–`` when missing."""
    return "–" if is_missing(x) else f"{float(x):+.{digits}f}{unit}"
