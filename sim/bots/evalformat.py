"""The text of an evaluation file and the weights it holds.

An evaluation file (``DATA/evals/NAME.toml``, written by ``dsq tune``; the shipped ones in
``sim/bots/evals/``) holds the rule set it was fitted for, what it was fitted on, its
losses, and the weights of :func:`sim.bots.evaluate.evaluate_tuned`: the animal values, a
square table per animal (from the owner's side: Blue's squares turned half a turn), the
penalties for the side to move's first and second piece in danger (in a fixed order of
the animals, most valuable first), and a bonus for having the move.

:func:`parse_eval` reads such a text and checks it in full (:class:`EvalError` naming
what is wrong), :func:`format_eval` writes it; where the files live, how a spec names
one and which one a bot reads is :mod:`sim.bots.evalfile`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.errors import DsqError
from engine.rules import parse_rules
from sim.bots.evalbound import MAX_EVAL, tuned_reach

FORMAT = 1
MAX_WEIGHT = 100_000
NSQ = 63
ANIMALS = 8


class EvalError(DsqError):
    """A missing, bad or mismatched evaluation file."""


@dataclass(frozen=True)
class Weights:
    """The weights of a tuned evaluation, in evaluation units (see the module docstring)."""

    material: tuple[int, ...]  # rat..elephant
    squares: tuple[tuple[int, ...], ...]  # [animal - 1][square from the owner's side]
    first_danger: tuple[int, ...]  # by animal - 1
    second_danger: tuple[int, ...]
    tempo: int
    order: tuple[int, ...]  # the animals 1..8, most valuable first (danger order)

    def vector(self) -> np.ndarray:
        """The weights as one float vector, in the order of :func:`from_vector`."""
        return np.concatenate(
            [
                np.asarray(self.material, dtype=np.float64),
                np.asarray(self.squares, dtype=np.float64).ravel(),
                np.asarray(self.first_danger, dtype=np.float64),
                np.asarray(self.second_danger, dtype=np.float64),
                [float(self.tempo)],
            ]
        )


N_WEIGHTS = ANIMALS + ANIMALS * NSQ + 2 * ANIMALS + 1


def from_vector(vec: np.ndarray, order: tuple[int, ...]) -> Weights:
    """Weights from a float vector (rounded to whole units) laid out as ``vector``."""
    v = np.rint(np.asarray(vec, dtype=np.float64)).astype(np.int64)
    v = np.clip(v, -MAX_WEIGHT, MAX_WEIGHT)
    a, s = ANIMALS, ANIMALS + ANIMALS * NSQ
    return Weights(
        material=tuple(int(x) for x in v[:a]),
        squares=tuple(tuple(int(x) for x in row) for row in v[a:s].reshape(ANIMALS, NSQ)),
        first_danger=tuple(int(x) for x in v[s : s + a]),
        second_danger=tuple(int(x) for x in v[s + a : s + 2 * a]),
        tempo=int(v[s + 2 * a]),
        order=tuple(order),
    )


@dataclass(frozen=True)
class EvalFile:
    """A named evaluation: its rule set (canonical spec), weights and what it was fitted on
    (``meta``: sources, counts, losses; ``accepted``: the match that accepted it, if any)."""

    name: str
    rules: str
    weights: Weights
    meta: dict[str, Any] = field(default_factory=dict)
    accepted: dict[str, Any] = field(default_factory=dict)


def _ints(value: Any, n: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise EvalError(f"{what} must be a list of {n} whole numbers")
    out = []
    for x in value:
        if isinstance(x, bool) or not isinstance(x, int) or abs(x) > MAX_WEIGHT:
            raise EvalError(f"{what} holds {x!r}, not a whole number within ±{MAX_WEIGHT}")
        out.append(x)
    return tuple(out)


def parse_eval(text: str, name: str) -> EvalFile:
    """An evaluation from the text of its file (EvalError naming what is wrong)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EvalError(f"not TOML: {exc}") from None
    head = doc.get("eval")
    w = doc.get("weights")
    if not isinstance(head, dict) or not isinstance(w, dict):
        raise EvalError("an evaluation file has an [eval] and a [weights] table")
    if head.get("format") != FORMAT:
        raise EvalError(f"format {head.get('format')!r}; this version reads format {FORMAT}")
    if head.get("name") != name:
        raise EvalError(f"the file names evaluation {head.get('name')!r}, not {name!r}")
    try:
        rules = parse_rules(str(head.get("rules", ""))).spec
    except DsqError as exc:
        raise EvalError(f"rules: {exc}") from None
    squares = w.get("squares")
    if not isinstance(squares, list) or len(squares) != ANIMALS:
        raise EvalError(f"squares must be {ANIMALS} lists (rat..elephant) of {NSQ} numbers")
    order = _ints(w.get("order"), ANIMALS, "order")
    if sorted(order) != list(range(1, ANIMALS + 1)):
        raise EvalError("order must list the animals 1..8 once each")
    tempo = w.get("tempo")
    weights = Weights(
        material=_ints(w.get("material"), ANIMALS, "material"),
        squares=tuple(_ints(row, NSQ, "a square table") for row in squares),
        first_danger=_ints(w.get("first_danger"), ANIMALS, "first_danger"),
        second_danger=_ints(w.get("second_danger"), ANIMALS, "second_danger"),
        tempo=_ints([tempo], 1, "tempo")[0],
        order=order,
    )
    check_reach(weights)
    meta = doc.get("fitted", {})
    accepted = doc.get("accepted", {})
    if not isinstance(meta, dict) or not isinstance(accepted, dict):
        raise EvalError("[fitted] and [accepted] are tables")
    for table, t in (("fitted", meta), ("accepted", accepted)):
        for k, v in t.items():
            if not _plain(v) and not (isinstance(v, list) and all(_plain(x) for x in v)):
                raise EvalError(f"{table}.{k} must be text, a number, true/false or a list "
                                "of those")  # fmt: skip
    return EvalFile(name, rules, weights, meta, accepted)


