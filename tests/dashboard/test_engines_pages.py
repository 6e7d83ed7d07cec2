"""External engines in the dashboard: a forfeited game on the Games page, engine bots on
the Simulate page."""

from __future__ import annotations

from pathlib import Path

from sim.stats.synthetic import rows_table
from sim.storage.writing import write_games_chunk
from tests.support.apptest import run_app

ENGINE = {"name": "jungine", "version": "JungleEngine 0.1", "sha256": "ab" * 32}


def test_games_page_shows_a_forfeit_and_the_engines(monkeypatch, tmp_path: Path) -> None:
    row = dict(
        batch_id="eng", red="engine:jungine,movetime=100,margin=1000", blue="random",
        winner="blue", reason="forfeit", plies=2, moves=[14 * 64 + 21, 42 * 64 + 35],
        forfeit_note="illegal: engine jungine played the illegal move a1a9",
        time_control="red movetime=100, blue none", move_ms=[40, 0], red_engine=ENGINE,
    )  # fmt: skip
    write_games_chunk(tmp_path, "eng", rows_table([row]))
    at = run_app(monkeypatch, tmp_path, "games")
    assert any("illegal move a1a9" in i.value and "before the rules ended it" in i.value
               for i in at.info), [i.value for i in at.info]  # fmt: skip
    facts = [c.value for c in at.caption if "Red: engine jungine (JungleEngine 0.1)" in c.value]
    assert facts and "time control red movetime=100, blue none" in facts[0]
    assert not at.warning


def test_simulate_page_offers_the_registered_engines(monkeypatch, tmp_path: Path) -> None:
    registry = tmp_path / "engines.toml"
    registry.write_text('[engines.alpha]\ncommand = "a"\n[engines.beta]\ncommand = "b"\n')
    at = run_app(monkeypatch, tmp_path, "simulate", DSQ_ENGINES=str(registry))
    at.selectbox(key="sim_red_bot").set_value("engine").run()
    assert at.selectbox(key="sim_red_engine_name").options == ["alpha", "beta"]
    assert at.number_input(key="sim_red_engine_movetime").value == 1000
    registry.write_text("[engines.alpha]\ncommand = 1\n")
    at.run()
    assert any("command is required" in w.value for w in at.warning)
