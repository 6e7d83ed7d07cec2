"""The cost of strong play: CPU seconds per game of the atlas's top level, MCTS playouts/s.

The atlas's strongest level (docs/atlas.md) is ``alphabeta:nodes=200000`` with the shipped
evaluation of each preset (``eval=auto``): node budgets play the same games on every
machine, so the CPU time of a game is the price of its nodes. Games are self-play from
the same seeded random openings (8 plies) on every run.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import PRESETS, Position
from engine.rng import seed_state

Clock = Callable[[], float]
STRONG_SPEC = "alphabeta:nodes=200000"
OPENING_PLIES = 8


def strong_game_cost(
    games: int,
    spec: str = STRONG_SPEC,
    presets: tuple[str, ...] = tuple(PRESETS),
    clock: Clock = time.process_time,
) -> list[dict[str, Any]]:
    """CPU seconds per self-play game of ``spec`` under each preset, over the openings of
    seeds 1..``games``: median and range, with the plies of each game."""
    # lazy: start-up time (the referee and the bot catalogue: only when games are played)
    from sim.play.referee import play_game

    out = []
    for rules in presets:
        play_game(rules, "alphabeta:depth=2", "alphabeta:depth=2", 0, OPENING_PLIES, ply_cap=10)
        seconds, plies = [], []
        for seed in range(1, games + 1):
            t = clock()
            game = play_game(rules, spec, spec, seed, opening_plies=OPENING_PLIES)
            seconds.append(clock() - t)
            plies.append(int(game["plies"]))
        out.append(
            {
                "rules": rules,
                "bot": spec,
                "games": games,
                "median_s": statistics.median(seconds),
                "min_s": min(seconds),
                "max_s": max(seconds),
                "seconds": seconds,
                "plies": plies,
            }
        )
    return out


def mcts_rate(
    positions: list[Position], playouts: int = 2000, clock: Clock = time.process_time
) -> dict[str, Any]:
    """Playouts per CPU second of ``mcts:playouts=playouts`` (classic evaluation) choosing a
    move in each position (a fresh bot each time), summed over the positions."""
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots import make_bot

    spec = f"mcts:playouts={playouts},eval=classic"
    make_bot(spec, positions[0].rules, seed_state(1)).choose(positions[0].st)  # load
    done, seconds = 0, 0.0
    for pos in positions:
        bot = make_bot(spec, pos.rules, seed_state(1))
        t = clock()
        bot.choose(pos.st)
        seconds += clock() - t
        done += int(bot.info["playouts"])
    return {
        "playouts": done,
        "positions": len(positions),
        "seconds": seconds,
        "playouts_per_s": done / seconds if seconds > 0 else float("nan"),
    }
