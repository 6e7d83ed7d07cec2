"""A misbehaving engine (tests/support/bad_engine.py): each fault loses the game with the
right reason and note, the engine is restarted for the next game, a batch goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.batch import RunOptions, make_spec, run_batch
from sim.external import pool
from sim.external.registry import EngineRegistry
from sim.play.referee import play_game
from sim.storage.reading import open_dataset
from tests.support.engines import bad_engine, write_registry

# fault -> (reason, the note's first word); the engine misbehaves at its first search
FAULTS = {
    "illegal": ("forfeit", "illegal"),
    "null": ("forfeit", "null_move"),
    "silence": ("forfeit", "no_answer"),
    "crash": ("forfeit", "crash"),
    "garbage": ("forfeit", "garbage"),
    "handshake": ("forfeit", "handshake"),
    "slow": ("time", "blue took"),
}
LIMITS = "movetime=100,margin=200"  # answers awaited 300 ms, then 1 s after 'stop'


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineRegistry]:
    path = write_registry(
        tmp_path_factory.mktemp("engines") / "engines.toml",
        *(bad_engine(f"bad-{f}", f, sleep_ms=700) for f in FAULTS),
        bad_engine("crash-later", "crash", after=1),
        bad_engine("good", "good"),
    )
    yield EngineRegistry.load(path)
    pool.close_all()


@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_fault_loses_with_its_reason(registry: EngineRegistry, fault: str) -> None:
    reason, note = FAULTS[fault]
    game = play_game("standard", "random", f"engine:bad-{fault},{LIMITS}", seed=1, engines=registry)
    assert (game["winner"], game["reason"]) == ("red", reason)
    assert game["forfeit_note"].startswith(note), game["forfeit_note"]
    assert game["plies"] == 1  # red's first move, then blue's engine failed
    assert game["time_control"] == "red none, blue movetime=100"
    assert game["blue_engine"]["name"] == f"bad-{fault}"
    if fault != "handshake":
        assert game["blue_engine"]["version"] == f"bad-engine {fault}"
    assert len(game["move_ms"]) == 1
    # a faulty engine is closed; one that merely lost on time is kept for the next game
    assert pool.running() == (1 if fault == "slow" else 0)
    pool.close_all()


def test_the_engine_is_restarted_for_the_next_game(registry: EngineRegistry) -> None:
    first = play_game(
        "standard", "engine:crash-later,movetime=500", "random", seed=2, engines=registry
    )
    second = play_game(
        "standard", "engine:crash-later,movetime=500", "random", seed=3, engines=registry
    )
    for game in (first, second):  # a fresh engine plays one good move, then crashes
        assert (game["reason"], game["winner"], game["plies"]) == ("forfeit", "blue", 2)
        assert "on purpose" in game["forfeit_note"]  # what the engine said on stderr
        assert "exit code 3" in game["forfeit_note"]


def test_a_batch_records_forfeits_and_goes_on(registry: EngineRegistry, tmp_path: Path) -> None:
    spec = make_spec("standard", "engine:crash-later,movetime=500", "random", 4, seed=5, swap=True)
    options = RunOptions(engines=registry.entries_json(["crash-later"]))
    record = run_batch(spec, tmp_path, options=options)
    assert record["status"] == "done" and record["games_done"] == 4
    with open_dataset(tmp_path) as ds:
        rows = ds.con.sql(
            "SELECT game_index, winner, reason, plies FROM games ORDER BY game_index"
        ).fetchall()
    # the engine plays red in games 0 and 2 (plies 2), blue in 1 and 3 (plies 3)
    assert rows == [
        (0, "blue", "forfeit", 2),
        (1, "red", "forfeit", 3),
        (2, "blue", "forfeit", 2),
        (3, "red", "forfeit", 3),
    ]
