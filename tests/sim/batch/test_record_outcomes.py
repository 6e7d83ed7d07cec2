"""``dsq simulate --record outcomes``: games stored without their moves, a few bytes each,
counted as any others and replayed exactly from their seeds."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from sim.batch import make_spec, run_batches
from sim.batch.recompute import not_replayable, recompute
from sim.core.seeds import plan_games
from sim.core.tally import Tally
from sim.openings.suite import parse_suite
from sim.play.columnar import play_fast_columns
from sim.records.replay import replay_recorded
from sim.stats.games import game_record
from sim.storage.reading import open_dataset
from sim.storage.verify import verify_files
from tests.support.procs import dsq_here

UNSTORED = ("moves", "captures", "duration_ms", "move_ms", "scores")


def dsq(*args: str) -> subprocess.CompletedProcess:
    """``dsq ARGS`` in a real process (once; the other calls in this process: ``dsq_here``)."""
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True)


def files(data: Path, batch: str) -> list[Path]:
    return sorted((data / "games" / batch).glob("*.parquet"))


def test_simulate_records_outcomes_in_few_bytes_a_game(tmp_path: Path) -> None:
    games = 20_000
    res = dsq("simulate", "--games", str(games), "--seed", "7", "--record", "outcomes",
              "--batch-id", "o", "--data", str(tmp_path), "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    paths = files(tmp_path, "o")
    assert all(v is None for v in verify_files(paths).values())
    size = sum(p.stat().st_size for p in paths)
    assert size / games <= 32, f"{size / games:.1f} bytes a game"
    table = pq.read_table(paths)
    assert table.num_rows == games
    for name in UNSTORED:
        assert table.column(name).null_count == games, name
    for name in ("seed", "winner", "reason", "plies", "red_captures", "blue_pieces_left"):
        assert table.column(name).null_count == 0, name
    record = json.loads((tmp_path / "batches" / "o.json").read_text())
    assert record["spec"]["record"] == "outcomes"
    assert sum(record["counts"][k] for k in ("red", "blue", "draw")) == games
    with open_dataset(tmp_path) as ds:
        row = ds.con.execute("SELECT count(*), sum(plies) FROM games").fetchone()
    assert row is not None
    n, plies = row
    assert n == games and plies > games * 100
    shown = dsq_here("batches", "--data", str(tmp_path))
    assert "(outcomes only)" in shown.stdout


@pytest.mark.parametrize(
    ("red", "blue", "options"),
    [
        ("random", "random", {"opening_plies": 3}),
        ("greedy", "alphabeta:depth=1", {"swap": True, "opening_plies": 2}),
    ],
)
def test_recomputed_games_equal_the_games_recorded_with_moves(
    tmp_path: Path, red: str, blue: str, options: dict
) -> None:
    specs = [
        make_spec("standard", red, blue, 12, seed=11, record=record, **options)
        for record in ("outcomes", "moves")
    ]
    done = run_batches(specs, tmp_path, ids=["o", "m"])
    assert [r["status"] for r in done] == ["done", "done"]
    assert done[0]["counts"] == done[1]["counts"]
    with open_dataset(tmp_path) as ds:
        for index in range(12):
            kept = game_record(ds.con, "m", index)
            bare = game_record(ds.con, "o", index)
            assert kept is not None and bare is not None
            assert bare["moves"] is None
            for col, value in kept.items():  # every column stored, equal to the full record
                if col not in (*UNSTORED, "batch_id") and value == value:  # NaN: NULL
                    assert bare[col] == value, col
            again = recompute(tmp_path, bare)
            assert again.agrees, again.why
            assert again.moves == kept["moves"]
    report = replay_recorded(tmp_path, "o:5")
    assert report["agrees"] and not report["moves_stored"]
    assert report["moves"] == replay_recorded(tmp_path, "m:5")["moves"]


def test_a_game_that_does_not_end_as_recorded_is_not_replayed(tmp_path: Path) -> None:
    run_batches([make_spec("standard", "random", "random", 4, seed=3, record="outcomes")],
                tmp_path, ids=["o"])  # fmt: skip
    with open_dataset(tmp_path) as ds:
        game = game_record(ds.con, "o", 1)
    assert game is not None
    again = recompute(tmp_path, {**game, "plies": game["plies"] + 1})
    assert not again.agrees and "the seed plays" in again.why
    gone = recompute(tmp_path, {**game, "batch_id": "nope"})
    assert not gone.agrees and gone.moves is None


def test_resume_keeps_recording_outcomes(tmp_path: Path) -> None:
    res = dsq_here("simulate", "--games", "3000", "--seed", "2", "--record", "outcomes",
                   "--chunk-games", "1000", "--batch-id", "b", "--data", str(tmp_path),
                   "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    paths = files(tmp_path, "b")
    assert len(paths) >= 2
    paths[0].unlink()
    record_path = tmp_path / "batches" / "b.json"
    record = json.loads(record_path.read_text())
    record.update(status="interrupted")
    record_path.write_text(json.dumps(record))
    res = dsq_here("simulate", "--resume", "b", "--data", str(tmp_path), "--quiet")
    assert res.returncode == 0, res.stderr
    table = pq.read_table(files(tmp_path, "b"))
    assert table.num_rows == 3000
    assert table.column("moves").null_count == 3000
    assert json.loads(record_path.read_text())["spec"]["record"] == "outcomes"


@pytest.mark.parametrize(
    "bot", ["alphabeta:time_ms=50", "mcts:time_ms=20", "engine:nosuch,movetime=10"]
)
def test_simulate_refuses_bots_the_seed_does_not_replay(tmp_path: Path, bot: str) -> None:
    res = dsq_here("simulate", "--games", "2", "--red", bot, "--record", "outcomes",
              "--data", str(tmp_path))  # fmt: skip
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert not (tmp_path / "games").exists()


def test_replayable_bots() -> None:
    for bot in ("random", "greedy", "alphabeta:depth=2", "mcts:playouts=50"):
        assert not_replayable(bot) is None, bot
    assert not_replayable("alphabeta:time_ms=10") is not None
    bad = dsq_here("simulate", "--games", "2", "--record", "everything")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("swap", [False, True])
def test_tally_of_a_chunk_equals_game_by_game(swap: bool) -> None:
    rng = random.Random(5)
    for _ in range(50):
        n = rng.choice([10, 100, 1000])
        results = [(i, rng.choice(["red", "blue", "draw"])) for i in range(n)]
        rng.shuffle(results)
        one, many = Tally(swap), Tally(swap)
        for gi, w in results:
            one.add(gi, w)
        cut = rng.randrange(n)
        many.add_all(results[:cut])
        many.add_all(results[cut:])
        assert one.counts() == many.counts()
        assert one.half_pairs == many.half_pairs


def test_games_files_use_the_chosen_encodings(tmp_path: Path) -> None:
    run_batches([make_spec("standard", "random", "random", 50, seed=1)], tmp_path, ids=["m"])
    meta = pq.ParquetFile(files(tmp_path, "m")[0]).metadata.row_group(0)
    enc = {meta.column(i).path_in_schema: meta.column(i).encodings for i in range(meta.num_columns)}
    assert "DELTA_BINARY_PACKED" in enc["game_index"] and "DELTA_BINARY_PACKED" in enc["pair_id"]
    assert "BYTE_STREAM_SPLIT" in enc["branching"]
    assert "RLE_DICTIONARY" not in enc["seed"]
    assert "RLE_DICTIONARY" in enc["moves.list.element"]
    assert "RLE_DICTIONARY" in enc["captures.list.element.square"]


@pytest.mark.parametrize("bots", [("random", "random"), ("greedy", "random")])
@pytest.mark.parametrize("suite", [False, True])
def test_fast_games_without_moves_are_the_same_games(bots: tuple[str, str], suite: bool) -> None:
    n = 300
    plan = plan_games(4, range(n), True)
    lines = parse_suite("startpos a3a4\nstartpos g3g4 a7a6\n", "standard", "t") if suite else None
    which = np.arange(n) % 2 if suite else None
    red = np.where(plan.a_is_red, 0, 1)
    args = ("standard", bots, red, 1 - red, plan.seed, plan.opening_seed, 2, 300)
    full, _ = play_fast_columns(*args, suite=lines, which=which)
    bare, _ = play_fast_columns(*args, suite=lines, which=which, moves=False)
    for name, column in full.items():
        if name in UNSTORED:
            assert bare[name].null_count == n, name
        else:
            assert bare[name].equals(column), name
