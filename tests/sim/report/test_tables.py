"""The aligned plain-text table shared by ``dsq stats`` and ``dsq batches``."""

from __future__ import annotations

import pytest

from sim.report.tables import aligned_table


def test_columns_are_padded_and_numbers_right_aligned() -> None:
    rows = [["a", "5", "1.0%"], ["bbbb", "1,234", "50.0%"]]
    text = aligned_table(["name", "games", "share"], rows)
    assert text.splitlines() == [
        "  name  games  share",
        "  a         5   1.0%",
        "  bbbb  1,234  50.0%",
    ]


def test_alignment_and_indent_can_be_chosen() -> None:
    text = aligned_table(["ID", "N", "LABEL"], [["x", "10", ""], ["long-id", "2", "z"]],
                         right=(), indent="")  # fmt: skip
    assert text.splitlines() == ["ID       N   LABEL", "x        10", "long-id  2   z"]
    text = aligned_table(["#", "bot"], [["1", "a"], ["10", "b"]], right={0})
    assert text.splitlines() == ["  #   bot", "   1  a", "  10  b"]


def test_a_header_alone_and_a_ragged_row() -> None:
    assert aligned_table(["a", "b"], []) == "  a  b"
    with pytest.raises(ValueError, match="2 cells"):
        aligned_table(["a", "b", "c"], [["1", "2"]])
