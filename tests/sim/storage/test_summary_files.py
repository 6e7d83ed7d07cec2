"""A games file's summary: written with it, verified like it, cached beside it.

Forged or damaged summaries, in a footer or in a folder's cache, never reach a figure.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.stats import general_stats
from sim.stats.query import Selection
from sim.stats.synthetic import synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.schema import GAME_SCHEMA
from sim.storage.summarizing import same, summarize
from sim.storage.summary import (
    FOOTER_KEY,
    VERSION_KEY,
    decode,
    encode,
    footer_metadata,
)
from sim.storage.summary_cache import CACHE_NAME, CACHE_VERSION
from sim.storage.writing import write_games_chunk


def _rewrite(path: Path, table: pa.Table, metadata: dict[bytes, bytes]) -> None:
    """``path`` rewritten with ``table`` and this footer metadata (a forger's file)."""
    with pq.ParquetWriter(path, GAME_SCHEMA, write_page_checksum=True) as writer:
        writer.write_table(table.cast(GAME_SCHEMA))
        writer.add_key_value_metadata(metadata)


def _games(d: Path) -> int:
    with open_dataset(d) as ds:
        return general_stats(ds.con, Selection(voids=True)).games


def test_the_writer_puts_the_summary_of_the_games_in_the_footer(tmp_path: Path) -> None:
    t = synthetic_table(500, seed=1, batch_id="b")
    path = write_games_chunk(tmp_path, "b", t)
    meta = pq.read_metadata(path).metadata
    assert FOOTER_KEY in meta
    with open_dataset(tmp_path) as ds:
        assert not ds.skipped
        got = ds.con.execute("SELECT sum(games) FROM cells").fetchall()[0][0]
    assert got == 500
    assert same(summarize(t), summarize(pq.read_table(path)))


def test_a_decoded_summary_holds_nothing_of_its_bytes_once_returned() -> None:
    """Decoding reads in the caller's thread. An Arrow pool thread that kept the bytes'
    buffer would drop it later and need the GIL, which aborts the process ("terminate
    called without an active exception") when that happens at interpreter exit."""
    data = encode(summarize(synthetic_table(500, seed=1, batch_id="b")))
    held = 0
    for _ in range(1000):
        buffer = bytearray(data)  # a buffer still exported cannot be resized
        assert decode(buffer).num_rows > 0
        try:
            buffer.extend(b"x")
        except BufferError:
            held += 1
    assert held == 0


def test_a_forged_summary_is_refused_and_its_games_not_counted(tmp_path: Path) -> None:
    keep = write_games_chunk(tmp_path, "b", synthetic_table(300, seed=2, batch_id="b"))
    t = synthetic_table(200, seed=3, batch_id="b", first_index=300)
    path = write_games_chunk(tmp_path, "b", t)
    forged = summarize(t)
    doubled = pc.multiply(forged.column("games"), 2)
    forged = forged.set_column(forged.schema.get_field_index("games"), "games", doubled)
    _rewrite(path, t, footer_metadata(forged))  # a valid digest of a wrong summary
    with open_dataset(tmp_path) as ds:
        reasons = dict(ds.skipped)
        assert reasons[str(path)] == "its summary does not match its games"
        assert ds.files == [keep]
    assert _games(tmp_path) == 300


def test_a_damaged_summary_is_refused(tmp_path: Path) -> None:
    t = synthetic_table(100, seed=4, batch_id="b")
    path = write_games_chunk(tmp_path, "b", t)
    meta = footer_metadata(summarize(t))
    meta[FOOTER_KEY] = meta[FOOTER_KEY][:-7] + b"garbage"
    _rewrite(path, t, meta)
    with open_dataset(tmp_path) as ds:
        assert "digest" in dict(ds.skipped)[str(path)]
    assert _games(tmp_path) == 0


def test_a_forged_cache_is_ignored(tmp_path: Path) -> None:
    write_games_chunk(tmp_path, "b", synthetic_table(400, seed=5, batch_id="b"))
    assert _games(tmp_path) == 400
    cache = tmp_path / "games" / "b" / CACHE_NAME
    head, _, body = cache.read_bytes().partition(b"\n")
    header = json.loads(head)
    # a hand-made cache: its own (wrong) digest and seal
    header["digests"] = ["0" * 64, "0" * 64]
    cache.write_bytes(json.dumps(header).encode() + b"\n" + body)
    assert _games(tmp_path) == 400
    cache.write_bytes(b"not a cache at all")
    assert _games(tmp_path) == 400
    # the cache is rewritten, and read again, warm
    assert json.loads(cache.read_bytes().partition(b"\n")[0])["version"] == CACHE_VERSION
    assert _games(tmp_path) == 400


def test_the_cache_follows_the_files(tmp_path: Path) -> None:
    write_games_chunk(tmp_path, "b", synthetic_table(100, seed=6, batch_id="b"))
    assert _games(tmp_path) == 100
    second = write_games_chunk(
        tmp_path, "b", synthetic_table(50, seed=7, batch_id="b", first_index=100)
    )
    assert _games(tmp_path) == 150  # a new file: read from its footer, merged again
    second.unlink()
    assert _games(tmp_path) == 100  # a file gone: its summary is gone


def test_a_summary_of_another_version_is_computed_again(tmp_path: Path) -> None:
    t = synthetic_table(120, seed=8, batch_id="b")
    path = write_games_chunk(tmp_path, "b", t)
    meta = footer_metadata(summarize(t))
    meta[VERSION_KEY] = b"0"  # written by another dsq: not trusted, not refused
    _rewrite(path, t, meta)
    with open_dataset(tmp_path) as ds:
        assert not ds.skipped
    assert _games(tmp_path) == 120
