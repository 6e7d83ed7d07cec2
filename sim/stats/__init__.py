"""Statistics over recorded games: pure functions of a DuckDB connection with a ``games``
view (the columns of :data:`sim.storage.schema.GAME_SCHEMA`), e.g. ``open_dataset(dir).con``.

Every function takes the connection and a :class:`Selection` and returns a frozen
dataclass (with ``to_dict()``), a dict or a pandas DataFrame, ready for the CLI
(``dsq stats``) and the dashboard to show as they are. Aggregation happens in DuckDB.
"""

from sim.stats.compare import (
    RuleComparison,
    chi_square,
    compare_rules,
    kruskal_counts,
    mann_whitney_counts,
)
from sim.stats.details import (
    capture_matrix,
    capture_squares,
    den_animals,
    square_grid,
    unstored_games,
)
from sim.stats.distributions import end_reasons, length_counts, length_histogram
from sim.stats.elo import (
    MatchScore,
    PentanomialScore,
    elo_from_score,
    los,
    match_score,
    pentanomial,
    score_from_elo,
)
from sim.stats.firstmove import FirstMove, first_move, first_move_by
from sim.stats.games import distinct_values, game_record, list_games
from sim.stats.general import (
    GeneralStats,
    LengthStats,
    ScoreEstimate,
    general_stats,
    general_stats_by,
    score_estimate,
)
from sim.stats.intervals import Proportion, proportion, score_interval, wilson
from sim.stats.matchups import bot_table, matchup_table, pentanomial_counts
from sim.stats.query import Selection, canonical_selection
from sim.stats.ratings import Ratings, ratings
from sim.stats.sprt import (
    SprtConfig,
    SprtResult,
    SprtStopCheck,
    make_stop_check,
    parse_sprt,
    sprt_bounds,
    sprt_llr,
    sprt_test,
)

__all__ = [
    "distinct_values",
    "game_record",
    "list_games",
    "FirstMove",
    "GeneralStats",
    "LengthStats",
    "MatchScore",
    "PentanomialScore",
    "Proportion",
    "Ratings",
    "RuleComparison",
    "ScoreEstimate",
    "Selection",
    "SprtConfig",
    "SprtResult",
    "SprtStopCheck",
    "bot_table",
    "canonical_selection",
    "capture_matrix",
    "capture_squares",
    "chi_square",
    "compare_rules",
    "den_animals",
    "unstored_games",
    "elo_from_score",
    "end_reasons",
    "first_move",
    "first_move_by",
    "general_stats",
    "general_stats_by",
    "kruskal_counts",
    "length_counts",
    "length_histogram",
    "los",
    "make_stop_check",
    "mann_whitney_counts",
    "match_score",
    "matchup_table",
    "parse_sprt",
    "pentanomial",
    "pentanomial_counts",
    "proportion",
    "ratings",
    "score_estimate",
    "score_from_elo",
    "score_interval",
    "sprt_bounds",
    "sprt_llr",
    "sprt_test",
    "square_grid",
    "wilson",
]
