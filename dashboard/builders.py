"""Form parts shared by the Simulate and Play pages: a rules builder (a preset and its
options) and a bot builder (a kind and its parameters, within the dashboard's limits).

Widget keys start with a page's prefix (``sim``, ``play``), so each page keeps its own
choices. Labels, options and help texts come from the catalogue: an option of the engine
is ``option.<name>``, a value ``optval.<value>`` (the options and their values come from
:mod:`engine.ruleset_options`), a bot kind ``botkind.<name>``, a bot
parameter ``botparam.<name>`` with its help ``bothelp.<kind>.<name>``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from dashboard.i18n import has_text
from dashboard.lang import labels, t
from dashboard.limits import bot_caps
from dashboard.settings import Limits, load_settings
from dashboard.urlstate import keep
from engine import PRESETS
from engine.errors import DsqError
from engine.ruleset_options import OPTIONS
from sim.bots.spec import BOTS

_OPTION_KINDS = {bool: "bool", str: "choice"}  # an option's kind -> how the URL keeps it
_PARAM_KINDS = {"int": "int", "float": "float", "choice": "choice"}


def _label(key: str, fallback: str) -> str:
    return t(key) if has_text(key) else fallback


def rules_builder(prefix: str) -> str:
    """A preset and its options (the choices one under the other, at full width so that
    the chosen value shows whole; the switches in two columns); returns the canonical
    spec."""
    keep(f"{prefix}_preset", "choice", default=next(iter(PRESETS)), options=list(PRESETS))
    preset = st.selectbox(
        t("rules.preset"),
        list(PRESETS),
        key=f"{prefix}_preset",
        help=t("rules.preset_help"),
        format_func=labels("rules.preset_"),
    )
    base = PRESETS[preset]
    values: dict[str, Any] = {}
    switches = [o for o in OPTIONS if o.kind is bool]
    for option in [o for o in OPTIONS if o.kind is not bool]:
        current = getattr(base, option.name)
        key = f"{prefix}_opt_{preset}_{option.name}"
        label = _label(f"option.{option.name}", option.name)
        keep(key, _OPTION_KINDS.get(option.kind, "int"), default=current, options=option.choices,
             low=option.low, high=option.high)  # fmt: skip
        if option.kind is str:
            values[option.name] = st.selectbox(
                label,
                option.choices,
                index=option.choices.index(current),
                key=key,
                format_func=labels("optval."),
            )
        else:
            values[option.name] = int(
                st.number_input(label, option.low, option.high, current, key=key)
            )
    cols = st.columns(2)
    for i, option in enumerate(switches):
        key = f"{prefix}_opt_{preset}_{option.name}"
        label = _label(f"option.{option.name}", option.name)
        current = getattr(base, option.name)
        keep(key, "bool", default=current)
        values[option.name] = cols[i % 2].toggle(label, value=current, key=key)
    spec = replace(base, **values).spec
    st.markdown(t("rules.spec", spec=spec))
    return spec


def bot_kind_help(name: str) -> str:
    """What a kind of bot does, in the user's language."""

    return _label(f"botkind.{name}", BOTS[name][0])


def engine_choice(prefix: str) -> str | None:
    """An engine of the registry (``dsq dashboard --engines``, ``$DSQ_ENGINES`` or the data
    folder's ``engines.toml``), or None (with a message) when there is none."""
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.registry import EngineRegistry

    try:
        names = sorted(EngineRegistry.load(None, load_settings().data_dir).entries)
    except DsqError as exc:
        st.warning(t("engines.bad", error=exc))
        return None
    if not names:
        st.info(t("engines.none"))
        return None
    return st.selectbox(t("engines.choose"), names, key=f"{prefix}_engine_name")


def bot_builder(prefix: str, label: str, limits: Limits, default: str) -> str:
    """A kind of bot and its parameters (bounded by the dashboard's limits); returns its
    spec with only the parameters that differ from their defaults. An external engine
    (kind ``engine``) is chosen by its name in the engine registry."""

    names = list(BOTS)
    index = names.index(default) if default in names else 0
    keep(f"{prefix}_bot", "choice", default=names[index], options=names)
    name = st.selectbox(
        label, names, index=index, key=f"{prefix}_bot", help=bot_kind_help(names[index])
    )
    caps = bot_caps(limits)
    parts = []
    head = name
    if name == "engine":  # engine:NAME,key=value,...
        engine = engine_choice(prefix)
        head = f"engine:{engine}" if engine else "engine"
    for p in BOTS[name][1]:
        key = f"{prefix}_{name}_{p.name}"
        text = _label(f"botparam.{p.name}", p.name)
        help_text = _label(f"bothelp.{name}.{p.name}", p.help)
        high = int(min(p.high, caps.get(p.name, p.high))) if p.kind == "int" else p.high
        shown = p.format(p.default) if p.kind not in _PARAM_KINDS else p.default
        keep(key, _PARAM_KINDS.get(p.kind, "str"), default=shown, options=p.choices,
             low=p.low, high=high)  # fmt: skip
        if p.kind == "int":
            value = st.number_input(
                text, int(p.low), high, min(int(p.default), high), key=key, help=help_text
            )
            if value != p.default:
                parts.append(f"{p.name}={int(value)}")
        elif p.kind == "float":
            value = st.number_input(
                text, float(p.low), float(p.high), float(p.default), key=key, help=help_text
            )
            if value != p.default:
                parts.append(f"{p.name}={value}")
        elif p.kind == "choice":
            choice = st.selectbox(
                text,
                p.choices,
                index=p.choices.index(p.default),
                key=key,
                help=help_text,
                format_func=labels("optval."),
            )
            if choice != p.default:
                parts.append(f"{p.name}={choice}")
        else:
            entered = st.text_input(text, p.format(p.default), key=key, help=help_text)
            if entered.strip() != p.format(p.default):
                parts.append(f"{p.name}={entered.strip()}")
    sep = "," if ":" in head else ":"
    return head + (sep + ",".join(parts) if parts else "")
