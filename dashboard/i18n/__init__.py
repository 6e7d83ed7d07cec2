"""The dashboard's texts in every language it speaks: one catalogue per language.

Each language has one TOML file beside this module (``en.toml``, ``zh.toml``,
``pt.toml``); a ``[section]`` table holds ``key = "text"`` lines, and a text is known by
``section.key`` (``overview.games_played``). Texts are :meth:`str.format` templates:
``"{count} games"``. Adding a text is adding one line to each file; the tests fail when a
key is missing in any language, or when a template names other fields than English does.

Pure (no Streamlit): :func:`text` looks a key up for a language. The running app wraps
it with the user's choice of language (:mod:`dashboard.lang`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from sim.report.names import animal_name

FOLDER = Path(__file__).resolve().parent
# Language code -> its own name, as the selector shows it. English is the fallback.
LANGUAGES: dict[str, str] = {"en": "English", "zh": "简体中文", "pt": "Português"}
DEFAULT = "en"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, name + "."))
        elif isinstance(value, str):
            out[name] = value
        else:
            raise ValueError(f"{name}: a text must be a string, not {type(value).__name__}")
    return out


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every text of one language, by ``section.key`` (read once from ``<lang>.toml``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGUAGES)}")
    with open(FOLDER / f"{lang}.toml", "rb") as fh:
        return _flatten(tomllib.load(fh))


def has_text(key: str) -> bool:
    """Whether the English catalogue (the reference) has ``key``."""
    return key in catalogue(DEFAULT)


def text(lang: str, key: str, /, **fields: Any) -> str:
    """The text ``key`` in ``lang``, with ``fields`` filled in.

    A key missing in ``lang`` falls back to English, and one missing in English too
    shows as the key itself (the catalogue tests catch both before a release).
    """
    table = catalogue(lang if lang in LANGUAGES else DEFAULT)
    template = table.get(key)
    if template is None:
        template = catalogue(DEFAULT).get(key, key)
    return template.format(**fields) if fields else template


def counted(key: str, n: object) -> str:
    """The key of a text about ``n`` things: ``key_one`` when ``n`` is exactly one (every
    catalogue has both: ``1 game`` / ``1 partida``, ``2 games``), else ``key``."""
    value: Any = n  # a count of any numeric type, or anything else (then not one)
    try:
        one = int(value) == 1 and float(value) == 1.0
    except (TypeError, ValueError):
        one = False
    return f"{key}_one" if one and has_text(f"{key}_one") else key


def language_from_locale(locale: str | None) -> str:
    """The dashboard language for a browser locale: ``zh-CN`` -> ``zh``, ``pt-BR`` ->
    ``pt``; English for anything else or nothing."""
    if not locale:
        return DEFAULT
    primary = str(locale).replace("_", "-").split("-")[0].strip().lower()
    return primary if primary in LANGUAGES else DEFAULT


def animal(lang: str, name: str | int, fox: bool = False) -> str:
    """An animal's display name (``sim.report.names``): ``animal("zh", "elephant") == "象"``."""
    return animal_name(name, lang, fox)


def side_name(lang: str, side: str | None) -> str:
    """``red`` / ``blue`` / ``draw`` in ``lang`` (红方, Vermelho, ...); '' for None."""
    return text(lang, f"side.{side}") if side else ""


def reason_name(lang: str, reason: str | None) -> str:
    """An end reason in ``lang`` (``den`` -> 走入兽穴); an unknown one as it is stored."""
    if not reason:
        return ""
    key = f"reason.{reason}"
    return text(lang, key) if key in catalogue(DEFAULT) else reason


def result_text(lang: str, winner: str | None, reason: str | None) -> str:
    """``Red wins (den)``, ``Draw (no capture for too long)`` or ``unfinished`` in ``lang``."""
    if winner is None:
        return text(lang, "result.unfinished")
    if winner == "draw":
        return text(lang, "result.draw", reason=reason_name(lang, reason))
    return text(lang, "result.win", side=side_name(lang, winner), reason=reason_name(lang, reason))
