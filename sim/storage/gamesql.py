"""SQL fragments over a relation with the columns of a game (``rules``, ``plies``,
``start_fen``, ``reason``): who moved first, and whether a game is void under its rule
set's scoring rule. The statistics (:mod:`sim.stats.query`) and the files' summaries
(:mod:`sim.storage.summarizing`) both use them, so a figure read from a summary is the figure
of the games.
"""

from __future__ import annotations

from engine.codes import SCORE_ADJUDICATIONS
from engine.ruleset_options import OPTION_BY_NAME

ADJUDICATED = tuple(sorted(SCORE_ADJUDICATIONS))

# The side that moves first in a game: the side to move in its ``start_fen`` (a FEN's
# second field, ``r`` or ``b``), Red from the initial position. Opening plies, random or
# from a suite, are part of the game: they do not change who moved first.
FIRST_SIDE_SQL = (
    "(CASE WHEN split_part(coalesce(start_fen, ''), ' ', 2) = 'b' THEN 'blue' ELSE 'red' END)"
)

# Scoring 1 (``void_rounds``, ``engine.rules.Ruleset.scores``) in SQL: a game's rule set's
# ``void_rounds``, read from its canonical spec (the ``rules`` column: the option when the
# spec names it, else its preset's value), and whether the game is void under it (its
# last ply in round ``void_rounds`` or earlier, a round being two plies from its first).
_VOID = OPTION_BY_NAME["void_rounds"]
VOID_ROUNDS_SQL = (
    "(CASE WHEN contains(rules, 'void_rounds=') THEN "
    "CAST(regexp_extract(rules, '(^|\\+)void_rounds=([0-9]+)', 2) AS BIGINT)"
    + "".join(
        f" WHEN split_part(rules, '+', 1) = '{preset}' THEN {int(value)}"  # type: ignore[call-overload]
        for preset, value in _VOID.presets.items()
        if value
    )
    + " ELSE 0 END)"
)


def void_sql(rounds: str) -> str:
    """Whether a game is void, given its rule set's ``void_rounds`` as the SQL ``rounds``."""
    return f"({rounds} > 0 AND plies <= 2 * {rounds})"


VOID_SQL = void_sql(VOID_ROUNDS_SQL)
