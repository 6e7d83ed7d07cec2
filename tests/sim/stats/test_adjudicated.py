"""Games adjudicated on the players' search scores are results (a resign is the other
side's win) under their own reasons, never counted as an end the rules give; the
selection can leave them out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.stats import Selection, bot_table, end_reasons, general_stats, general_stats_by
from sim.stats.compare import design_metrics
from sim.stats.synthetic import rows_table
from sim.storage.reading import open_dataset
from sim.storage.writing import write_games_chunk
from tests.support.procs import dsq_here

GAMES = (
    [dict(winner="red", reason="den")] * 3
    + [dict(winner="blue", reason="adjudicated_resign")] * 2
    + [dict(winner="draw", reason="adjudicated_draw")] * 4
    + [dict(winner="draw", reason="no_capture")]
)


@pytest.fixture()
def judged(tmp_path: Path):  # noqa: ANN201
    rows = [
        dict(g, red="greedy", blue="random", batch_id="b", game_index=i, pair_id=i, plies=50)
        for i, g in enumerate(GAMES)
    ]
    write_games_chunk(tmp_path, "b", rows_table(rows))
    with open_dataset(tmp_path) as ds:
        yield tmp_path, ds


def test_adjudicated_games_count_as_results_under_their_own_reason(judged) -> None:  # noqa: ANN001
    _, ds = judged
    g = general_stats(ds.con)
    assert (g.games, g.red.count, g.blue.count, g.draw.count) == (10, 3, 2, 5)
    assert g.reasons["adjudicated_resign"] == 2 and g.reasons["adjudicated_draw"] == 4
    assert g.reasons["den"] == 3 and g.reasons["no_capture"] == 1
    reasons = end_reasons(ds.con).set_index("reason")
    assert reasons.loc["adjudicated_resign", ["games", "blue"]].tolist() == [2, 2]
    assert reasons.loc["adjudicated_draw", ["games", "draw"]].tolist() == [4, 4]
    greedy = bot_table(ds.con).set_index("bot").loc["greedy"]
    assert (greedy["wins"], greedy["draws"], greedy["losses"]) == (3, 5, 2)
    row = general_stats_by(ds.con, Selection(), "rules").iloc[0].to_dict()
    assert design_metrics(row)["rule_draws"] == pytest.approx(0.1)  # the no-capture draw only


def test_the_selection_leaves_them_out_when_asked(judged) -> None:  # noqa: ANN001
    data, ds = judged
    plain = Selection(adjudicated=False)
    g = general_stats(ds.con, plain)
    assert (g.games, g.red.count, g.blue.count, g.draw.count) == (4, 3, 0, 1)
    assert "adjudicated" in plain.describe() and plain.to_dict()["adjudicated"] is False
    out = dsq_here("stats", "--data", str(data), "--json", "--no-adjudicated")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["general"]["games"] == 4
