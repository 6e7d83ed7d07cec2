"""The search parameters of the ``mcts`` bot (its kind is in :mod:`sim.bots.registry`):
exploration, rollouts, how a leaf is scored, the progressive bias and the minimax blend.

``leaf``, ``leaf_depth``, ``bias`` and ``minimax`` came after games were stored: their
``legacy`` values are the bot before them, which a spec of the classic evaluation that
does not name them plays."""

from __future__ import annotations

from sim.bots.params import Param

MCTS_SEARCH = (
    Param("c", "float", 0.05, "UCT exploration constant", 0.0, 100.0),
    Param("rollout", "choice", "random", "rollout policy", choices=("random", "greedy")),
    Param(
        "rollout_plies",
        "int",
        0,
        "plies per rollout before the evaluation scores it (0: score the leaf)",
        0,
        10000,
    ),
    Param(
        "leaf",
        "choice",
        "qsearch",
        "how a leaf (or a rollout's last position) is scored: eval (the "
        "evaluation) or qsearch (the evaluation after the captures and den entries)",
        choices=("eval", "qsearch"),
        legacy="eval",
    ),
    Param(
        "leaf_depth",
        "int",
        0,
        "with leaf=qsearch: full plies searched (alpha-beta) before the quiescence search",
        0,
        4,
        legacy=0,
    ),
    Param(
        "bias",
        "float",
        1.0,
        "progressive bias: weight of each child's prior (the evaluation after its "
        "move) added to UCT as bias * prior / (visits + 1); 0: none, unvisited "
        "children first at random",
        0.0,
        100.0,
        legacy=0.0,
    ),
    Param(
        "minimax",
        "float",
        0.0,
        "weight of a child's minimax value (over the tree's evaluations) blended "
        "with its mean playout value in the selection (needs bias above 0)",
        0.0,
        1.0,
        legacy=0.0,
    ),
)
