"""The user's language and display settings in the running app, and the texts in it.

The language is chosen in the sidebar (English, 简体中文, Português) and kept in the URL
(``?lang=zh``), so a link opens in the same language; without one, the browser's
preferred language decides. The fox setting (the wolf shown as a fox, letter ``F``) is
kept the same way (``?fox=1``). Pages get their texts with :func:`t` and their numbers
with :func:`nf`. The confidence level of the intervals and tests (a sidebar setting,
``?confidence=90``) is :func:`confidence`; a text with a ``{level}`` field gets it filled
in (``95%``) unless the page gives one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from dashboard.i18n import (
    DEFAULT,
    LANGUAGES,
    has_text,
    language_from_locale,
    reason_name,
    result_text,
    side_name,
    text,
)
from dashboard.i18n.numbers import Numbers
from engine.errors import FenError, MoveError, RulesError
from sim.bots.params import BotSpecError
from sim.bots.spec import short_spec
from sim.report.names import animal_name
from sim.stats.query import HUMAN

LANG_KEY = "lang"
FOX_KEY = "fox"
TRUE_WORDS = ("1", "true", "yes", "on")
CONFIDENCE_KEY = "f_confidence"
CONFIDENCE_LEVELS = (80, 90, 95, 99)  # percent
DEFAULT_CONFIDENCE = 95


def _query(name: str) -> str | None:
    try:
        value = st.query_params.get(name)
    except Exception:  # noqa: BLE001 - no URL outside a browser session
        return None
    return str(value) if value is not None else None


def _browser_locale() -> str | None:
    try:
        return st.context.locale
    except Exception:  # noqa: BLE001 - no browser context (tests, bare mode)
        return None


def init_display_settings() -> None:
    """Decide the language and fox setting of this session before anything is drawn:
    the session's choice, else the URL's, else the browser's language (and no fox)."""
    state = st.session_state
    if state.get(LANG_KEY) not in LANGUAGES:
        wanted = _query(LANG_KEY)
        state[LANG_KEY] = wanted if wanted in LANGUAGES else language_from_locale(_browser_locale())
    if not isinstance(state.get(FOX_KEY), bool):
        state[FOX_KEY] = (_query(FOX_KEY) or "").lower() in TRUE_WORDS


def _sync_url() -> None:
    """Write the current choices into the URL (only what differs from it)."""
    wanted = {LANG_KEY: lang()}
    if fox():
        wanted[FOX_KEY] = "1"
    try:
        params = st.query_params
        for name, value in wanted.items():
            if params.get(name) != value:
                params[name] = value
        if not fox() and FOX_KEY in params:
            del params[FOX_KEY]
    except Exception:  # noqa: BLE001 - no URL outside a browser session
        return


def sidebar_display_settings() -> None:
    """The language selector and the fox toggle, at the top of the sidebar."""
    st.sidebar.selectbox(
        t("app.language"), list(LANGUAGES), key=LANG_KEY, format_func=LANGUAGES.__getitem__
    )
    st.sidebar.toggle(t("app.fox"), key=FOX_KEY, help=t("app.fox_help"))
    _sync_url()


def lang() -> str:
    """The language of this session (``en``, ``zh`` or ``pt``)."""
    value = st.session_state.get(LANG_KEY)
    return value if value in LANGUAGES else DEFAULT


def fox() -> bool:
    """Whether the wolf is shown as a fox."""
    return bool(st.session_state.get(FOX_KEY, False))


def confidence() -> float:
    """The confidence level of the intervals and tests the pages show (0.95 by default)."""
    level = st.session_state.get(CONFIDENCE_KEY, DEFAULT_CONFIDENCE)
    return (level if level in CONFIDENCE_LEVELS else DEFAULT_CONFIDENCE) / 100


def t(key: str, /, **fields: Any) -> str:
    """The text ``key`` of the catalogue in this session's language (a ``{level}`` field,
    when the page gives none, is the confidence level: ``95%``)."""
    chosen = lang()
    if "level" not in fields and "{level}" in text(chosen, key):
        fields["level"] = nf().level()
    return text(chosen, key, **fields)


def nf() -> Numbers:
    """The number formatters of this session's language (intervals named at the
    session's confidence level)."""
    return Numbers(lang(), confidence())


def animal(name: str | int) -> str:
    """An animal's display name (the fox setting applied)."""
    return animal_name(name, lang(), fox())


def side(name: str | None) -> str:
    """``red`` / ``blue`` / ``draw`` as this language says it (红方, Vermelho, ...)."""
    return side_name(lang(), name)


def reason(name: str | None) -> str:
    """An end reason as this language says it (``den`` -> 走入兽穴 ...)."""
    return reason_name(lang(), name)


def result(winner: str | None, why: str | None) -> str:
    """``Red wins (den)``, ``Draw (...)`` or ``unfinished``, in this language."""
    return result_text(lang(), winner, why)


def piece(letter: str | None) -> str:
    """A FEN piece letter as words: ``c`` -> ``Blue Cat`` / ``蓝方猫`` (fox setting applied)."""
    if not letter:
        return ""
    colour = "red" if letter.isupper() else "blue"
    return t("board.piece", side=side(colour), animal=animal(letter))


def error_text(exc: BaseException) -> str:
    """A refusal in this language. The dashboard's own refusals (``LimitError``) are the
    catalogue's sentence (``errors.<key>``); a refusal of the engine or the simulator is
    the catalogue's sentence for its kind (FEN, rules, bot, move, recording) followed by
    the engine's own message as a detail."""
    key = getattr(exc, "key", None)
    fields = getattr(exc, "fields", None)
    if isinstance(key, str) and isinstance(fields, dict):
        return t(f"errors.{key}", **fields)
    # lazy: start-up time (numba kernels)
    from sim.records.human import RecordError

    kinds = (
        (FenError, "fen"), (RulesError, "rules"), (BotSpecError, "bot"), (MoveError, "move"),
        (RecordError, "record"),
    )  # fmt: skip
    kind = next((name for cls, name in kinds if isinstance(exc, cls)), "other")
    message = str(exc).strip()
    detail = (message.splitlines()[0] if message else type(exc).__name__).replace("`", "'")
    return t("errors.with_detail", sentence=t(f"errors.{kind}"), detail=detail)


def labels(prefix: str) -> Callable[[Any], str]:
    """A ``format_func`` for a widget's options: ``value -> t(prefix + value)``, the value
    itself when the catalogue has no such key. The language is fixed when it is made, so
    the function works wherever Streamlit calls it (and in AppTest's thread)."""
    chosen = lang()

    def label(value: Any) -> str:
        key = f"{prefix}{value}"
        return text(chosen, key) if has_text(key) else str(value)

    return label


def player_label() -> Callable[[str], str]:
    """A ``format_func`` for player specs: the bot's short spec, or this language's word
    for a person (a player recorded as ``human``)."""

    person = t("common.person")
    return lambda spec: person if spec == HUMAN else short_spec(spec)


def player(spec: str) -> str:
    """A player as shown: the bot's short spec, or a person."""
    return player_label()(spec)
