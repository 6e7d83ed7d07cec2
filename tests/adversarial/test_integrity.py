"""Damaged files and malformed records never change a number silently: a games file with
damaged bytes inside a data page is named and left out of every statistic (its games are
replayed by --resume); a batch record of the wrong shape is named, its games still count,
and a resume rebuilds it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.batch import make_spec, run_batches
from sim.storage.reading import open_dataset
from sim.storage.records import recorded_games
from tests.support.dataset import TOTAL_GAMES
from tests.support.procs import in_process
from tests.support.records import valid_record

TIMING = ["batch_id", "duration_ms"]


def damage_moves(path: Path, fill: bytes) -> int:
    """Overwrite ``fill`` in the middle of the ``moves`` column's data page, keeping the
    file's size and modification time (a careful adversary); return the file's rows."""
    meta = pq.ParquetFile(path).metadata
    rg = meta.row_group(0)
    chunk = next(
        rg.column(j)
        for j in range(rg.num_columns)
        if rg.column(j).path_in_schema.startswith("moves")
    )
    at = chunk.data_page_offset + chunk.total_compressed_size // 2
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[at : at + len(fill)] = fill
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    return meta.num_rows


def rows(data: Path, batch_id: str):
    with open_dataset(data) as ds:
        t = ds.con.sql(
            f"SELECT * FROM games WHERE batch_id = '{batch_id}' ORDER BY game_index"
        ).to_arrow_table()
    return t.drop_columns(TIMING)


@pytest.mark.parametrize("fill", [b"\xff" * 16, b"\x00" * 64], ids=["16xFF", "64x00"])
def test_bytes_damaged_inside_a_page_are_named_left_out_and_replayed(
    data_copy: Path, tmp_path: Path, fill: bytes
) -> None:
    clean = rows(data_copy, "fx-rr")
    with open_dataset(data_copy) as ds:  # every file verified, verdicts cached
        assert ds.skipped == []
    victim = sorted((data_copy / "games" / "fx-rr").glob("*.parquet"))[0]
    lost = damage_moves(victim, fill)

    code, out, err = in_process(["stats", "--data", str(data_copy)])
    assert code == 0 and f"skipped {victim}: damaged data pages" in err
    assert out.startswith(f"{TOTAL_GAMES - lost:,} games")
    with open_dataset(data_copy) as ds:
        assert [p for p, _ in ds.skipped] == [str(victim)]
        n = ds.con.execute("SELECT count(*) FROM games WHERE batch_id = 'fx-rr'").fetchone()
        assert n == (30 - lost,)
    assert len(recorded_games(data_copy, "fx-rr")) == 30 - lost

    [rec] = run_batches(data_dir=data_copy, resume="fx-rr")
    assert rec["status"] == "done" and rec["games_done"] == 30
    assert victim.exists()  # nothing is deleted
    assert rows(data_copy, "fx-rr").equals(clean)  # the replayed games are the same games


BAD_FIELDS = [
    {"spec": "x"},
    {"counts": None},
    {"games_done": "x"},
    {"spec": {**valid_record("b")["spec"], "games": 10**12}},
    {"status": ["running"]},
    {"pid": "1"},
]


@pytest.mark.parametrize("bad", BAD_FIELDS, ids=lambda b: json.dumps(b)[:40])
def test_a_record_of_the_wrong_shape_is_named_and_its_games_still_count(
    data_copy: Path, bad: dict
) -> None:
    path = data_copy / "batches" / "fx-rr.json"
    rec = json.loads(path.read_text())
    rec.update(bad)
    path.write_text(json.dumps(rec))

    code, out, err = in_process(["batches", "--data", str(data_copy)])
    assert code == 0
    assert "fx-swap-1" in out and "fx-swap-2" in out  # the others are listed
    assert "fx-rr" in out and "unreadable" in out
    assert "warning: batch fx-rr: unreadable batch record" in err
    code, out, _ = in_process(["stats", "--data", str(data_copy)])
    assert code == 0 and out.startswith(f"{TOTAL_GAMES:,} games")  # its games still count

    from dashboard.job_list import list_jobs

    jobs = {j.batch_id: j for j in list_jobs(data_copy)}
    assert jobs["fx-rr"].status == "unreadable" and {"fx-swap-1", "fx-swap-2"} <= set(jobs)

    code, _, err = in_process(["simulate", "--resume", "fx-rr", "--data", str(data_copy)])
    if "spec" in bad:
        assert code == 2 and len(err.strip().splitlines()) == 1
        assert "cannot be resumed" in err and "still counted" in err
    else:  # the spec is intact: the record is rebuilt from it and the files
        assert code == 0, err
        fixed = json.loads(path.read_text())
        assert fixed["status"] == "done" and fixed["games_done"] == 30
        assert sum(fixed["counts"][k] for k in ("red", "blue", "draw")) == 30


def test_an_unreadable_record_is_not_reported_as_no_batches(tmp_path: Path) -> None:
    run_batches([make_spec("standard", "random", "random", 20, seed=1)], tmp_path, batch_id="only")
    (tmp_path / "batches" / "only.json").write_text("{not json")
    code, out, err = in_process(["batches", "--data", str(tmp_path)])
    assert code == 0 and "no batches" not in out
    assert "only" in out and "unreadable" in out and "only" in err
