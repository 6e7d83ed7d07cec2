"""How numbers are written, by ``dsq stats`` and by the dashboard alike.

One convention, plain ASCII but for ``±``, so that it reads the same in any terminal and
in the browser:

- missing (None, NaN, ``pd.NA``): ``-`` (:data:`MISSING`);
- infinite: ``inf`` / ``-inf`` (``+inf`` where a sign is always written);
- thousands separated by commas, in counts and in decimals: ``12,345``, ``1,234.5``;
- percentages with one decimal: ``52.3%``; differences of proportions in signed
  percentage points: ``+3.2``;
- intervals in brackets, the bounds written like the estimate: ``[48.1%, 52.3%]``,
  labelled with their level where no table header says it: ``95% CI [48.1%, 52.3%]``;
- p-values with three decimals, tiny ones as an upper bound: ``p = 0.031``, ``p < 0.001``;
- an estimate with its error: ``+544.7 ± 71.4``;
- an Elo figure (:func:`elo`): ``+12.3 ± 5.1`` with a normal interval, ``+668.8 [+466.7,
  +846.2]`` with an asymmetric one, and for a sweep, whose Elo is infinite and interval
  open, the finite bound alone: ``> +597.9``.

Every formatter takes the value first and the number of decimals second, so one can be
passed to another (:func:`interval`). Tests format the statistics layer's values with these
same functions and compare them with what the CLI and the pages show.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

MISSING = "-"
P_FLOOR = 0.001  # smaller p-values are written "< 0.001"

Formatter = Callable[[Any, int], str]


def is_missing(x: Any) -> bool:
    """True for None, NaN (Python or numpy), ``pd.NA`` and ``pd.NaT``."""
    if x is None:
        return True
    if isinstance(x, int | str):
        return False
    try:
        return math.isnan(x)
    except TypeError:
        return type(x).__name__ in ("NAType", "NaTType")


def _number(x: Any) -> float | None:
    """``x`` as a float, or None when it is missing or not a number."""
    if is_missing(x) or isinstance(x, str):
        return None
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _text(x: Any) -> str:
    """What is written for a value that is not a number: ``-`` when missing, else ``str``."""
    return MISSING if is_missing(x) else str(x)


def count(n: Any, digits: int = 0) -> str:
    """A whole number with thousands separators: ``12,345``; ``-`` when missing; text that
    is not a number as it is.

    ``digits`` is accepted (and ignored) so that ``count`` fits :func:`interval`."""
    try:
        return f"{operator.index(n):,}"  # int, bool, numpy integers: exact at any size
    except TypeError:
        pass
    f = _number(n)
    if f is None:
        return _text(n)
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f"{int(f):,}"


def num(x: Any, digits: int = 1) -> str:
    """A number with ``digits`` decimals and separators: ``1,234.5``, ``-0.3``, ``inf``;
    ``-`` when missing. Text that is not a number is returned as it is."""
    f = _number(x)
    if f is None:
        return _text(x)
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f"{f:,.{digits}f}"


def median(x: Any) -> str:
    """A median of whole numbers (plies): ``298``, or ``298.5`` halfway between two;
    never ``298.0``. ``-`` when missing."""
    f = _number(x)
    if f is None or math.isinf(f) or math.isnan(f):
        return num(x)
    return count(int(f)) if f.is_integer() else num(f, 1)


def signed(x: Any, digits: int = 1, unit: str = "") -> str:
    """A number that always shows its sign: ``+3.2``, ``-1.0``, ``+inf``, with an optional
    ``unit`` appended (``" pts"``); ``-`` when missing."""
    f = _number(x)
    if f is None:
        return MISSING
    if math.isinf(f):
        return ("+inf" if f > 0 else "-inf") + unit
    return f"{f:+,.{digits}f}{unit}"


def pct(p: Any, digits: int = 1) -> str:
    """A fraction as a percentage: ``0.5234 -> 52.3%``; ``-`` when missing."""
    f = _number(p)
    if f is None:
        return MISSING
    if math.isinf(f):
        return ("inf" if f > 0 else "-inf") + "%"
    return f"{100 * f:,.{digits}f}%"


def pts(d: Any, digits: int = 1, unit: str = "") -> str:
    """A difference of two fractions in signed percentage points: ``0.032 -> +3.2`` (with
    ``unit`` appended: ``+3.2 pts``); ``-`` when missing."""
    f = _number(d)
    return MISSING if f is None else signed(100 * f, digits, unit)


def interval(low: Any, high: Any, form: Formatter = pct, digits: int = 1) -> str:
    """``[low, high]`` with both bounds written by ``form`` (``pct``, ``num``, ``signed``,
    ``pts``...) to ``digits`` decimals; ``-`` when either bound is missing."""
    if is_missing(low) or is_missing(high):
        return MISSING
    return f"[{form(low, digits)}, {form(high, digits)}]"


def level(confidence: float = 0.95) -> str:
    """A confidence level as a percentage: ``0.95 -> 95%``, ``0.999 -> 99.9%``."""
    return f"{100 * confidence:.6g}%"


def ci_label(confidence: float = 0.95) -> str:
    """The name of an interval at this level: ``95% CI``, ``99.9% CI``."""
    return f"{level(confidence)} CI"


def pct_interval(low: Any, high: Any, digits: int = 1, confidence: float = 0.95) -> str:
    """A labelled interval of fractions: ``95% CI [48.1%, 52.3%]`` (``95% CI -`` when a
    bound is missing)."""
    return f"{ci_label(confidence)} {interval(low, high, pct, digits)}"


def num_interval(low: Any, high: Any, digits: int = 1, confidence: float = 0.95) -> str:
    """A labelled interval of numbers: ``95% CI [301.2, 310.8]``."""
    return f"{ci_label(confidence)} {interval(low, high, num, digits)}"


def pts_interval(low: Any, high: Any, digits: int = 1, confidence: float = 0.95) -> str:
    """A labelled interval of a difference of fractions, in percentage points:
    ``95% CI [-1.8, +3.2] pts``."""
    body = interval(low, high, pts, digits)
    return f"{ci_label(confidence)} {body}" + ("" if body == MISSING else " pts")


def p_text(p: Any) -> str:
    """A p-value on its own (a table cell): ``0.031``, ``<0.001``; ``-`` when missing."""
    f = _number(p)
    if f is None:
        return MISSING
    return f"<{P_FLOOR:g}" if f < P_FLOOR else f"{f:.3f}"


def p_value(p: Any) -> str:
    """A p-value in a sentence: ``p = 0.031``, ``p < 0.001``; ``p = -`` when missing."""
    t = p_text(p)
    return f"p < {t[1:]}" if t.startswith("<") else f"p = {t}"


def plus_minus(x: Any, error: Any, digits: int = 1) -> str:
    """A signed estimate with its error: ``+544.7 ± 71.4``; ``-`` when the estimate is
    missing. (An Elo, whose interval may be open, is written by :func:`elo`.)"""
    if is_missing(x):
        return MISSING
    return f"{signed(x, digits)} ± {num(error, digits)}"


def elo(point: Any, error: Any, low: Any, high: Any, digits: int = 1) -> str:
    """An Elo figure with its interval, never ``inf``: ``+12.3 ± 5.1`` (a normal interval,
    ``error`` its half-width); ``+668.8 [+466.7, +846.2]`` (an asymmetric interval:
    ``error`` missing); ``> +597.9`` / ``< -597.9`` for a sweep (``point`` infinite, the
    interval open at that end: only its finite bound is known); ``-`` when missing. Takes
    the fields of :class:`sim.stats.elo.EloEstimate` (or the matching table columns)."""
    p, lo, hi = _number(point), _number(low), _number(high)
    if p is None:
        return MISSING
    closed = lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi)
    if closed and math.isfinite(p):
        if _number(error) is not None and math.isfinite(float(error)):
            return plus_minus(p, error, digits)
        return f"{signed(p, digits)} {interval(lo, hi, signed, digits)}"
    if hi is not None and math.isinf(hi) and lo is not None and math.isfinite(lo):
        bound = f"> {signed(lo, digits)}"
    elif lo is not None and math.isinf(lo) and hi is not None and math.isfinite(hi):
        bound = f"< {signed(hi, digits)}"
    else:
        return MISSING if math.isinf(p) else signed(p, digits)
    return bound if math.isinf(p) else f"{signed(p, digits)} ({bound})"


def elo_estimate(e: Any, digits: int = 1) -> str:
    """:func:`elo` of an :class:`sim.stats.elo.EloEstimate` (``-`` for None)."""
    if e is None:
        return MISSING
    return elo(e.point, e.error, e.low, e.high, digits)


def wdl(wins: Any, draws: Any, losses: Any, sep: str = "-") -> str:
    """Wins, draws and losses: ``1,079-90-31`` (``sep=" / "``: ``1,079 / 90 / 31``)."""
    return sep.join(count(x) for x in (wins, draws, losses))
