"""The Games page on games recorded without their moves (``--record outcomes``): it says
the moves were recomputed from the seed and replays them, or says it could not."""

from __future__ import annotations

import json
from pathlib import Path

from dashboard.i18n import text
from sim.batch import make_spec, run_batches
from tests.support.apptest import run_app


def outcomes_batch(data: Path) -> None:
    spec = make_spec("standard", "greedy", "random", 4, seed=9, record="outcomes")
    [rec] = run_batches([spec], data, ids=["o"])
    assert rec["status"] == "done"


def test_games_page_replays_a_game_recomputed_from_its_seed(monkeypatch, tmp_path: Path) -> None:
    outcomes_batch(tmp_path)
    at = run_app(monkeypatch, tmp_path, "games")
    assert text("en", "games.moves_recomputed") in [i.value for i in at.info]
    assert any("agree" in s.value for s in at.success)
    assert at.slider[0].max > 0


def test_games_page_says_a_game_could_not_be_replayed(monkeypatch, tmp_path: Path) -> None:
    outcomes_batch(tmp_path)
    path = tmp_path / "batches" / "o.json"
    record = json.loads(path.read_text())
    record["spec"]["seed"] += 1  # the games' seeds no longer follow from the batch's
    path.write_text(json.dumps(record))
    at = run_app(monkeypatch, tmp_path, "games")
    errors = [e.value for e in at.error]
    lead = text("en", "games.seed_replay_failed", why="").split(":")[0]
    assert any(e.startswith(lead) for e in errors), errors
    assert not at.slider


def test_overview_says_captures_leave_out_games_without_moves(monkeypatch, tmp_path: Path) -> None:
    outcomes_batch(tmp_path)
    at = run_app(monkeypatch, tmp_path)
    at.toggle(key="overview_details").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    lead = text("en", "overview.captures_unstored", unstored="4", games="4")
    assert lead in [c.value for c in at.caption], [c.value for c in at.caption]
