"""Specs of engine bots: ``engine:NAME`` then ``key=value`` parts, e.g.
``engine:jungine,movetime=100`` or ``engine:jungine,tc=40/60+0.6,Hash=64``.

``movetime``, ``depth``, ``nodes``, ``tc`` (the limits of each search) and ``margin`` are
dsq's parameters (see the ``engine`` kind in :mod:`sim.bots.registry`); any other
``key=value`` is an option of the engine, set with ``setoption`` (its name keeps its case).
With no limit given, ``movetime=1000``. ``tc`` and ``movetime`` exclude each other.

The canonical spec is ``engine:NAME``, then the limits given (``tc``, ``movetime``,
``depth``, ``nodes``), ``margin``, then the options sorted by name. Parsing needs no
registry: whether NAME exists is checked when the bot is built.
"""

from __future__ import annotations

import re
from typing import Any

from sim.bots.params import BotSpecError
from sim.bots.registry import KINDS
from sim.core.timecontrol import parse_tc

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")
OPTION_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_ .-]{0,63}$")
LIMITS = ("tc", "movetime", "depth", "nodes")
OWN = (*LIMITS, "margin")
_PARAMS = {p.name: p for p in KINDS["engine"].params}
DEFAULT_MOVETIME = int(_PARAMS["movetime"].default)
DEFAULT_MARGIN = int(_PARAMS["margin"].default)


def parse_body(text: str, body: str) -> dict[str, Any]:
    """The params of ``engine:BODY`` (``text`` is the whole spec, for messages).

    Keys: ``engine`` (the name), ``tc`` (canonical text or None), ``movetime``, ``depth``,
    ``nodes`` (int or None), ``margin`` (int) and ``options`` (sorted ``(name, value)``).
    """
    parts = [p.strip() for p in body.split(",")] if body.strip() else []
    if not parts or not parts[0] or "=" in parts[0]:
        raise BotSpecError(
            f"bot spec {text!r}: an engine bot names its engine first: engine:NAME[,key=value...]"
        )
    name = parts[0]
    if not NAME_RE.match(name):
        raise BotSpecError(
            f"bot spec {text!r}: engine names are letters, digits and _ . + - (not {name!r})"
        )
    params: dict[str, Any] = {"engine": name, "margin": DEFAULT_MARGIN}
    options: dict[str, str] = {}
    seen: set[str] = set()
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not key:
            raise BotSpecError(f"empty parameter in bot spec {text!r}")
        if not eq or not value:
            raise BotSpecError(f"bot engine: parameter {key} needs a value: {key}=VALUE")
        low = key.lower()
        if (low if low in OWN else key) in seen:
            raise BotSpecError(f"bot engine: parameter {key} given twice")
        if low in OWN:
            seen.add(low)
            params[low] = _own_value(low, value)
        else:
            if not OPTION_RE.match(key) or any(c in value for c in "\r\n"):
                raise BotSpecError(
                    f"bot engine: {key}={value!r} is neither a parameter of dsq "
                    f"({', '.join(OWN)}) nor an engine option name"
                )
            seen.add(key)
            options[key] = value
    if params.get("tc") is not None and params.get("movetime") is not None:
        raise BotSpecError("bot engine: give tc= (a clock) or movetime= (per move), not both")
    if not any(params.get(k) is not None for k in LIMITS):
        params["movetime"] = DEFAULT_MOVETIME
    for k in LIMITS:
        params.setdefault(k, None)
    params["options"] = tuple(sorted(options.items(), key=lambda kv: kv[0].lower()))
    return params


def _own_value(key: str, value: str) -> Any:
    """The value of one of dsq's own parameters (BotSpecError when not allowed)."""
    if key == "tc":
        try:
            return parse_tc(value).text
        except Exception as exc:  # DsqError: re-raised as a bot spec error
            raise BotSpecError(f"bot engine: {exc}") from None
    p = _PARAMS[key]
    parsed = p.parse("engine", value)
    if key in ("depth", "nodes") and parsed == 0:
        return None
    return parsed


def canonical(params: dict[str, Any]) -> str:
    """The canonical spec of an engine bot's params."""
    return _format(params, with_margin=True)


def short(params: dict[str, Any]) -> str:
    """The spec without ``margin`` at its default."""
    return _format(params, with_margin=params["margin"] != DEFAULT_MARGIN)


def _format(params: dict[str, Any], with_margin: bool) -> str:
    parts = [f"engine:{params['engine']}"]
    parts += [f"{k}={params[k]}" for k in LIMITS if params.get(k) is not None]
    if with_margin:
        parts.append(f"margin={params['margin']}")
    parts += [f"{k}={v}" for k, v in params["options"]]
    return ",".join(parts)
