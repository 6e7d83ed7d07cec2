"""What the Play page (``views/play.py``) writes about its game, in the user's language:
the explanation of the last click, whose turn it is or how the game ended, what to know
about a finished game, and the moves so far as a table (and as data, for its CSV).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from dashboard.i18n import counted
from dashboard.lang import nf, piece, result, side, t
from dashboard.playgame import ClickGame
from engine.board import square_name


def notice_text(game: ClickGame) -> str | None:
    """The explanation of the last click, in the user's language."""
    note = game.notice
    if note is None:
        return None
    fields: dict[str, Any] = dict(note.fields)
    if "rules" in fields:
        fields["rules"] = t("play.list_separator").join(t(f"play.why_{r}") for r in fields["rules"])
    return t(note.key, **fields)


def status_text(game: ClickGame) -> str:
    """Whose turn it is, or how the game ended."""
    res = game.result
    if res is not None:
        winner, why = res
        if why == "resign":
            return t("play.you_resigned", side=side(winner))
        if why == "abandoned":
            return t("play.you_left", side=side(winner))
        outcome = "draw" if winner == "draw" else ("won" if winner == game.human else "lost")
        return t(f"play.result_{outcome}", result=result(winner, why))
    if game.bot_to_move:
        return t("play.bot_turn", side=side(game.to_move))
    if game.selected is not None:
        count = len(game.targets(game.selected))
        return t(
            counted("play.selected", count),
            piece=piece(game.board()[game.selected]),
            square=square_name(game.selected),
            count=nf().count(count),
        )
    return t("play.your_turn", side=side(game.human))


def moves_table(game: ClickGame) -> pd.DataFrame:
    """The moves so far, newest first; the last column is the bot's thinking time (the
    person's moves leave it empty)."""
    n = nf()
    rows = [
        (
            m.ply,
            side(m.side) + ("" if m.by_bot else " · " + t("play.you")),
            m.move,
            f"× {piece(m.captured)}" if m.captured else "",
            t("play.ms", ms=n.num(m.think_ms, 0)) if m.by_bot and m.think_ms is not None else "",
        )
        for m in reversed(game.moves)
    ]
    cols = ["ply", "side", "move", "capture", "time"]
    return pd.DataFrame(rows, columns=[t(f"play.col_{c}") for c in cols])


def end_notes(game: ClickGame) -> list[str]:
    """What to know about a finished game besides its result: a resignation is final (Undo
    does not take it back), and a game void under the rules' scoring counts for nothing."""
    notes = []
    if game.resigned is not None:
        notes.append(t("play.resign_final"))
    if game.void:
        rounds = game.ruleset.void_rounds
        notes.append(t(counted("play.void", rounds), rounds=nf().count(rounds),
                       plies=nf().count(len(game.moves))))  # fmt: skip
    return notes


def move_figures(game: ClickGame) -> pd.DataFrame:
    """The moves so far as data, newest first (the CSV of the moves table)."""
    rows = [(m.ply, m.side, m.by_bot, m.move, m.captured or "", m.think_ms)
            for m in reversed(game.moves)]  # fmt: skip
    cols = ["ply", "side", "by_bot", "move", "captured", "think_ms"]
    return pd.DataFrame(rows, columns=cols)
