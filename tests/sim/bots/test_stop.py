"""Searches another thread can end: ``AlphaBetaBot.stop`` and ``MctsBot.stop``."""

from __future__ import annotations

import threading

from engine import Position
from engine.rng import seed_state
from sim.bots import make_bot


def test_a_stopped_alphabeta_plays_its_first_iteration() -> None:
    pos = Position("yeshou")
    bot = make_bot("alphabeta:depth=7", pos.rules, seed_state(3))
    bot.stop()  # before the search: it stops after depth 1, which always completes
    move = bot.choose(pos.st)
    assert bot.info["depth"] == 1 and bot.info["move"] in pos.legal_moves()
    shallow = make_bot("alphabeta:depth=1", pos.rules, seed_state(3))
    assert shallow.choose(pos.st) == move
    bot.stopping.clear()
    bot.choose(pos.st)
    assert bot.info["depth"] == 7


def test_a_stopped_mcts_plays_from_its_first_playouts() -> None:
    pos = Position("datou")
    bot = make_bot("mcts:playouts=5000", pos.rules, seed_state(3))
    bot.stop()
    assert bot.choose(pos.st) is not None and bot.info["playouts"] == 64
    bot.stopping.clear()
    bot.choose(pos.st)
    assert bot.info["playouts"] == 5000


def test_stop_from_another_thread_ends_a_long_search() -> None:
    pos = Position("standard")
    bot = make_bot("alphabeta:depth=60", pos.rules, seed_state(3))
    seen: list[int] = []
    deep = threading.Event()

    def iteration(info: dict) -> None:
        seen.append(info["depth"])
        if info["depth"] >= 4:
            deep.set()

    bot.on_iteration = iteration
    search = threading.Thread(target=bot.choose, args=(pos.st,))
    search.start()
    assert deep.wait(120)
    bot.stop()
    search.join(120)
    assert not search.is_alive()
    assert seen == list(range(1, len(seen) + 1)) and bot.info["depth"] == seen[-1] < 60
