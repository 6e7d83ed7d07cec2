"""The drawing of a position (engine.svg) and a Position drawing itself (in Jupyter)."""

from __future__ import annotations

from engine import Position
from engine.svg import BoardLabels, board_svg

# Red's elephant on a3 next to Blue's cat on b3 (taken from b8).
CAT_NEXT_TO_ELEPHANT = "l5t/1d5/r1p1w1e/7/7/7/EcW1P1R/1C3D1/T5L r 0 1"


def test_a_position_draws_itself_with_its_caption() -> None:
    pos = Position()
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="piece red"') == 8 and svg.count('class="piece blue"') == 8
    assert ">standard: red to move</text>" in svg
    assert 'stroke-dasharray="6 4"' not in svg and 'class="capture"' not in svg


def test_the_last_move_is_outlined_and_its_capture_marked() -> None:
    pos = Position("standard", CAT_NEXT_TO_ELEPHANT)
    pos.play("a3a4")
    assert 'stroke-dasharray="6 4"' in pos.svg() and 'class="capture"' not in pos.svg()
    pos.undo()
    pos.play("a3b3")
    svg = pos.svg(caption="the cat is taken")
    assert 'class="capture"' in svg and svg.count('class="piece blue"') == 7
    assert ">the cat is taken</text>" in svg


def test_the_caption_says_the_result() -> None:
    pos = Position("standard", "7/7/7/7/7/7/7/2l4/2E4 r 0 1")  # red elephant, blue lion
    pos.play("c1c2")  # the elephant takes the last blue piece
    assert pos.caption() == "standard: red wins (capture_all)"


def test_dog_over_wolf_and_other_words() -> None:
    pos = Position("standard+dog_over_wolf")
    assert ">4</text><text" in pos.svg()  # a dog drawn as 4: there are two, of strength 4
    labels = BoardLabels(den="穴", names=("R",) * 8)
    svg = board_svg(pos.board(), labels=labels)
    assert svg.count(">穴</text>") == 2 and ">Elephant</text>" not in svg


def test_repr_names_the_rules_and_the_fen() -> None:
    pos = Position("yeshou", CAT_NEXT_TO_ELEPHANT)
    assert repr(pos) == f"Position('yeshou', {CAT_NEXT_TO_ELEPHANT!r})"
    again = eval(repr(pos), {"Position": Position})
    assert again.fen() == pos.fen() and again.rules == pos.rules
