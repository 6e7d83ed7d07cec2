"""Schema versions 2 (clocks, forfeits, engines) and 3 (``start_fen``) beside older files
(the bundled sample of version 1, users' datasets of versions 1 and 2), which read with
the columns they lack NULL."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim.stats.synthetic import rows_table
from sim.storage.reading import check_games_file, open_dataset, verify_games_file
from sim.storage.schema import OPTIONAL_COLUMNS, SCHEMA_VERSION
from sim.storage.writing import write_games_chunk
from tests.support import ROOT

SAMPLE = sorted((ROOT / "data" / "games" / "sample-ab2-1").glob("*.parquet"))[0]
ENGINE = {"name": "jungine", "version": "JungleEngine 0.1", "sha256": "ab" * 32}


def test_version_1_files_read_with_the_new_columns_null(tmp_path: Path) -> None:
    assert set(OPTIONAL_COLUMNS) & set(pq.read_schema(SAMPLE).names) == set()
    assert check_games_file(SAMPLE) is None and verify_games_file(SAMPLE) is None
    (tmp_path / "games" / "old").mkdir(parents=True)
    shutil.copy(SAMPLE, tmp_path / "games" / "old" / SAMPLE.name)
    with open_dataset(tmp_path) as ds:
        assert ds.skipped == []
        nulls = " AND ".join(f"{c} IS NULL" for c in OPTIONAL_COLUMNS)
        query = f"SELECT count(*), min(schema_version) FROM games WHERE {nulls}"
        n, v1 = ds.con.execute(query).fetchone()
        assert n == 100 and v1 == 1


def test_version_2_rows_beside_version_1_files(tmp_path: Path) -> None:
    (tmp_path / "games" / "old").mkdir(parents=True)
    shutil.copy(SAMPLE, tmp_path / "games" / "old" / SAMPLE.name)
    row = dict(
        batch_id="new", reason="forfeit", winner="blue", forfeit_note="crash: exit code 3",
        time_control="red 40/60+0.6, blue none", move_ms=[12, 0, 4000000000],
        red_clock_ms=59000, red_engine=ENGINE,
    )  # fmt: skip
    write_games_chunk(tmp_path, "new", rows_table([row, dict(batch_id="new", game_index=1)]))
    with open_dataset(tmp_path) as ds:
        got = ds.con.sql(
            "SELECT schema_version, reason, forfeit_note, time_control, move_ms, red_clock_ms,"
            " blue_clock_ms, red_engine.name, red_engine.sha256, blue_engine FROM games"
            " WHERE batch_id = 'new' ORDER BY game_index"
        ).fetchall()
        old = ds.con.execute("SELECT count(*) FROM games WHERE forfeit_note IS NULL").fetchone()[0]
    assert got[0] == (SCHEMA_VERSION, "forfeit", "crash: exit code 3",
                      "red 40/60+0.6, blue none", [12, 0, 4000000000], 59000, None,
                      "jungine", "ab" * 32, None)  # fmt: skip
    assert got[1][2:] == (None,) * 8  # an in-process game: nothing of the kind
    assert old == 100 + 1


def test_a_new_column_of_the_wrong_type_is_refused(tmp_path: Path) -> None:
    table = pq.read_table(SAMPLE).append_column("move_ms", pa.array(["x"] * 100))
    bad = tmp_path / "bad.parquet"
    pq.write_table(table, bad)
    assert "column move_ms has type string" in (check_games_file(bad) or "")


def test_version_2_files_without_start_fen_read_and_verify(tmp_path: Path) -> None:
    rows = [dict(batch_id="v2", game_index=i, schema_version=2) for i in range(3)]
    old = rows_table(rows).drop_columns(["start_fen"])
    path = tmp_path / "games" / "v2" / "part-0.parquet"
    path.parent.mkdir(parents=True)
    pq.write_table(old, path, write_page_checksum=True)
    assert check_games_file(path) is None and verify_games_file(path) is None
    fen = "6t/3L3/7/7/7/7/7/7/l6 r 0 1"
    write_games_chunk(tmp_path, "v3", rows_table([dict(batch_id="v3", start_fen=fen)]))
    with open_dataset(tmp_path) as ds:
        assert ds.skipped == []
        got = ds.con.sql(
            "SELECT batch_id, schema_version, start_fen FROM games ORDER BY batch_id, game_index"
        ).fetchall()
    assert got == [("v2", 2, None)] * 3 + [("v3", SCHEMA_VERSION, fen)]
