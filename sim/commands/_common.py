"""Arguments and helpers shared by the position-based commands."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.core.batchspec import FieldInfo, spec_fields
from sim.core.seeds import MAX_SEED

if TYPE_CHECKING:
    from engine.position import Position


def add_position_args(parser: argparse.ArgumentParser, moves_help: str | None = None) -> None:
    """``--rules``, ``--fen`` and ``--moves``."""
    parser.add_argument(
        "--rules",
        default="standard",
        help="rules spec, e.g. yeshou+tiger_jump=horizontal (default: standard)",
    )
    parser.add_argument("--fen", default=None, help="start position (default: the initial one)")
    parser.add_argument(
        "--moves", default="", help=moves_help or 'moves played from the FEN, e.g. "a3a4 a7a6"'
    )


def position_from_args(rules: str | None, fen: str | None, moves: str | list[str]) -> Position:
    """The position after ``moves`` from ``fen`` under ``rules`` (DsqError on bad input)."""
    # lazy: start-up time (numba kernels)
    from engine.position import Position

    pos = Position(rules, fen)
    pos.play_moves(moves)
    return pos


def print_json(obj: Any) -> None:
    """One JSON object on one line of standard output."""
    sys.stdout.write(json.dumps(obj, separators=(", ", ": ")) + "\n")


def int_in(low: int, high: int, name: str | None = None) -> Callable[[str], int]:
    """argparse type: a whole number from ``low`` to ``high``, with a clear message.

    Checked on the text's length first, so ``99999999999999999999`` or a megabyte of
    digits is refused before any conversion; ``_`` separators and non-ASCII digits too.
    """

    def parse(text: str) -> int:
        t = text.strip()
        body = t[1:] if t[:1] in "+-" else t
        if not body or not body.isascii() or not body.isdigit() or len(body) > 30:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {_show(text)}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}, got {_show(text)}")
        return value

    parse.__name__ = name or f"int {low}..{high}"
    return parse


def float_in(low: float, high: float, name: str | None = None) -> Callable[[str], float]:
    """argparse type: a finite number from ``low`` to ``high`` (no nan, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a number, got {_show(text)}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be between {low:g} and {high:g}, got {_show(text)}"
            )
        return value

    parse.__name__ = name or f"number {low:g}..{high:g}"
    return parse


def _show(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


INT32_MAX = 2**31 - 1
SEED_ARG = int_in(0, MAX_SEED, "seed")  # every command's --seed: one range
non_negative_int = int_in(0, INT32_MAX, "whole number >= 0")
positive_int = int_in(1, INT32_MAX, "whole number >= 1")


def data_folder(text: str) -> str:
    """argparse type of ``--data``: a folder name, never empty (an unset shell variable
    must not silently mean the project's own ``data/``)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the data folder name is empty")
    if "\0" in text:
        raise argparse.ArgumentTypeError("the data folder name holds a NUL character")
    return text


def add_data_arg(parser: argparse.ArgumentParser, creates: bool = False) -> None:
    """``--data DIR`` (default: ``$DSQ_DATA``, else ``data/`` in the project).

    Every command that only reads a data folder refuses one that does not exist
    (:func:`existing_data_dir`); only a command that records games (``creates``) makes it,
    and it writes into the bundled sample only when named (:func:`writable_data_dir`).
    """
    parser.add_argument(
        "--data",
        type=data_folder,
        help=(
            "data folder, created if missing (default: $DSQ_DATA; the bundled sample data/ "
            "in the project only when named)"
            if creates
            else "data folder, must exist (default: $DSQ_DATA, else the bundled sample "
            "data/ in the project)"
        ),
    )


MAX_TEXT_BYTES = 16 * 2**20


def read_text(path: str, limit: int = MAX_TEXT_BYTES) -> str:
    """A text file's contents (at most ``limit`` bytes), or a DsqError saying why it cannot
    be read: missing, a folder, not UTF-8, or endless (``/dev/zero``) or too large."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise DsqError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise DsqError(f"{path} is larger than {limit // 2**20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DsqError(f"{path} is not a UTF-8 text file") from None


def spec_arg_kind(field: FieldInfo | str) -> dict[str, Any]:
    """How argparse reads the flag of a batch spec field (a ``FieldInfo`` or its name):
    its range, choices or kind as ``sim.core.batchspec`` declares them."""
    f = field if isinstance(field, FieldInfo) else next(i for i in spec_fields() if i.name == field)
    if f.kind == "bool":
        return {"action": "store_true"}
    if f.kind == "int":
        return {"type": int_in(f.low, f.high)}
    if f.kind == "choice":
        return {"choices": f.choices}
    if f.kind == "suite":
        return {"metavar": "FILE"}
    return {}


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises ``KeyboardInterrupt`` like Ctrl-C (main thread only),
    so a command stopped by ``kill`` records what it played and exits 130; the previous
    handler is restored on the way out."""
    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
