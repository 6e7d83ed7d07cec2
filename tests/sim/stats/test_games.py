"""Browsing functions of sim.stats: values present, a page of games, one game."""

from __future__ import annotations

from pathlib import Path

from sim.play.referee import game_moves
from sim.stats import Selection, distinct_values, game_record, list_games
from sim.storage.reading import open_dataset


def test_distinct_values_and_pages(fixture_data: Path) -> None:
    with open_dataset(fixture_data) as ds:
        con = ds.con
        values = distinct_values(con)
        assert values["rules"] == sorted(
            {r for (r,) in con.execute("SELECT rules FROM games").fetchall()}
        )
        assert values["batches"] == sorted(values["batches"])
        everyone = {
            b for pair in con.execute("SELECT red, blue FROM games").fetchall() for b in pair
        }
        assert set(values["bots"]) == everyone

        n = con.execute("SELECT count(*) FROM games").fetchone()[0]
        first, total = list_games(con, Selection(), limit=7)
        assert total == n and len(first) == 7
        second, _ = list_games(con, Selection(), limit=7, offset=7)
        ordered = con.execute(
            "SELECT batch_id, game_index FROM games ORDER BY 1, 2 LIMIT 14"
        ).fetchall()
        got = list(zip(first.batch_id, first.game_index, strict=True)) + list(
            zip(second.batch_id, second.game_index, strict=True)
        )
        assert got == [(b, int(i)) for b, i in ordered]

        draws, n_draws = list_games(con, Selection(), winners=("draw",), reasons=("no_capture",))
        assert (
            n_draws
            == con.execute(
                "SELECT count(*) FROM games WHERE winner = 'draw' AND reason = 'no_capture'"
            ).fetchone()[0]
        )
        assert set(draws.winner) <= {"draw"}
        one_rules = values["rules"][0]
        _, n_rules = list_games(con, Selection(rules=(one_rules,)))
        assert (
            n_rules
            == con.execute("SELECT count(*) FROM games WHERE rules = ?", [one_rules]).fetchone()[0]
        )


def test_game_record_round_trips_the_moves(fixture_data: Path) -> None:
    with open_dataset(fixture_data) as ds:
        batch, index, plies = ds.con.execute(
            "SELECT batch_id, game_index, plies FROM games ORDER BY plies DESC LIMIT 1"
        ).fetchone()
        record = game_record(ds.con, batch, index)
        assert record is not None and len(record["moves"]) == plies
        assert all(isinstance(m, int) for m in record["moves"])
        assert len(game_moves(record)) == plies
        assert game_record(ds.con, batch, 10**9) is None
