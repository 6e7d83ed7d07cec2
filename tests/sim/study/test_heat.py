"""A study's figure over its cells as the heat map shows it (the neutral value, the cells
whose interval excludes it, Holm's correction over the map), the parts of an effect's
sentence, the tally of significant effects and a pairing's bots."""

from __future__ import annotations

import pytest

from sim.study.effects import effects_tally, sentence, sentence_parts
from sim.study.heat import NEUTRAL, heat_cells, heat_tally
from sim.study.spec import pairing_bots


def _cell(i: int, value: float | None, low: float | None, high: float | None,
          p: float | None) -> dict:  # fmt: skip
    fm = {"value": value, "low": low, "high": high, "p": p}
    return {"cell": i, "rules": "standard", "games": 20, "first_move_elo": fm,
            "draw_rate": {"value": 0.4, "low": 0.2, "high": 0.6}}  # fmt: skip


def test_cells_whose_interval_excludes_the_neutral_value_are_marked_and_corrected():
    cells = [
        _cell(0, 69.0, 21.0, 116.0, 0.004),  # excludes 0, stays after Holm (3 tests)
        _cell(1, 17.4, -80.0, 112.0, 0.46),  # a wide interval about 0
        _cell(2, -40.0, -79.0, -1.0, 0.045),  # excludes 0, not after Holm
        _cell(3, None, None, None, None),  # no figure
    ]
    entries = heat_cells(cells, "first_move_elo")
    assert [e["excludes_neutral"] for e in entries] == [True, False, True, False]
    assert entries[0]["p_holm"] == pytest.approx(0.012)
    assert [e["significant"] for e in entries] == [True, False, False, False]
    assert entries[3]["p_holm"] is None
    assert heat_tally(entries) == {"shown": 3, "excluding": 2, "tested": 3, "significant": 1}


def test_a_figure_without_a_neutral_value_is_never_marked():
    entries = heat_cells([_cell(0, 1.0, 0.5, 2.0, 0.01)], "draw_rate")
    assert "draw_rate" not in NEUTRAL
    assert entries[0]["value"] == 0.4 and entries[0]["low"] == 0.2
    assert not entries[0]["excludes_neutral"] and entries[0]["p"] is None
    assert heat_tally(entries)["tested"] == 0


def test_a_score_diverges_from_one_half():
    cell = {"cell": 0, "rules": "r", "games": 9,
            "first_player_score": {"value": 0.6, "low": 0.52, "high": 0.68, "p": 0.01}}  # fmt: skip
    assert heat_cells([cell], "first_player_score")[0]["excludes_neutral"]


def test_an_effect_sentence_from_its_parts():
    e = {"term": "no_capture_plies=50", "pairing": "random vs greedy", "metric": "draw_rate",
         "unit": "points", "effect": -0.2, "low": -0.35, "high": -0.05}  # fmt: skip
    parts = sentence_parts(e)
    assert parts["up"] is False
    assert (parts["size"], parts["low"], parts["high"]) == pytest.approx((20.0, 5.0, 35.0))
    assert sentence(e) == (
        "`no_capture_plies=50` lowers the draw rate by 20.0 percentage points [5.0, 35.0] "
        "at random vs greedy"
    )
    plies = {**e, "metric": "mean_plies", "unit": "plies", "effect": 31.0, "low": 22.2,
             "high": 40.4}  # fmt: skip
    assert sentence(plies).endswith("lengthens games by 31 plies [22, 40] at random vs greedy")


def test_the_tally_of_significant_effects():
    effects = [{"significant": True}, {"significant": False}, {"p": None}]
    assert effects_tally(effects) == (1, 3)


def test_a_pairing_names_its_bots():
    assert pairing_bots("random") == ["random"]
    assert pairing_bots("alphabeta:depth=2 vs greedy") == ["alphabeta:depth=2", "greedy"]
