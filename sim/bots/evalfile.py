"""Tuned evaluations: their files, names and pins, and the one the bots of a spec read.

An evaluation file (``DATA/evals/NAME.toml``, written by ``dsq tune``; the shipped ones in
``sim/bots/evals/``) holds the rule set it was fitted for, what it was fitted on and the
weights of :func:`sim.bots.evaluate.evaluate_tuned` (its text and the weights:
:mod:`sim.bots.evalformat`).

A bot spec names one with ``eval=NAME``; ``eval=auto`` is the shipped evaluation of the
rule set's nearest preset (the hand-written classic one where none is shipped), and
``eval=classic`` the hand-written one. ``eval=NAME@HEX`` pins NAME to its content
(:func:`eval_digest`): the current file when its digest is HEX, else a copy kept as
``pinned/NAME@HEX.toml`` (shipped, or in the data folder's ``evals/``). Files are read
bounded and checked in full; a bad one, or one fitted for rules whose moves differ, is
refused with one line.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from engine.rules import Ruleset, parse_rules
from engine.ruleset_options import OPTIONS
from sim.bots import evaluate as E
from sim.bots.evalformat import (
    ANIMALS,
    EvalError,
    EvalFile,
    Weights,
    check_reach,
    format_eval,
    parse_eval,
)
from sim.bots.params import AUTO, CLASSIC, EVAL_NAME, PIN_DIGITS, split_pin
from sim.bots.piece_values import values_array
from sim.storage.paths import read_bounded

EVALS_DIR = "evals"
SHIPPED = Path(__file__).resolve().parent / "evals"
PINNED_DIR = "pinned"  # copies of replaced evaluations, as NAME@HEX.toml
SUFFIX = ".toml"
MAX_FILE_BYTES = 1 << 20
# Options about a game's history, clocks or scoring rather than its positions (those the
# endgame tables fix, and those the kernels never read): an evaluation fitted under one
# value serves the others.
LOOSE_OPTIONS = tuple(o.name for o in OPTIONS if o.table_value is not None or not o.kernel)


def evals_dir(data_dir: Path) -> Path:
    """The folder of a data folder's evaluations."""
    return Path(data_dir) / EVALS_DIR


def check_name(name: str) -> str:
    """``name`` if it may name a new evaluation (EvalError otherwise)."""
    low = name.strip().lower()
    if not EVAL_NAME.fullmatch(low) or low in (AUTO, CLASSIC):
        raise EvalError(
            f"an evaluation name is 1-40 lowercase letters, digits, '_' or '-', and not "
            f"auto or classic: not {name!r}"
        )
    return low


def read_eval(path: Path) -> EvalFile:
    """The evaluation in ``path`` (read at most :data:`MAX_FILE_BYTES`; EvalError with the
    file's name when it is missing, not a regular file, too big or bad)."""
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
        text = data.decode("utf-8")
    except ValueError:
        raise EvalError(f"evaluation file {path}: over {MAX_FILE_BYTES} bytes") from None
    except OSError as exc:
        raise EvalError(f"evaluation file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise EvalError(f"evaluation file {path}: not UTF-8 text") from None
    try:
        return parse_eval(text, split_pin(path.name[: -len(SUFFIX)])[0])
    except EvalError as exc:
        raise EvalError(f"evaluation file {path}: {exc}") from None


def write_eval(folder: Path, ef: EvalFile, *, replace: bool = False) -> Path:
    """Write ``ef`` as ``folder/NAME.toml`` atomically; EvalError if the name is taken
    (by a shipped evaluation always, by a file there unless ``replace``)."""
    if (SHIPPED / f"{ef.name}{SUFFIX}").exists():
        raise EvalError(f"evaluation {ef.name!r} is shipped with dsq: choose another name")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{ef.name}{SUFFIX}"
    if path.exists() and not replace:
        raise EvalError(f"evaluation {ef.name!r} already exists ({path}): choose another name")
    check_reach(ef.weights)
    tmp = folder / f".{ef.name}.{os.getpid()}.tmp"
    tmp.write_text(format_eval(ef), encoding="utf-8")
    os.replace(tmp, path)
    return path


@lru_cache(maxsize=64)
def _cached(path: str, mtime_ns: int, size: int) -> tuple[EvalFile, str]:
    ef = read_eval(Path(path))
    return ef, eval_digest(ef)


def _load(path: Path) -> tuple[EvalFile, str] | None:
    """The evaluation in ``path`` and its digest (None: no such file)."""
    try:
        st = path.lstat()
    except OSError:
        return None
    return _cached(str(path), st.st_mtime_ns, st.st_size)


def eval_digest(ef: EvalFile) -> str:
    """The pin of an evaluation: the first 12 hex digits of the SHA-256 of its content, its
    rules and weights (not its name, what it was fitted on nor its acceptance match)."""
    w = ef.weights
    content = {"rules": ef.rules, "material": w.material, "squares": w.squares,
               "first_danger": w.first_danger, "second_danger": w.second_danger,
               "tempo": w.tempo, "order": w.order}  # fmt: skip
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:PIN_DIGITS]


def is_shipped(name: str) -> bool:
    """Whether ``name`` is a shipped evaluation's (today's or a replaced one's)."""
    return (SHIPPED / f"{name}{SUFFIX}").exists() or any(
        (SHIPPED / PINNED_DIR).glob(f"{name}@*{SUFFIX}")
    )


def find_eval(name: str, folder: Path | None) -> EvalFile:
    """The evaluation ``name``: the shipped one, else ``folder/NAME.toml`` (EvalError when
    there is none)."""
    places = [SHIPPED] + ([Path(folder)] if folder is not None else [])
    for place in places:
        found = _load(place / f"{name}{SUFFIX}")
        if found is not None:
            return found[0]
    where = f" in {folder}" if folder is not None else ""
    raise EvalError(f"no evaluation {name!r}{where}: make one with dsq tune, or use eval=classic")


