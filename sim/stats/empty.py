"""What a command says when its selection holds no game: one line, the same in ``dsq stats``,
``dsq games export``, ``dsq openings build`` and ``dsq tune`` (each raises it as a
``DsqError``, exit code 2): the selection, the bot it may have meant (the same spec under
another evaluation), and the bots, rules and (when batches were asked for) batches the data
does hold."""

from __future__ import annotations

from typing import Any

from engine.errors import DsqError
from sim.stats.games import distinct_values
from sim.stats.query import Selection, bot_label, is_kind

MAX_BATCHES_SHOWN = 20


class NoGames(DsqError):
    """A selection that matches no recorded game (the message says what exists)."""


def other_evaluation(wanted: str, players: list[str]) -> list[str]:
    """The recorded ``players`` that the bot filter ``wanted`` (a canonical spec) would name
    if only its evaluation (``eval=``) differed, by their short spec."""
    if is_kind(wanted):
        return []
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots.spec import parse_bot, short_spec

    try:
        spec = parse_bot(wanted)
    except DsqError:
        return []
    mine = {k: v for k, v in spec.params.items() if k != "eval"}
    out = []
    for player in players:
        try:
            other = parse_bot(player)
        except DsqError:
            continue
        theirs = {k: v for k, v in other.params.items() if k != "eval"}
        if other.name == spec.name and theirs == mine:
            out.append(short_spec(player))
    return sorted(set(out))


def no_games_message(con: Any, selection: Selection, data: Any, void: int = 0) -> str:
    """The line said when ``selection`` holds no game of the data folder ``data`` (its
    DuckDB connection ``con``); ``void`` counts the selected games left out as void."""
    have = distinct_values(con)
    if not have["rules"]:
        return f"no games in {data}"
    parts = [f"no games in {data} match the selection ({selection.describe()})"]
    if void:
        parts.append(
            f"{void:,} more void, left out: ended within their rule set's void_rounds "
            "(yeshou: 10 rounds = 20 plies), they score nothing; --with-void counts them"
        )
    meant = [m for bot in selection.bots for m in other_evaluation(bot, have["bots"])]
    if meant:
        names = " or ".join(dict.fromkeys(meant))
        parts.append(f"did you mean {names}? (the same bot under another evaluation)")
    parts.append("bots in this data: " + ", ".join(bot_label(b) for b in have["bots"]))
    parts.append("rules in this data: " + ", ".join(have["rules"]))
    if selection.batches:
        shown = have["batches"][:MAX_BATCHES_SHOWN]
        more = len(have["batches"]) - len(shown)
        parts.append(
            "batches in this data: " + ", ".join(shown) + (f" and {more} more" if more else "")
        )
    return "; ".join(parts)


def no_games(con: Any, selection: Selection, data: Any, void: int = 0) -> NoGames:
    """The error to raise when ``selection`` holds no game (see :func:`no_games_message`)."""
    return NoGames(no_games_message(con, selection, data, void))
