"""What the Endgames page and the Games replay show of the endgame tables (pure: no
Streamlit), and the texts of the Endgames page in one place.

Every figure comes from :mod:`sim.tablebase` (stored counts, per-square counts, probes);
this module only shapes them for display.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from dashboard.i18n import counted
from dashboard.lang import side as side_name
from dashboard.lang import t
from engine.board import NFILES, NRANKS
from engine.errors import DsqError
from engine.position import Position
from engine.rules import Ruleset
from sim.tablebase import outcomes as V
from sim.tablebase.analysis import fen_of
from sim.tablebase.material import MAX_PIECES, Material
from sim.tablebase.probe import probe
from sim.tablebase.store import cache_for, rules_key


# The page's texts (English), by key, as str.format templates: the one place to move them
# into the dashboard's language catalogues.
def text(key: str, /, **fields: Any) -> str:
    """The Endgames text ``key`` (``endgames.<key>`` in the language catalogues), filled in."""
    return t(f"endgames.{key}", **fields)


def one(key: str, n: object) -> str:
    """The Endgames text key for ``n`` things: ``key_one`` for exactly one."""
    return counted(f"endgames.{key}", n).removeprefix("endgames.")


def materials_on_disk(root: Path, rules: Ruleset | str) -> list[str]:
    """The names of the materials with a table on disk for ``rules``, fewest animals first."""
    found = cache_for(root).materials(rules_key(rules))
    return [m.name for m in sorted(found, key=lambda m: (m.pieces, m.name))]


def shares_table(stats: dict[str, Any]) -> pd.DataFrame:
    """One row per side to move: positions, Red's/Blue's wins and draws (counts and
    shares), the longest win."""
    rows = []
    for side in ("red", "blue"):
        s = stats[f"{side}_to_move"]
        n = max(int(s["positions"]), 1)
        rows.append(
            {
                "to_move": side,
                "positions": int(s["positions"]),
                "red": int(s["red"]),
                "draw": int(s["draw"]),
                "blue": int(s["blue"]),
                "red_share": s["red"] / n,
                "draw_share": s["draw"] / n,
                "blue_share": s["blue"] / n,
                "longest_win": int(s["longest_win"]),
            }
        )
    return pd.DataFrame(rows)


def heat_grid(counts: np.ndarray, piece_side: int, mover: int) -> np.ndarray:
    """A (9, 7) grid, rank 9 on top, of the share of positions the piece's side wins with
    the piece on each square (``counts`` from :func:`sim.tablebase.analysis.square_heatmap`:
    positions, side-to-move wins, losses, draws per square); NaN where it never stands."""
    positions = counts[:, 0].astype(float)
    wins = counts[:, 1] if piece_side == mover else counts[:, 2]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(positions > 0, wins / positions, np.nan)
    grid = share.reshape(NRANKS, NFILES)[::-1]
    return grid


def longest_win_fen(values: np.ndarray, material: Material, side: int) -> str | None:
    """A position of the longest win for ``side`` to move, or None if it wins none."""
    half = values[side * material.half : (side + 1) * material.half]
    wins = np.flatnonzero((half > 0) & (half < V.LOSS_BASE))
    if wins.size == 0:
        return None
    best = wins[np.argmax(half[wins])]
    return fen_of(material, side * material.half + int(best))


def board_fen(board: Sequence[str | None], side: str) -> str:
    """The FEN of a board (piece letters by square, None for empty), ``side`` to move."""
    rows = []
    for rank in range(NRANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(NFILES):
            letter = board[rank * NFILES + f]
            if not letter:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'r' if side == 'red' else 'b'} 0 1"


def value_text(value: str, plies: int | None, side: str) -> str:
    """``Red to move wins in 7 plies.`` and the like."""
    if value == "draw":
        return text("value_draw")
    return text(one(f"value_{value}", plies), side=side_name(side), plies=plies)


def frame_value(rules: str, board: Sequence[str | None], side: str, root: Path) -> str | None:
    """What the tables say of a replayed position, or None when no table covers it."""
    if sum(1 for x in board if x) > MAX_PIECES:
        return None
    try:
        found = probe(rules, board_fen(board, side), root)
    except DsqError:
        return None
    return None if found is None else value_text(found[0], found[1], side)


def table_winner(rules: str, board: Sequence[str | None], side: str, root: Path) -> str | None:
    """The winner (red/blue/draw) the tables give a position, or None."""
    try:
        found = probe(rules, board_fen(board, side), root)
    except DsqError:
        return None
    if found is None:
        return None
    if found[0] == "draw":
        return "draw"
    other = "blue" if side == "red" else "red"
    return side if found[0] == "win" else other


def edit_board(fen: str, square: int, letter: str | None) -> str:
    """The FEN after putting ``letter`` on ``square`` (None: emptying it); an animal already
    elsewhere moves there (each side has one of each). DsqError when the result is not a
    position (an animal other than a rat in water, or on a den)."""
    pos = Position(None, fen)
    board = list(pos.board())
    if letter:
        board = [None if x == letter else x for x in board]
    board[square] = letter
    out = board_fen(board, pos.side)
    Position(None, out)  # refuses an animal in water or on a den (FenError)
    return out
