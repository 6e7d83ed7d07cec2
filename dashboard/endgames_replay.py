"""The endgame tables in the Games replay: the table's value of the shown position, and
the check of a game the simulator ended by the tables (reason ``tablebase``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.endgames import frame_value, table_winner, text
from dashboard.settings import load_settings
from sim.records.replay import Replay
from sim.tablebase.store import tables_root


def tables_value(rules: str, board: Sequence[str | None], side: str) -> str | None:
    """``Tables: Red to move wins in 7 plies.`` for a position a table covers, else None."""
    found = frame_value(rules, board, side, tables_root(load_settings().data_dir))
    return None if found is None else text("replay_value", text=found)


def tables_agree(game: dict[str, Any], rep: Replay, recorded: str) -> None:
    """Show whether the tables give the final position of an adjudicated game the recorded
    result."""
    final = rep.frames[-1]
    side = "red" if final.ply % 2 == 0 else "blue"
    root = tables_root(load_settings().data_dir)
    said = frame_value(game["rules"], final.board, side, root) or "-"
    if table_winner(game["rules"], final.board, side, root) == game["winner"]:
        st.success(text("replay_agree", recorded=recorded, text=said))
    else:
        st.warning(text("replay_disagree", recorded=recorded, text=said))