def find_pinned(name: str, pin: str, folder: Path | None) -> EvalFile:
    """The evaluation ``NAME@PIN``: the current NAME when its digest is PIN, else the copy
    ``pinned/NAME@PIN.toml`` shipped or in ``folder`` (or ``folder/NAME@PIN.toml``);
    EvalError (one line) when there is none."""
    extra = [Path(folder)] if folder is not None else []
    current = next(filter(None, (_load(p / f"{name}{SUFFIX}") for p in [SHIPPED, *extra])), None)
    if current is not None and current[1] == pin:
        return current[0]
    kept = f"{name}@{pin}{SUFFIX}"
    for place in [SHIPPED / PINNED_DIR] + [p for f in extra for p in (f / PINNED_DIR, f)]:
        found = _load(place / kept)
        if found is not None:
            if found[1] != pin:
                raise EvalError(f"evaluation file {place / kept}: its content is {name}@{found[1]}")
            return found[0]
    if current is None:
        where = f" (shipped or in {folder})" if folder is not None else " shipped"
        raise EvalError(f"evaluation {name}@{pin} is not available: no evaluation {name!r}{where}")
    whose = f"the shipped {name}" if is_shipped(name) else f"{name} in {folder}"
    raise EvalError(f"evaluation {name}@{pin} is not available: {whose} is now {name}@{current[1]}")


def nearest_preset(rules: Ruleset) -> str:
    """The preset closest to ``rules`` (the first part of its canonical spec)."""
    return rules.spec.split("+", 1)[0]


def _moves_differ(a: Ruleset, b: Ruleset) -> list[str]:
    names = [f for f in a.__dataclass_fields__ if f not in LOOSE_OPTIONS]
    return [f for f in names if getattr(a, f) != getattr(b, f)]


def resolve(choice: str, rules: Ruleset, folder: Path | None) -> EvalFile | None:
    """The evaluation a spec's ``eval`` names under ``rules`` (None: the classic one);
    EvalError for a missing or bad file, or one fitted for rules whose moves differ (a pin
    of the nearest preset's shipped evaluation is taken as ``auto`` takes it)."""
    if choice == CLASSIC:
        return None
    if choice == AUTO:
        path = SHIPPED / f"{nearest_preset(rules)}{SUFFIX}"
        return find_eval(nearest_preset(rules), None) if path.exists() else None
    name, pin = split_pin(choice)
    if pin is None:
        ef = find_eval(choice, folder)
    else:
        ef = find_pinned(name, pin, folder)
        if name == nearest_preset(rules) and is_shipped(name):
            return ef
    differ = _moves_differ(parse_rules(ef.rules), rules)
    if differ:
        raise EvalError(
            f"evaluation {choice!r} was fitted for rules {ef.rules}, not {rules.spec} "
            f"({', '.join(differ)} differ)"
        )
    return ef


def eval_block(w: Weights) -> np.ndarray:
    """The block of ``w`` that :func:`sim.bots.evaluate.evaluate_tuned` reads at
    ``EVAL_OFF`` (see :func:`sim.bots.evaluate.params_array`)."""
    block = np.zeros(E.BLOCK_END - E.EVAL_OFF, dtype=np.int64)
    block[E.E_KIND - E.EVAL_OFF] = 1
    block[E.E_TEMPO - E.EVAL_OFF] = w.tempo
    block[E.E_ORDER - E.EVAL_OFF : E.E_ORDER - E.EVAL_OFF + ANIMALS] = w.order
    block[E.E_FIRST - E.EVAL_OFF : E.E_FIRST - E.EVAL_OFF + ANIMALS] = w.first_danger
    block[E.E_SECOND - E.EVAL_OFF : E.E_SECOND - E.EVAL_OFF + ANIMALS] = w.second_danger
    block[E.E_SQUARES - E.EVAL_OFF :] = np.asarray(w.squares, dtype=np.int64).ravel()
    return block


def bot_evaluation(
    params: Any, rules: Ruleset, folder: Path | None
) -> tuple[np.ndarray, np.ndarray | None, str]:
    """What a bot with spec ``params`` evaluates with under ``rules``: the animal values
    (the tuned evaluation's, or the spec's adjusted to the rules), the tuned block (None:
    classic) and the evaluation's name (``classic`` or the file's)."""
    ef = resolve(str(params.get("eval", CLASSIC)), rules, folder)
    if ef is None:
        return values_array(params["values"], rules), None, CLASSIC
    w = ef.weights
    if parse_rules(ef.rules).dog_over_wolf != rules.dog_over_wolf:
        w = swap_dog_and_wolf(w)
    return np.asarray(w.material, dtype=np.int64), eval_block(w), ef.name


def swap_dog_and_wolf(w: Weights) -> Weights:
    """``w`` with the dog's and the wolf's weights exchanged (and their places in the
    danger order): the evaluation of a rule set under ``auto`` whose ``dog_over_wolf``
    differs from its preset's, as the classic values are exchanged."""
    dog, wolf = 2, 3  # indices of animal - 1

    def swapped(row: tuple[Any, ...]) -> tuple[Any, ...]:
        out = list(row)
        out[dog], out[wolf] = out[wolf], out[dog]
        return tuple(out)

    order = tuple({dog + 1: wolf + 1, wolf + 1: dog + 1}.get(a, a) for a in w.order)
    return Weights(swapped(w.material), swapped(w.squares), swapped(w.first_danger),
                   swapped(w.second_danger), w.tempo, order)  # fmt: skip
