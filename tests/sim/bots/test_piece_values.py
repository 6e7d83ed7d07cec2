"""Animal values follow the rules: under dog_over_wolf the dog is worth the wolf's value."""

from __future__ import annotations

import pytest

from engine import Position, decode_move, parse_rules
from engine.rng import seed_state
from sim.bots import make_bot
from sim.bots.piece_values import values_array

# A red elephant on a5 can take a blue wolf on a6 or a blue dog on a4; neither is defended
# and neither threatens anything afterwards.
FEN = "6r/7/7/w6/E6/d6/7/7/7 r 0 1"


def test_values_exchange_dog_and_wolf_under_dog_over_wolf() -> None:
    plain = values_array(rules=parse_rules("standard"))
    swapped = values_array(rules=parse_rules("standard+dog_over_wolf"))
    assert plain[3] > plain[2]  # wolf above dog
    assert swapped[2] == plain[3] and swapped[3] == plain[2]


@pytest.mark.parametrize("bot", ["greedy", "alphabeta:depth=2", "mcts:playouts=300"])
@pytest.mark.parametrize(
    ("rules", "best"), [("standard", "a5a6"), ("standard+dog_over_wolf", "a5a4")]
)
def test_bots_take_the_more_valuable_animal(bot: str, rules: str, best: str) -> None:
    pos = Position(rules, FEN)
    assert {"a5a6", "a5a4"} <= set(pos.legal_moves())
    player = make_bot(bot, parse_rules(rules), seed_state(3))
    assert decode_move(player.choose(pos.st)) == best
