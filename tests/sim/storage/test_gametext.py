"""The text form of a game record: every column comes back from the text (engines, clocks,
forfeit notes with quotes and line breaks, scores with gaps), unknown tags are ignored, and
what does not follow the format is refused with its line."""

from __future__ import annotations

import numpy as np
import pytest

from sim.records.gameimport import game_row
from sim.records.gametext import GameTextError, format_game, parse_games
from sim.records.human import Stop, human_game_row
from sim.storage.schema import GAME_SCHEMA

FLOATS = ("branching", "duration_ms")


def numbered(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(keepends=True), start=1))


@pytest.fixture
def row() -> dict:
    engine = {"name": "jungine", "version": 'Jungine "1.0"', "sha256": None}
    r = human_game_row(
        "yeshou", "human", "engine:jungine,movetime=50,margin=1000", ["a3a4", "a7a6", "a4a5"],
        seed=9, duration_ms=123.4, stop=Stop("blue", "forfeit", 'crash: "x"\nexit 1'),
        engine=engine,
    )  # fmt: skip
    r.update(batch_id="t-1", game_index=5, pair_id=4, time_control="red none, blue movetime=50",
             move_ms=[0, 51, 0], blue_clock_ms=-3, scores=[None, 0.1, None])  # fmt: skip
    return r


def test_every_column_comes_back(row: dict) -> None:
    text = format_game(row, "2026.12.01")
    assert '[BlueEngineId "Jungine \\"1.0\\""]' in text and "[RedEngine" not in text
    assert "a7a6 {+0.1/51ms}" in text
    (game,) = parse_games(numbered(text))
    back = game_row(game, "other", 0)
    for name in GAME_SCHEMA.names:
        want, got = row.get(name), back[name]
        if name in FLOATS:
            assert np.float32(want) == np.float32(got), name
        elif name == "scores":
            assert [None if s is None else np.float32(s) for s in got] == [
                None if s is None else np.float32(s) for s in want
            ]
        else:
            assert got == want, name
    assert format_game(back, "2026.12.01") == text


def test_unknown_tags_are_ignored_and_bad_text_is_refused(row: dict) -> None:
    text = format_game(row)
    (game,) = parse_games(numbered('[Event "a match"]\n' + text))
    assert game_row(game, "x", 0)["moves"] == row["moves"]
    lines = text.splitlines(keepends=True)
    moves_at = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    for bad, why in (
        (lines[moves_at].replace("{+0.1/51ms}", "{good move}"), "comment"),
        (lines[moves_at].replace("a7a6", "a7x6"), "expected a move"),
        (lines[moves_at].replace("1-0", "1-0 a3a4"), "after the result"),
    ):
        with pytest.raises(GameTextError, match=why) as err:
            list(parse_games(numbered("".join([*lines[:moves_at], bad]))))
        assert err.value.line == moves_at + 1
    with pytest.raises(GameTextError, match="given twice") as err:
        list(parse_games(numbered('[Seed "1"]\n' + text)))
    assert err.value.line == next(i for i, s in enumerate(lines, 2) if s.startswith("[Seed"))
