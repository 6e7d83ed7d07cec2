"""The view in the URL: every sidebar filter and page setting is mirrored in the address,
so a copied link opens the same view.

A widget whose value the URL keeps is declared with :func:`keep` just before it is drawn
(its session-state key, the URL parameter, the kind of value and, for a choice, its
options). The first time a session declares a key, the URL's value, if it is still valid,
becomes the widget's value; values that are not valid any more (a batch that was deleted,
a page past the last) are dropped without a word. After each run :func:`sync` writes the
declared values back (what equals its default is left out, so links stay short) and drops
every other parameter (another page's, or one the app does not know), but the language's
and the fox setting's.

The URL is read with bounds: a value longer than :data:`MAX_CHARS` or a list longer than
:data:`MAX_ITEMS` is ignored, so a long or hostile address cannot slow the app down.
The language and fox settings (``lang``, ``fox``) are kept by :mod:`dashboard.lang`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

MAX_CHARS = 2000  # longest value of one parameter that is read
MAX_ITEMS = 200  # most values of a list parameter that are read
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
KINDS = ("list", "bool", "int", "float", "choice", "str")
_RUN = "_url_run"  # session: the parameters declared in this run -> their Kept
_DONE = "_url_restored"  # session: the parameters already read from the URL

# Parameters kept by others: the language and fox settings (dashboard.lang), Streamlit's own.
OTHERS = frozenset({"lang", "fox", "embed", "embed_options"})


@dataclass(frozen=True)
class Kept:
    """One URL-kept widget value: its session key, URL parameter, kind and default.

    ``kind``: ``list`` (a multiselect; repeated parameters, or comma-separated with
    ``comma``), ``bool`` (``1``), ``int`` or ``float`` (between ``low`` and ``high``),
    ``choice`` (one of ``options``, written as ``str(option)``) or ``str`` (free text,
    checked by ``valid``)."""

    key: str
    param: str
    kind: str
    default: Any = None
    options: tuple[Any, ...] | None = None
    low: float | None = None
    high: float | None = None
    comma: bool = False
    valid: Callable[[str], object] | None = None  # truthy: the value is still valid

    def decode(self, raw: list[str]) -> tuple[bool, Any]:
        """``(True, value)`` for a valid URL value, ``(False, None)`` otherwise."""
        if not raw or len(raw) > MAX_ITEMS or any(len(v) > MAX_CHARS for v in raw):
            return False, None
        if self.kind == "list":
            items = [p for v in raw for p in (v.split(",") if self.comma else [v]) if p]
            known = {str(o): o for o in self.options or ()}
            chosen = list(dict.fromkeys(known[i] for i in items[:MAX_ITEMS] if i in known))
            return True, chosen
        word = raw[-1]
        if self.kind == "bool":
            low = word.strip().lower()
            return (True, low in TRUE_WORDS) if low in TRUE_WORDS + FALSE_WORDS else (False, None)
        if self.kind == "int":
            if not (word.isascii() and word.isdigit() and len(word) <= 12):
                return False, None
            return self._bounded(int(word))
        if self.kind == "float":
            try:
                x = float(word) if len(word) <= 32 else math.nan
            except ValueError:
                return False, None
            return self._bounded(x) if math.isfinite(x) else (False, None)
        if self.kind == "choice":
            known = {str(o): o for o in self.options or ()}
            return (True, known[word]) if word in known else (False, None)
        ok = self.valid is None or _checked(self.valid, word)
        return (True, word) if ok else (False, None)

    def _bounded(self, n: float) -> tuple[bool, Any]:
        fits = (self.low is None or n >= self.low) and (self.high is None or n <= self.high)
        return (True, n) if fits else (False, None)

    def encode(self, value: Any) -> list[str] | None:
        """The parameter's values for ``value``; None when the URL should not name it."""
        if value is None or value == self.default:
            return None
        if self.kind == "list":
            items = [str(v) for v in value]
            if not items:
                return None
            return [",".join(items)] if self.comma else items
        if self.kind == "bool":
            return ["1"] if value else ["0"]
        return [str(value)]


def _checked(valid: Callable[[str], object], word: str) -> bool:
    try:
        return bool(valid(word))
    except Exception:  # noqa: BLE001 - a value the check refuses is just not restored
        return False


def _params() -> Any | None:
    try:
        return st.query_params
    except Exception:  # noqa: BLE001 - no URL outside a browser session
        return None


def begin_run() -> None:
    """Start a run: no parameter is declared yet (``app.py`` calls it first)."""
    st.session_state[_RUN] = {}


def keep(
    key: str,
    kind: str,
    *,
    param: str | None = None,
    default: Any = None,
    options: Sequence[Any] | None = None,
    low: float | None = None,
    high: float | None = None,
    comma: bool = False,
    valid: Callable[[str], object] | None = None,
) -> str:
    """Declare that the URL keeps the widget ``key`` (call it just before the widget is
    drawn); on the session's first declaration the URL's valid value is restored.
    Returns ``key``."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    opts = tuple(options) if options is not None else None
    kept = Kept(key, param or key, kind, default, opts, low, high, comma, valid)
    state = st.session_state
    state.setdefault(_RUN, {})[kept.param] = kept
    done = state.setdefault(_DONE, set())
    if kept.param not in done:
        done.add(kept.param)
        params = _params()
        if params is not None and kept.param in params:
            ok, value = kept.decode([str(v) for v in params.get_all(kept.param)])
            if ok:
                state[key] = value
    return key


def sync() -> None:
    """Write this run's declared values into the URL and drop the parameters this run did
    not declare, but :data:`OTHERS` (the URL is replaced at once, and only when it
    differs)."""
    params = _params()
    if params is None:
        return
    declared: dict[str, Kept] = st.session_state.get(_RUN) or {}
    try:
        current = {name: list(params.get_all(name)) for name in params}
        wanted = {name: values for name, values in current.items() if name in OTHERS}
        for name, kept in declared.items():
            values = kept.encode(st.session_state.get(kept.key, kept.default))
            if values is not None:
                wanted[name] = values
        if wanted != current:
            params.from_dict({k: v[0] if len(v) == 1 else v for k, v in wanted.items()})
    except Exception:  # noqa: BLE001 - the URL is a convenience; never fail a page for it
        return
