"""Schema version 4 (``scores``) beside version-3 files, which read with it NULL."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.stats.synthetic import rows_table
from sim.storage.reading import check_games_file, open_dataset, verify_games_file
from sim.storage.schema import GAME_SCHEMA, SCHEMA_VERSION
from sim.storage.writing import write_games_chunk


def test_version_3_files_without_scores_read_beside_version_4(tmp_path: Path) -> None:
    rows = [dict(batch_id="v3", game_index=i, schema_version=3, plies=3) for i in range(2)]
    old = rows_table(rows).drop_columns(["scores"])
    assert "scores" in GAME_SCHEMA.names and "scores" not in old.schema.names
    path = tmp_path / "games" / "v3" / "part-0.parquet"
    path.parent.mkdir(parents=True)
    pq.write_table(old, path, write_page_checksum=True)
    assert check_games_file(path) is None and verify_games_file(path) is None
    scores = [None, 0.25, -1.0]
    write_games_chunk(tmp_path, "v4", rows_table([dict(batch_id="v4", plies=3, scores=scores)]))
    with open_dataset(tmp_path) as ds:
        assert ds.skipped == []
        got = ds.con.sql(
            "SELECT batch_id, schema_version, scores FROM games ORDER BY batch_id, game_index"
        ).fetchall()
    assert got[:2] == [("v3", 3, None)] * 2
    assert got[2][:2] == ("v4", SCHEMA_VERSION) and got[2][2] == pytest.approx(scores)
    assert SCHEMA_VERSION == 4
