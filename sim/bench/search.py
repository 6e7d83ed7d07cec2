"""Alpha-beta speed: nodes per second from the initial position and from middlegames."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine import Position
from engine.rng import seed_state

Clock = Callable[[], float]


def sample_positions(count: int, rules: str = "standard") -> list[Position]:
    """Middlegame positions: from greedy-vs-greedy games after a random opening, at plies
    10..60 (the same positions on every run)."""
    # lazy: start-up time (numba kernels)
    from sim.play.referee import game_moves, play_game

    out: list[Position] = []
    seed = 0
    while len(out) < count:
        g = play_game(rules, "greedy", "greedy", seed=seed, opening_plies=6, ply_cap=70)
        moves = game_moves(g)
        ply = 10 + (seed * 7) % 50
        if len(moves) > ply:
            pos = Position(rules)
            pos.play_moves(moves[:ply])
            if pos.result is None:
                out.append(pos)
        seed += 1
    return out


def alphabeta_rate(
    positions: list[Position], depth: int, clock: Clock = time.perf_counter, extra: str = "",
    context: Any = None,
) -> dict[str, Any]:  # fmt: skip
    """Nodes/s of ``alphabeta:depth=depth`` (``extra``: more parameters, e.g.
    ``,eval=NAME``, found through ``context``) choosing a move in each position (a fresh
    bot each time), summed over the positions; ``clock`` measures the time."""
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots import make_bot

    nodes = 0
    seconds = 0.0
    for pos in positions:
        spec = f"alphabeta:depth={depth}{extra}"
        bot = make_bot(spec, pos.rules, seed_state(1), *(() if context is None else (context,)))
        t = clock()
        bot.choose(pos.st)
        seconds += clock() - t
        nodes += bot.info["nodes"]
    return {
        "depth": depth,
        "positions": len(positions),
        "nodes": nodes,
        "seconds": seconds,
        "nodes_per_s": nodes / seconds if seconds > 0 else float("nan"),
    }


def search_rates(clock: Clock = time.perf_counter) -> dict[str, Any]:
    """``dsq bench``'s alpha-beta figures: the initial position at depth 9, and 12
    middlegame positions at depth 7 (``standard``), with the classic evaluation and with
    the shipped tuned one (``tuned``, the same middlegames; ``tuned_share``: its rate over
    the classic one's), and the time to depth 9 there with and without late-move
    reductions (``to_depth``, :func:`time_to_depth`)."""
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots import make_bot

    for name in ("classic", "auto"):  # load
        make_bot(f"alphabeta:depth=2,eval={name}", "standard", seed_state(0)).choose(Position().st)
    mid = sample_positions(12)
    out: dict[str, Any] = {
        "start": alphabeta_rate([Position()], 9, clock, ",eval=classic"),
        "midgame": alphabeta_rate(mid, 7, clock, ",eval=classic"),
        "tuned": alphabeta_rate(mid, 7, clock, ",eval=auto"),
    }
    out["tuned_share"] = out["tuned"]["nodes_per_s"] / out["midgame"]["nodes_per_s"]
    out["to_depth"] = time_to_depth(mid, 9, clock)
    return out


def time_to_depth(positions: list[Position], depth: int, clock: Clock) -> dict[str, Any]:
    """Seconds and nodes of the shipped evaluation to reach ``depth`` in ``positions``,
    without and with late-move reductions (``lmr=1``); ``share``: the second's time over
    the first's."""
    plain = alphabeta_rate(positions, depth, clock, ",eval=auto")
    reduced = alphabeta_rate(positions, depth, clock, ",eval=auto,lmr=1")
    return {"plain": plain, "lmr": reduced, "share": reduced["seconds"] / plain["seconds"]}
