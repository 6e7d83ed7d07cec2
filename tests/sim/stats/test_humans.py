"""Games a person played (a player recorded as ``human``) are left out of the statistics
unless the selection asks for them, in the one WHERE clause every statistic goes through."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import DsqError
from sim.stats import (
    Selection,
    canonical_selection,
    end_reasons,
    general_stats,
    list_games,
    matchup_table,
)
from sim.stats.query import HUMAN
from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk


@pytest.fixture()
def mixed(tmp_path: Path):  # noqa: ANN201
    """Six bot games and two games against a person (one as red, one as blue)."""
    bots = [dict(red="greedy", blue="random", winner="red", reason="den", plies=40)] * 6
    people = [
        dict(red=HUMAN, blue="greedy", winner="red", reason="den", plies=30),
        dict(red="random", blue=HUMAN, winner="blue", reason="capture_all", plies=60),
    ]
    for batch_id, rows in (("bots", bots), ("people", people)):
        rows = [dict(r, batch_id=batch_id, game_index=i, pair_id=i) for i, r in enumerate(rows)]
        write_games_chunk(tmp_path, batch_id, rows_table(rows))
    with open_dataset(tmp_path) as ds:
        yield ds


def test_games_against_people_are_left_out_unless_asked(mixed) -> None:  # noqa: ANN001
    con = mixed.con
    assert general_stats(con, Selection()).games == 6
    assert general_stats(con, Selection(humans=True)).games == 8
    assert general_stats(con, Selection(bots=(HUMAN,))).games == 2  # naming them asks too
    assert general_stats(con, Selection(bots=("greedy",))).games == 6
    assert general_stats(con, Selection(bots=("greedy",), humans=True)).games == 7
    reasons = end_reasons(con, Selection()).set_index("reason")["games"]
    assert reasons["capture_all"] == 0 and reasons["den"] == 6
    assert set(matchup_table(con, Selection())["bot"]) == {"greedy", "random"}
    assert list_games(con, Selection())[1] == 6
    assert list_games(con, Selection(humans=True))[1] == 8


def test_the_selection_says_so() -> None:
    assert Selection().to_dict()["humans"] is False
    assert Selection(humans=True).with_humans and Selection(bots=(HUMAN,)).with_humans
    assert "against people" in Selection(humans=True).describe()
    assert "against people" not in Selection().describe()
    assert canonical_selection(Selection(bots=(HUMAN, "greedy"))).bots[0] == HUMAN
    with pytest.raises(DsqError, match="humans"):
        Selection(humans="yes")  # type: ignore[arg-type]
