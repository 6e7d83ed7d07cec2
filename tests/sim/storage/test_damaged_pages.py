"""A games file whose footer is intact but whose data pages are damaged is left out, named,
and kept on disk: by the reader, by ``dsq stats`` and by the dashboard."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.report import fmt
from sim.storage.reading import open_dataset, verify_games_file
from tests.support.apptest import metrics, run_app
from tests.support.dataset import TOTAL_GAMES


def damage_column(path: Path, column: str) -> int:
    """Flip the bytes of ``column``'s data pages (not its page header, not the footer);
    returns the file's row count."""
    meta = pq.ParquetFile(path).metadata
    chunk = next(
        meta.row_group(0).column(j)
        for j in range(meta.row_group(0).num_columns)
        if meta.row_group(0).column(j).path_in_schema == column
    )
    start, size = chunk.data_page_offset, chunk.total_compressed_size
    data = bytearray(path.read_bytes())
    for i in range(start + 20, start + size - 4):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    return meta.num_rows


def first_games_file(data: Path) -> Path:
    return sorted((data / "games").rglob("*.parquet"))[0]


def test_reader_leaves_out_a_file_with_damaged_pages(data_copy: Path) -> None:
    victim = first_games_file(data_copy)
    rows = damage_column(victim, "plies")
    with open_dataset(data_copy) as ds:
        # Every file is verified in full before it is counted: the damage is seen at once.
        assert [p for p, _ in ds.skipped] == [str(victim)]
        total = ds.read(lambda: ds.con.execute("SELECT sum(plies), count(*) FROM games").fetchone())
        assert total[1] == TOTAL_GAMES - rows
        assert [p for p, _ in ds.skipped] == [str(victim)]
        assert "damaged data pages" in ds.skipped[0][1]
    assert victim.exists()
    assert verify_games_file(victim) is not None
    assert (
        verify_games_file(
            first_games_file(data_copy).parent.parent.parent / "games" / "nothing.parquet"
        )
        is not None
    )


def test_stats_reports_the_damaged_file_and_counts_the_rest(data_copy: Path) -> None:
    victim = first_games_file(data_copy)
    rows = damage_column(victim, "plies")
    done = subprocess.run(
        [sys.executable, "-m", "sim.cli", "stats", "--data", str(data_copy)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"skipped {victim}: damaged data pages" in done.stderr
    assert done.stdout.startswith(f"{TOTAL_GAMES - rows:,} games")


def test_dashboard_names_the_damaged_file_and_shows_the_rest(
    monkeypatch: pytest.MonkeyPatch, data_copy: Path
) -> None:
    victim = first_games_file(data_copy)
    rows = damage_column(victim, "plies")
    at = run_app(monkeypatch, data_copy)
    assert not at.exception
    assert metrics(at)["Games played"][0] == fmt.count(TOTAL_GAMES - rows)
    at.run()  # the next run lists what was left out
    assert victim.name in " ".join(w.value for w in at.warning)