def _plain(value: Any) -> bool:
    """Whether ``value`` is what a note of ``[fitted]`` or ``[accepted]`` may hold."""
    return isinstance(value, str | int | float | bool)


def check_reach(w: Weights) -> None:
    """EvalError when the weights could make a score beyond :data:`MAX_EVAL` (into the
    search's mate scores): their largest sum (:func:`sim.bots.evalbound.tuned_reach`)."""
    reach = tuned_reach(w.material, w.squares, w.first_danger, w.second_danger, w.tempo)
    if reach > MAX_EVAL:
        raise EvalError(
            f"these weights could score {reach:,}, beyond the {MAX_EVAL:,} an evaluation may "
            "reach (the search's mate scores are above): the largest value plus square of "
            "each animal, both signs, the move bonus and the largest penalties must sum to "
            f"at most {MAX_EVAL:,}"
        )


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    text = str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'"{text}"'


def format_eval(ef: EvalFile) -> str:
    """The text of an evaluation's file (read back by :func:`parse_eval`)."""
    w = ef.weights
    lines = ["[eval]", f"format = {FORMAT}", f"name = {_toml_value(ef.name)}",
             f"rules = {_toml_value(ef.rules)}", "", "[fitted]"]  # fmt: skip
    lines += [f"{k} = {_toml_value(v)}" for k, v in ef.meta.items()]
    if ef.accepted:
        lines += ["", "[accepted]"] + [f"{k} = {_toml_value(v)}" for k, v in ef.accepted.items()]
    lines += ["", "[weights]", f"material = {_toml_value(w.material)}",
              f"tempo = {w.tempo}", f"order = {_toml_value(w.order)}",
              f"first_danger = {_toml_value(w.first_danger)}",
              f"second_danger = {_toml_value(w.second_danger)}",
              "# one row per animal, rat..elephant; squares a1..g9 seen from the owner's side",
              "squares = ["]  # fmt: skip
    lines += [f"  {_toml_value(row)}," for row in w.squares]
    lines += ["]", ""]
    return "\n".join(lines)
