"""Who moved first: the side to move in a game's start_fen (Red from the initial
position). The raw first-player figure and the first-move model both follow it."""

from __future__ import annotations

from pathlib import Path

from sim.batch import make_spec, run_batches
from sim.stats import Selection, first_move, general_stats
from sim.storage.reading import open_dataset

START_BLUE_TO_MOVE = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"


def test_blue_to_move_in_the_start_fen_is_the_first_mover(tmp_path: Path) -> None:
    """greedy (Red) against random (Blue) from a FEN with Blue to move, colours not
    swapped: the first player is Blue (random), so the first-player score is Blue's."""
    suite = f"{START_BLUE_TO_MOVE}\tBlue moves first\n"
    spec = make_spec("standard", "greedy", "random", 60, seed=3, openings=suite, ply_cap=300)
    [rec] = run_batches([spec], tmp_path, batch_id="b")
    assert rec["status"] == "done"
    with open_dataset(tmp_path) as ds:
        g = general_stats(ds.con, Selection())
        fm = first_move(ds.con, Selection())
        [(blue_wins,)] = ds.con.sql("SELECT count(*) FROM games WHERE winner = 'blue'").fetchall()
    n, draws = g.games, g.draw.count
    assert n == 60 and g.blue.count == blue_wins
    assert g.first_player.score == (blue_wins + draws / 2) / n  # Blue's, not Red's
    assert g.first_player.score < 0.5 < 1 - g.first_player.score  # greedy wins as Red
    # One pairing, and random always moved first: not separable from the bots.
    assert fm.identifiable is False

    # The same bots from the initial position: now greedy moves first. Only if the model
    # counts Blue as the first mover of the first batch did each bot move first somewhere.
    again = make_spec("standard", "greedy", "random", 60, seed=4, ply_cap=300)
    run_batches([again], tmp_path, batch_id="r")
    with open_dataset(tmp_path) as ds:
        assert first_move(ds.con, Selection()).identifiable is True
