"""The whole-selection download address: a selection goes into its query string and
comes back the same; a bad query is one clear error."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from dashboard.downloadlink import MAX_VALUES, download_path, parse_query
from engine.errors import DsqError
from sim.stats.query import Selection


def _read(path: str) -> tuple[Selection, tuple[str, ...], tuple[str, ...]]:
    query = urlsplit(path).query
    return parse_query(query, parse_qsl(query, keep_blank_values=True))


def test_a_selection_travels_through_its_download_address():
    selection = Selection(
        rules=("standard", "yeshou+void_rounds=3"), bots=("alphabeta:depth=2", "random"),
        batches=("b1",), colour="blue", min_plies=12, between=True, humans=True,
        adjudicated=False, voids=True,
    )  # fmt: skip
    path = download_path(selection, ("red", "draw"), ("den",), "csv")
    assert path.startswith("dsq/games.csv?")
    assert _read(path) == (selection, ("red", "draw"), ("den",))
    assert _read(download_path(Selection(), (), (), "txt")) == (Selection(), (), ())


@pytest.mark.parametrize(
    "query",
    ["min_plies=-1", "min_plies=1e3", "humans=yes", "colour=red", "between=1",
     "winners=nobody", "reasons=checkmate", "data=/etc", "humans=1&humans=0",
     "rules=" + "x" * 401, "&".join(["bots=a"] * (MAX_VALUES + 1)), "x=" + "y" * 20_000],
)  # fmt: skip
def test_a_bad_query_is_one_error(query):
    with pytest.raises(DsqError) as exc:
        parse_query(query, parse_qsl(query, keep_blank_values=True))
    assert "\n" not in str(exc.value)
