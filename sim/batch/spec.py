"""What a batch plays and how it runs: :class:`BatchSpec`, :func:`make_spec`, :class:`RunOptions`.

A spec holds canonical rules and bot specs (so two spellings of the same match give the
same record), the bots' evaluations pinned to their content (``eval=NAME@HEX``, see
:mod:`sim.bots.pinning`), the number of games, the batch seed and the options that change
the games.
:class:`RunOptions` holds what does not change them (chunk sizes, flushing, game function).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from engine.rules import canonical_rules
from sim.batch.chunks import DEFAULT_PLAY_FN
from sim.batch.recompute import check_outcomes
from sim.bots.variety import VARIETY_PLIES, repeats_games
from sim.core.adjudication import canonical_draw, canonical_resign
from sim.core.batchspec import (
    ADJUDICATE,
    MAX_GAMES,
    SPEC_DEFAULTS,
    SPEC_INFO,
    BatchSpec,
    SpecError,
    check_pair,
    check_value,
    value_error,
)
from sim.core.seeds import new_batch_seed

__all__ = ["ADJUDICATE", "MAX_GAMES", "BatchSpec", "RunOptions", "SpecError", "make_spec"]


@dataclass
class RunOptions:
    """How a batch runs (nothing here changes the recorded games).

    ``chunk_games`` and ``chunk_seconds`` bound one task; a parquet file is written when
    ``flush_games`` games are buffered or ``flush_seconds`` have passed since the last one;
    ``play_fn`` names the game function as ``"module:function"``; after ``max_seconds``
    (wall time, None: no limit) the batch stops as if cancelled, resumable; ``engines``
    holds the registry entries of external engines the bots name (sent to the workers with
    each chunk).
    """

    chunk_games: int = 20_000
    chunk_seconds: float = 1.0
    flush_games: int = 20_000
    flush_seconds: float = 10.0
    play_fn: str = DEFAULT_PLAY_FN
    engines: tuple[str, ...] = ()
    max_seconds: float | None = None


def _canonical(kind: str, text: str) -> str:
    """``text`` in canonical form as a ``kind`` (``rules``, ``bot``, ``resign`` or ``draw``)
    spec."""
    if kind == "rules":
        return canonical_rules(text)
    if kind in ("resign", "draw"):
        try:
            return canonical_resign(text) if kind == "resign" else canonical_draw(text)
        except DsqError as exc:
            raise SpecError(str(exc), kind) from None
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots.spec import canonical_bot

    return canonical_bot(text)


def make_spec(
    rules: str,
    red: str,
    blue: str,
    games: int,
    seed: int | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    **options: Any,
) -> BatchSpec:
    """A validated :class:`BatchSpec` with canonical specs; :class:`SpecError` (a
    ``DsqError``) naming the flag on any bad value.

    The bots' evaluations are pinned (:func:`sim.bots.pinning.pin_bot`): ``auto`` and the
    shipped ones always, a data folder's when ``data_dir`` is given; a pinned spec is kept
    as it is, so a spec read back from a record makes the same spec again.
    ``seed=None`` draws a fresh batch seed (recorded with the batch). ``options`` are the
    other fields of :class:`BatchSpec` (``swap``, ``opening_plies``, ``ply_cap``,
    ``adjudicate``, ...), each checked as declared there; a missing one takes its default.
    """
    unknown = sorted(set(options) - set(SPEC_INFO))
    if unknown:
        raise TypeError(f"make_spec() got unknown spec fields: {', '.join(unknown)}")
    if seed is None:
        seed = new_batch_seed()
    values = {
        **SPEC_DEFAULTS,
        **options,
        "rules": rules,
        "red": red,
        "blue": blue,
        "games": games,
        "seed": seed,
    }
    for name, info in SPEC_INFO.items():
        value = values[name]
        if info.canon:
            if not isinstance(value, str):
                raise value_error(info, value)
            values[name] = _canonical(info.canon, value)
        elif not check_value(info, value):
            raise value_error(info, value)
    check_pair(values)
    for side in ("red", "blue"):
        values[side] = _pinned(side, values[side], values["rules"], data_dir)
    if values["record"] == "outcomes":  # no moves stored: they must replay from the seed
        try:
            check_outcomes(values["red"], values["blue"])
        except DsqError as exc:
            raise SpecError(str(exc), "record") from None
    if values["openings"]:
        values["openings"] = _suite_text(values)
    return BatchSpec(**values)


def _pinned(side: str, bot: str, rules: str, data_dir: str | os.PathLike[str] | None) -> str:
    """The canonical bot spec ``bot`` with its evaluation pinned under ``rules``;
    ``SpecError`` naming ``--red`` or ``--blue`` when it names one that is not available."""
    # lazy: start-up time (the evaluation files load numpy: only when a bot is named)
    from sim.bots.pinning import pin_bot

    try:
        return pin_bot(bot, rules, Path(data_dir) if data_dir is not None else None)
    except DsqError as exc:
        raise SpecError(f"--{side}: {exc}", side) from None


def _suite_text(values: dict[str, Any]) -> str:
    """The canonical text of the spec's opening suite, checked under its rules and against
    its ply cap; ``SpecError`` naming ``--openings`` otherwise."""
    # lazy: start-up time (the engine's Position: only when a suite is given)
    from sim.openings.suite import SuiteError, cached_suite

    try:
        suite = cached_suite(values["openings"], values["rules"], "--openings")
    except SuiteError as exc:
        raise SpecError(str(exc), "openings") from None
    if suite.longest + values["opening_plies"] >= values["ply_cap"]:
        raise SpecError(
            f"--openings: a line of {suite.longest} moves and --opening-plies "
            f"({values['opening_plies']}) must stay below --ply-cap ({values['ply_cap']})",
            "openings",
        )
    return suite.text


def spec_options(spec: BatchSpec) -> dict[str, Any]:
    """The fields of ``spec`` beyond rules, bots, games and seed (``make_spec``'s options)."""
    return {f.name: getattr(spec, f.name) for f in fields(spec) if f.name in SPEC_DEFAULTS}


def with_variety(spec: BatchSpec) -> BatchSpec:
    """``spec`` (made with ``--opening-plies auto`` as 0) with :data:`VARIETY_PLIES`
    random plies when its games would otherwise repeat (and its ply cap leaves room)."""
    if not repeats_games(spec.red, spec.blue, 0, spec.openings, spec.games, spec.swap):
        return spec
    d = spec.to_dict()
    rules, red, blue, games, seed = (d.pop(k) for k in ("rules", "red", "blue", "games", "seed"))
    try:
        return make_spec(rules, red, blue, games, seed, **{**d, "opening_plies": VARIETY_PLIES})
    except DsqError:  # no room under --ply-cap: kept, and the note says the games repeat
        return spec
