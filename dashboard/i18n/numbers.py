"""Numbers written for a language: a thin layer over :mod:`sim.report.fmt`.

:mod:`sim.report.fmt` writes every number one way (``12,345``, ``1,234.5``, ``52.3%``,
``[48.1%, 52.3%]``). English and Chinese keep that; Portuguese swaps the separators
inside each number (``12.345``, ``1.234,5``, ``52,3%``) and separates the bounds of an
interval with a semicolon (``[48,1%; 52,3%]``), since its comma is the decimal mark.
Labels (``95% CI``, ``pts``) come from the language's catalogue.

Tests format the statistics layer's values with these same methods and compare them with
what the pages show.
"""

from __future__ import annotations

import re
from typing import Any

from dashboard.i18n import text
from sim.report import fmt

# A number as fmt writes it: digits, optional thousands groups, optional decimals.
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_SWAP = str.maketrans({",": ".", ".": ","})
DECIMAL_COMMA = frozenset({"pt"})


class Numbers:
    """The number formatters of one language (same names and arguments as ``fmt``)."""

    def __init__(self, lang: str, confidence: float = 0.95) -> None:
        self.lang = lang
        self.comma = lang in DECIMAL_COMMA
        self.confidence = confidence

    # -- the layer itself
    def local(self, written: str) -> str:
        """A text written by ``fmt`` with this language's separators inside numbers."""
        if not self.comma:
            return written
        return _NUMBER.sub(lambda m: m.group(0).translate(_SWAP), written)

    def _bounds(self, written: str) -> str:
        """An interval written by ``fmt`` (``[a, b]``) for this language."""
        out = self.local(written)
        return out.replace(", ", "; ") if self.comma else out

    @property
    def plotly_separators(self) -> str:
        """Plotly's ``layout.separators`` (decimal mark, then thousands separator)."""
        return ",." if self.comma else ".,"

    # -- the formatters
    def count(self, n: Any) -> str:
        """``fmt.count``: ``12,345`` / ``12.345``."""
        return self.local(fmt.count(n))

    def num(self, x: Any, digits: int = 1) -> str:
        """``fmt.num``: ``1,234.5`` / ``1.234,5``."""
        return self.local(fmt.num(x, digits))

    def median(self, x: Any) -> str:
        """A median of whole numbers (plies): ``298``, or ``298.5`` between two of them
        (``298,5``); never ``298.0``."""
        return self.local(fmt.median(x))

    def signed(self, x: Any, digits: int = 1) -> str:
        """``fmt.signed``: ``+3.2`` / ``+3,2``."""
        return self.local(fmt.signed(x, digits))

    def pct(self, p: Any, digits: int = 1) -> str:
        """``fmt.pct``: ``52.3%`` / ``52,3%``."""
        return self.local(fmt.pct(p, digits))

    def pts(self, d: Any, digits: int = 1) -> str:
        """``fmt.pts`` with this language's unit: ``+3.2 pts`` / ``+3,2 p.p.``."""
        written = fmt.pts(d, digits)
        if written == fmt.MISSING:
            return written
        return f"{self.local(written)} {text(self.lang, 'num.pts')}"

    def interval(self, low: Any, high: Any, form: str = "pct", digits: int = 1) -> str:
        """``fmt.interval`` with bounds written by ``fmt.<form>``: ``[48.1%, 52.3%]``."""
        return self._bounds(fmt.interval(low, high, getattr(fmt, form), digits))

    def level(self, confidence: float | None = None) -> str:
        """A confidence level as this language writes it (``95%``); this one's by default."""
        return self.local(fmt.level(self.confidence if confidence is None else confidence))

    def ci(self, confidence: float | None = None) -> str:
        """The name of an interval: ``95% CI`` / ``IC 95%`` / ``95%置信区间``."""
        return text(self.lang, "num.ci", level=self.level(confidence))

    def pct_interval(self, low: Any, high: Any, digits: int = 1) -> str:
        """``95% CI [48.1%, 52.3%]`` in this language."""
        return f"{self.ci()} {self.interval(low, high, 'pct', digits)}"

    def num_interval(self, low: Any, high: Any, digits: int = 1) -> str:
        """``95% CI [301.2, 310.8]`` in this language."""
        return f"{self.ci()} {self.interval(low, high, 'num', digits)}"

    def pts_interval(self, low: Any, high: Any, digits: int = 1) -> str:
        """``95% CI [-1.8, +3.2] pts`` in this language."""
        body = self.interval(low, high, "pts", digits)
        if body == fmt.MISSING:
            return f"{self.ci()} {body}"
        return f"{self.ci()} {body} {text(self.lang, 'num.pts')}"

    def p_text(self, p: Any) -> str:
        """``fmt.p_text``: ``0.031``, ``<0.001``."""
        return self.local(fmt.p_text(p))

    def p_value(self, p: Any) -> str:
        """``fmt.p_value``: ``p = 0.031``, ``p < 0.001``."""
        return self.local(fmt.p_value(p))

    def plus_minus(self, x: Any, error: Any, digits: int = 1) -> str:
        """``fmt.plus_minus``: ``+544.7 ± 71.4`` / ``+544,7 ± 71,4``."""
        return self.local(fmt.plus_minus(x, error, digits))

    def elo(self, point: Any, error: Any, low: Any, high: Any, digits: int = 1) -> str:
        """``fmt.elo``: ``+12.3 ± 5.1``, ``+668.8 [+466.7, +846.2]``, ``> +597.9``."""
        return self._bounds(fmt.elo(point, error, low, high, digits))

    def wdl(self, wins: Any, draws: Any, losses: Any, sep: str = " / ") -> str:
        """``fmt.wdl``: ``1,079 / 90 / 31``."""
        return self.local(fmt.wdl(wins, draws, losses, sep))

    def elo_interval(self, low: Any, high: Any, digits: int = 0) -> str:
        """An interval of signed ratings: ``[-12, +40]``."""
        return self._bounds(fmt.interval(low, high, fmt.signed, digits))
