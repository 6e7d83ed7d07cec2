"""Cached access to the dataset and to the statistics layer.

The dataset is opened once per *fingerprint* (:func:`sim.storage.dataset_fingerprint`,
which changes whenever a games file or batch record changes), so new batches show up on
the next page run without restarting the app, and unchanged data is never re-read.
Statistics are computed by :mod:`sim.stats` functions only, called as functions
(``stat(general_stats, selection)``); this module caches their results keyed on (data
folder, fingerprint, the function's qualified name, selection, arguments).

DuckDB connections are not safe to share between threads (Streamlit runs each session's
script in its own thread), so every query on a cached dataset holds that dataset's lock.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from dashboard.lang import confidence
from dashboard.settings import load_settings
from sim.batch.recompute import with_moves
from sim.records.gameexport import batch_dates, game_text
from sim.stats.games import distinct_values, list_games
from sim.stats.games import game_record as stored_game
from sim.stats.query import Selection
from sim.storage.reading import Dataset, dataset_fingerprint, open_dataset

T = TypeVar("T")


@dataclass
class Loaded:
    """An opened dataset and the lock its connection needs."""

    ds: Dataset
    lock: threading.Lock

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the files this dataset was opened on."""
        return self.ds.fingerprint


@st.cache_resource(max_entries=3, show_spinner=False)
def _open(data_dir: str, fingerprint: str) -> Loaded:
    return Loaded(open_dataset(data_dir), threading.Lock())


def data_dir() -> str:
    """The data folder of this app (from the settings)."""
    return str(load_settings().data_dir)


def dataset() -> Loaded:
    """The dataset as it is on disk now (cached while its files do not change)."""
    d = data_dir()
    return _open(d, dataset_fingerprint(d))


def selection_key(selection: Selection) -> tuple[Any, ...]:
    """A hashable, order-stable key for a selection."""
    return tuple(
        (k, tuple(v) if isinstance(v, list) else v) for k, v in selection.to_dict().items()
    )


def _selection_from_key(key: tuple[Any, ...]) -> Selection:
    return Selection(**{k: v for k, v in key})


def qualified_name(fn: Callable[..., Any]) -> str:
    """``module.qualname`` of a function: what the cache knows a statistics function by
    (``st.cache_data`` cannot hash a function by itself)."""
    return f"{fn.__module__}.{fn.__qualname__}"


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs={FunctionType: qualified_name})
def _stat(
    data_dir: str,
    fingerprint: str,
    fn: Callable[..., Any],
    key: tuple[Any, ...],
    kwargs: tuple[Any, ...],
) -> Any:
    loaded = _open(data_dir, fingerprint)
    with loaded.lock:
        return loaded.ds.read(
            lambda: fn(loaded.ds.con, selection=_selection_from_key(key), **dict(kwargs))
        )


def stat(fn: Callable[..., T], selection: Selection, **kwargs: Any) -> T:
    """``fn(con, selection=selection, **kwargs)`` on the current dataset, for a statistics
    function of :mod:`sim.stats` (``stat(general_stats, selection)``); cached on the data
    folder's fingerprint, the function's qualified name, the selection and the arguments.

    A function with a ``confidence`` argument gets the sidebar's confidence level unless
    the call gives one, so every interval and test a page shows follows that setting.

    ``fn`` must be a module-level function: a lambda or a nested function has no name the
    cache could tell apart from another's.
    """
    if not isinstance(fn, FunctionType) or "<" in fn.__qualname__:
        raise TypeError(f"stat() needs a module-level statistics function, got {fn!r}")
    if "confidence" not in kwargs and "confidence" in inspect.signature(fn).parameters:
        kwargs["confidence"] = confidence()
    loaded = dataset()
    return _stat(
        data_dir(),
        loaded.fingerprint,
        fn,
        selection_key(selection),
        tuple(sorted(kwargs.items())),
    )


@st.cache_data(max_entries=16, show_spinner=False)
def _distinct(data_dir: str, fingerprint: str) -> dict[str, list[str]]:
    loaded = _open(data_dir, fingerprint)
    with loaded.lock:
        return loaded.ds.read(lambda: distinct_values(loaded.ds.con))


def filter_options() -> dict[str, list[str]]:
    """The rules specs, bot specs and batch ids present in the recorded games."""
    loaded = dataset()
    return _distinct(data_dir(), loaded.fingerprint)


@st.cache_data(max_entries=64, show_spinner=False)
def _listing(
    data_dir: str,
    fingerprint: str,
    key: tuple[Any, ...],
    winners: tuple[str, ...],
    reasons: tuple[str, ...],
    limit: int,
    offset: int,
) -> tuple[pd.DataFrame, int]:
    loaded = _open(data_dir, fingerprint)
    selection = _selection_from_key(key)
    with loaded.lock:
        return loaded.ds.read(
            lambda: list_games(loaded.ds.con, selection, winners, reasons, limit, offset)
        )


def games_listing(
    selection: Selection,
    winners: tuple[str, ...] = (),
    reasons: tuple[str, ...] = (),
    limit: int = 200,
    offset: int = 0,
) -> tuple[pd.DataFrame, int]:
    """One page of the selected games (sorted by batch and index) and how many there are."""
    loaded = dataset()
    return _listing(
        data_dir(), loaded.fingerprint, selection_key(selection), winners, reasons, limit, offset
    )


@st.cache_data(max_entries=64, show_spinner=False)
def _game(data_dir: str, fingerprint: str, batch_id: str, game_index: int) -> dict[str, Any] | None:
    loaded = _open(data_dir, fingerprint)
    with loaded.lock:
        found = loaded.ds.read(lambda: stored_game(loaded.ds.con, batch_id, game_index))
    if found is None:
        return None
    game: dict[str, Any] = dict(found)
    if game["moves"] is not None:
        return game
    game, again = with_moves(data_dir, game)  # recorded without its moves: from its seed
    assert again is not None
    return {**game, "moves_recomputed": again.agrees, "replay_problem": again.why}


def game_record(batch_id: str, game_index: int) -> dict[str, Any] | None:
    """Every column of one recorded game (moves as a list of ints), or None. A game
    recorded without its moves has them recomputed from its seed, and two more keys:
    ``moves_recomputed`` (whether that game ends as recorded) and ``replay_problem``."""
    loaded = dataset()
    return _game(data_dir(), loaded.fingerprint, batch_id, int(game_index))


def game_download(batch_id: str, game_index: int) -> str | None:
    """The text record of one recorded game (docs/game-records.md), or None."""
    loaded = dataset()
    date = batch_dates(loaded.ds.batches).get(batch_id)
    with loaded.lock:
        return loaded.ds.read(lambda: game_text(loaded.ds.con, batch_id, game_index, date))
