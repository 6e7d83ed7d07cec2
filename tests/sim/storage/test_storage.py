"""Storage: the dataset reader, atomic chunk files, batch records, seeding."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine.errors import DsqError
from sim.core.seeds import game_seed, opening_seed, plan_game
from sim.storage.paths import resolve_data_dir
from sim.storage.reading import dataset_fingerprint, open_dataset
from sim.storage.records import (
    cancel_requested,
    recorded_games,
    request_cancel,
    write_batch_record,
)
from sim.storage.schema import GAME_SCHEMA, SCHEMA_VERSION
from sim.storage.writing import remove_stale_temp_files, rows_to_table, write_games_chunk
from tests.support import ROOT
from tests.support.records import valid_record


def make_row(i: int, batch_id: str = "b1") -> dict:
    """A synthetic but schema-complete game row."""
    return {
        "batch_id": batch_id,
        "game_index": i,
        "pair_id": i,
        "seed": 1000 + i,
        "rules": "standard",
        "red": "random",
        "blue": "random",
        "opening_plies": 0,
        "ply_cap": 1000,
        "winner": ("red", "blue", "draw")[i % 3],
        "reason": ("den", "capture_all", "ply_cap")[i % 3],
        "plies": 10 + i,
        "red_captures": 1,
        "blue_captures": 2,
        "red_pieces_left": 7,
        "blue_pieces_left": 6,
        "den_animal": "rat" if i % 3 == 0 else None,
        "branching": 21.5,
        "moves": [(i + k) % 4000 for k in range(10 + i)],
        "captures": [{"ply": 3, "capturer": 1, "captured": 16, "square": 20}],
        "engine_version": "0.1.0",
        "duration_ms": 1.25,
    }


def test_empty_dataset_has_games_view_with_schema_columns(tmp_path: Path) -> None:
    for d in (tmp_path / "missing", tmp_path):
        ds = open_dataset(d)
        cols = [r[0] for r in ds.con.execute("DESCRIBE games").fetchall()]
        assert cols == GAME_SCHEMA.names
        assert ds.con.execute("SELECT count(*) FROM games").fetchone() == (0,)
        assert ds.skipped == [] and ds.batches == [] and ds.files == []
        ds.close()


def test_chunk_round_trip_and_no_temp_files(tmp_path: Path) -> None:
    path = write_games_chunk(tmp_path, "b1", [make_row(i) for i in (4, 2, 3)])
    assert path.name.startswith("part-000000002-3-") and path.suffix == ".parquet"
    # no temp left behind; the verdict of the read-back is cached beside the file
    assert sorted(p.name for p in path.parent.iterdir()) == [".verified.json", path.name]
    table = pq.read_table(path)
    assert table.schema.equals(GAME_SCHEMA)
    assert table.column("game_index").to_pylist() == [2, 3, 4]
    assert table.column("schema_version").to_pylist() == [SCHEMA_VERSION] * 3
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "ZSTD"
    with open_dataset(tmp_path) as ds:
        got = ds.con.execute(
            "SELECT game_index, moves, captures, den_animal FROM games ORDER BY game_index"
        ).fetchall()
    assert got[0][0] == 2 and got[0][1] == make_row(2)["moves"]
    assert got[0][2] == [{"ply": 3, "capturer": 1, "captured": 16, "square": 20}]
    assert [g[3] for g in got] == [None, "rat", None]


def test_rows_to_table_rejects_missing_column() -> None:
    row = make_row(0)
    del row["winner"]
    with pytest.raises(KeyError):
        rows_to_table([row])


def test_corrupt_and_foreign_files_are_skipped_reported_and_kept(tmp_path: Path) -> None:
    good = write_games_chunk(tmp_path, "b1", [make_row(i) for i in range(5)])
    gdir = good.parent
    truncated = gdir / "truncated.parquet"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    garbage = tmp_path / "games" / "garbage.parquet"
    garbage.write_bytes(b"PAR1 this is not parquet")
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), foreign)
    wrong_type = gdir / "wrong_type.parquet"
    t = rows_to_table([make_row(9)])
    t = t.set_column(t.schema.get_field_index("plies"), "plies", pa.array(["19"]))
    pq.write_table(t, wrong_type)
    (tmp_path / "batches").mkdir()
    (tmp_path / "batches" / "broken.json").write_text("{not json")

    ds = open_dataset(tmp_path)
    assert ds.con.execute("SELECT count(*) FROM games").fetchone() == (5,)
    reasons = dict(ds.skipped)
    assert set(reasons) == {
        str(truncated),
        str(garbage),
        str(foreign),
        str(wrong_type),
        str(tmp_path / "batches" / "broken.json"),
    }
    assert "not a readable parquet file" in reasons[str(truncated)]
    assert "missing columns" in reasons[str(foreign)]
    assert "plies" in reasons[str(wrong_type)]
    for p in (truncated, garbage, foreign, wrong_type):
        assert p.exists()  # never deleted
    assert set(recorded_games(tmp_path, "b1")) == set(range(5))


def test_fingerprint_changes_when_files_change(tmp_path: Path) -> None:
    f0 = open_dataset(tmp_path).fingerprint
    write_games_chunk(tmp_path, "b1", [make_row(0)])
    f1 = open_dataset(tmp_path).fingerprint
    assert f1 != f0 and dataset_fingerprint(tmp_path) == f1
    write_batch_record(tmp_path, valid_record("b1", status="running"))
    f2 = dataset_fingerprint(tmp_path)
    assert f2 != f1
    with open_dataset(tmp_path) as ds:
        assert [b["batch_id"] for b in ds.batches] == ["b1"]


def test_data_dir_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DSQ_DATA", raising=False)
    assert resolve_data_dir(None) == ROOT / "data"
    monkeypatch.setenv("DSQ_DATA", str(tmp_path / "env"))
    assert resolve_data_dir(None) == tmp_path / "env"
    assert resolve_data_dir(tmp_path / "arg") == tmp_path / "arg"


def test_stale_temp_files_of_dead_writers_are_removed_others_kept(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    dead = tmp_path / f".part-x.parquet.tmp-{proc.pid}-abcd"
    mine = tmp_path / f".part-y.parquet.tmp-{os.getpid()}-abcd"
    other = tmp_path / "notes.txt"
    for p in (dead, mine, other):
        p.write_bytes(b"x")
    assert remove_stale_temp_files(tmp_path) == [dead]
    assert mine.exists() and other.exists() and not dead.exists()


def test_request_cancel(tmp_path: Path) -> None:
    with pytest.raises(DsqError, match="no batch"):
        request_cancel(tmp_path, "nope")
    with pytest.raises(DsqError, match="invalid batch id"):
        request_cancel(tmp_path, "../etc")
    write_batch_record(tmp_path, valid_record("b1", status="running"))
    assert not cancel_requested(tmp_path, "b1")
    request_cancel(tmp_path, "b1")
    assert cancel_requested(tmp_path, "b1")


def test_seeds_depend_on_batch_seed_and_index_only() -> None:
    seeds = [game_seed(42, i) for i in range(1000)]
    assert len(set(seeds)) == 1000 and all(0 <= s < 2**63 for s in seeds)
    assert seeds == [game_seed(42, i) for i in range(1000)]
    assert game_seed(43, 0) != seeds[0]
    a, b = plan_game(42, 10, "A", "B", swap=True), plan_game(42, 11, "A", "B", swap=True)
    assert (a.red, a.blue, b.red, b.blue) == ("A", "B", "B", "A")
    assert a.pair_id == b.pair_id == 5 and a.opening_seed == b.opening_seed == opening_seed(42, 5)
    assert a.seed != b.seed
    c = plan_game(42, 11, "A", "B", swap=False)
    assert (c.red, c.pair_id) == ("A", 11)


def test_reader_on_many_files_is_consistent(tmp_path: Path) -> None:
    for k in range(20):
        write_games_chunk(tmp_path, f"b{k % 3}", [make_row(k * 10 + i) for i in range(10)])
    shutil.copy(next((tmp_path / "games" / "b0").glob("*.parquet")), tmp_path / "dup.txt")
    with open_dataset(tmp_path) as ds:
        n, distinct = ds.con.execute(
            "SELECT count(*), count(DISTINCT (batch_id, game_index)) FROM games"
        ).fetchone()
    assert n == distinct == 200
