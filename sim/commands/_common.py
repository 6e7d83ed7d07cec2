"""Arguments and helpers shared by the position-based commands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError

if TYPE_CHECKING:
    from engine.position import Position


def add_position_args(parser: argparse.ArgumentParser, moves_help: str | None = None) -> None:
    """``--rules``, ``--fen`` and ``--moves``."""
    parser.add_argument(
        "--rules", default="standard", help="rules spec, e.g. yeshou+tiger_jump=horizontal"
    )
    parser.add_argument("--fen", default=None, help="start position (default: the initial one)")
    parser.add_argument(
        "--moves", default="", help=moves_help or 'moves played from the FEN, e.g. "a3a4 a7a6"'
    )


def position_from_args(rules: str | None, fen: str | None, moves: str | list[str]) -> Position:
    """The position after ``moves`` from ``fen`` under ``rules`` (DsqError on bad input)."""
    from engine.position import Position

    pos = Position(rules, fen)
    pos.play_moves(moves)
    return pos


def result_json(pos: Position) -> dict[str, str] | None:
    """The result of a position as the JSON the CLI prints."""
    result = pos.result
    return None if result is None else result.as_dict()


def print_json(obj: Any) -> None:
    """One JSON object on one line of standard output."""
    sys.stdout.write(json.dumps(obj, separators=(", ", ": ")) + "\n")


def non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0, with a clear message."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1, with a clear message."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def read_text(path: str) -> str:
    """A text file's contents, or a DsqError saying why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise DsqError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise DsqError(f"{path} is not a UTF-8 text file") from None
