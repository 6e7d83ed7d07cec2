"""Every text a page shows, as an AppTest sees it, for the catalogue tests.

:func:`visible_texts` walks the element tree of an :class:`AppTest` run and collects what a
reader sees: titles, markdown (the text of an inline SVG board included, its markup not),
captions, messages, metric labels, values and help texts, widget labels, options, help
texts and placeholders, table headers and cells, and the titles, legends, categories and
hover texts of plotly charts. :func:`latin_words` finds the words in Latin letters left
once code spans and the allowed words are taken out.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import pandas as pd
from google.protobuf.message import Message
from streamlit.testing.v1 import AppTest

# Proto fields that hold identifiers, markup options or data, never a text for the reader.
TECHNICAL = {
    "id", "form_id", "key", "icon", "type", "element_type", "tag", "css_class", "default",
    "spec", "data", "styler", "arrow_data", "theme", "selection_mode", "url", "config",
    "format", "step", "page_script_hash", "raw_value", "min", "max", "value", "widget_id",
    "columns", "display_values", "uuid", "caption_style", "icon_position", "deferred_file_id",
    "code_text", "language",  # a code block shows data (a game as JSON), not prose
}  # fmt: skip
_TAG = re.compile(r"<[^>]+>")
_STYLE = re.compile(r"<style>.*?</style>", re.S)
_ATTR = re.compile(r'(?:aria-label|title)="([^"]*)"')
_CODE = re.compile(r"`[^`]*`")
_ICON = re.compile(r":material/[a-z_]+:")
_MOVE = re.compile(r"\b[a-g][1-9][a-g][1-9]\b")
_PLOTLY_FIELD = re.compile(r"%\{[^}]*\}|<extra>.*?</extra>")
_LATIN = re.compile(r"[A-Za-zÀ-ɏ][A-Za-zÀ-ɏ_]+")


def _proto_strings(msg: Message) -> Iterator[str]:
    for fd, val in msg.ListFields():
        if fd.name in TECHNICAL:
            continue
        values = val if fd.is_repeated else [val]
        for v in values:
            if isinstance(v, Message):
                yield from _proto_strings(v)
            elif isinstance(v, str):
                yield v


def _markup_text(body: str) -> str:
    """The text of markdown that may hold inline HTML/SVG: text nodes and labels."""
    if "<" not in body:
        return body
    body = _STYLE.sub(" ", body)
    labels = " ".join(_ATTR.findall(body))
    return html.unescape(_TAG.sub(" ", body) + " " + labels)


def _plotly_texts(spec: str) -> Iterator[str]:
    fig = json.loads(spec)
    layout = fig.get("layout", {})
    for name, part in layout.items():
        if isinstance(part, dict) and isinstance(part.get("title"), dict):
            yield str(part["title"].get("text", ""))
        elif name == "title" and isinstance(part, dict):
            yield str(part.get("text", ""))
    for trace in fig.get("data", []):
        yield str(trace.get("name", ""))
        yield _PLOTLY_FIELD.sub(" ", str(trace.get("hovertemplate", "")))
        for axis in ("x", "y", "customdata"):
            values = trace.get(axis)
            if isinstance(values, list):
                rows = [v for v in values if isinstance(v, list)]
                flat = [v for row in rows for v in row] + [v for v in values if v not in rows]
                yield from (v for v in flat if isinstance(v, str))


def _frame_texts(df: Any) -> Iterator[str]:
    if hasattr(df, "data"):  # a pandas Styler
        df = df.data
    if not isinstance(df, pd.DataFrame):
        return
    yield from (str(c) for c in df.columns)
    if df.index.name:
        yield str(df.index.name)
    yield from (str(i) for i in df.index if isinstance(i, str))
    for col in df.columns:
        yield from (v for v in df[col] if isinstance(v, str))


def _walk(node: Any) -> Iterator[str]:
    proto = getattr(node, "proto", None)
    if type(node).__name__ == "Dataframe":
        yield from _frame_texts(node.value)
    elif isinstance(proto, Message) and proto.DESCRIPTOR.fields_by_name.get("spec") is not None:
        if proto.spec:
            yield from _plotly_texts(proto.spec)
        yield from _proto_strings(proto)
    elif isinstance(proto, Message):
        for s in _proto_strings(proto):
            yield _markup_text(s)
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield from _walk(child)


def visible_texts(at: AppTest) -> list[str]:
    """Every text the page shows (see the module's notes), non-empty."""
    return [s.strip() for s in _walk(at._tree) if s and s.strip()]


def latin_words(texts: Iterable[str], allowed: Iterable[str]) -> dict[str, str]:
    """Words in Latin letters (two or more) outside code spans, icons and moves, that are
    not ``allowed``: ``{word: the text it was found in}``."""
    ok = {w.lower() for w in allowed}
    found: dict[str, str] = {}
    for text in texts:
        bare = _MOVE.sub(" ", _ICON.sub(" ", _CODE.sub(" ", text)))
        for word in _LATIN.findall(bare):
            if word.lower() not in ok and word.lower().strip("_") not in ok:
                found.setdefault(word, text)
    return found
