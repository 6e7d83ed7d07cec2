"""Hostile files in a data folder against the real CLI (bounded in memory and time): links
and special files, copies that repeat games, a forged verdict cache, files of a newer
schema, and relabelled tables."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.external.admission import check_path, load_check
from sim.external.registry import EngineEntry
from sim.storage.locks import _holder
from sim.storage.verify import CACHE_NAME
from tests.support.procs import dsq_peak, in_process

T_V_R = "7/7/7/7/3r3/7/3T3/7/7 r 0 1"  # a red tiger on d3, a blue rat on d5


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    code, _, err = in_process(
        ["simulate", "--data", str(folder), "--games", "300", "--seed", "3", "--batch-id", "b1"]
    )
    assert code == 0, err
    code, _, err = in_process(["compact", "--data", str(folder)])  # one file (a run's first
    assert code == 0, err  # chunk is a file of its own)
    return folder


def stats(folder: Path) -> tuple[int, dict[str, str]]:
    """``dsq stats --json``: the games counted and the skipped files with their reasons."""
    res, _ = dsq_peak("stats", "--data", str(folder), "--json", timeout=120)
    assert "Traceback" not in res.stderr, res.stderr
    if res.returncode == 2 and "no games in" in res.stderr:  # every file left out: said why
        lines = [ln.removeprefix("dsq stats: skipped ") for ln in res.stderr.splitlines()]
        left_out = [ln.split(": ", 1) for ln in lines if ln.startswith("/")]
        return 0, {Path(p).name: reason for p, reason in left_out}
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    return out["general"]["games"], {Path(s["path"]).name: s["reason"] for s in out["skipped"]}


def part(folder: Path) -> Path:
    (p,) = sorted((folder / "games" / "b1").glob("part-*.parquet"))
    return p


def test_links_and_special_files_are_named_and_skipped(data: Path) -> None:
    os.symlink("/dev/zero", data / "batches" / "zero.json")
    os.mkfifo(data / "games" / "b1" / "fifo.parquet")
    os.symlink(part(data), data / "games" / "b1" / "link.parquet")
    with open(data / "batches" / "huge.json", "wb") as fh:
        fh.truncate(50 << 20)  # 50 MB of nothing
    games, skipped = stats(data)
    assert games == 300
    assert "symbolic link" in skipped["zero.json"]
    assert "FIFO" in skipped["fifo.parquet"]
    assert "symbolic link" in skipped["link.parquet"]
    assert "larger than 4 MiB" in skipped["huge.json"]
    res, _ = dsq_peak("batches", "--data", str(data), timeout=120)
    assert res.returncode == 0 and "b1" in res.stdout, res.stderr


def test_a_copy_counts_once_and_resume_sets_it_aside(data: Path) -> None:
    original = part(data)
    folder = original.parent
    shutil.copy(original, folder / f"{original.stem} (conflict copy).parquet")
    table = pq.read_table(original)
    foreign = table.set_column(
        table.schema.get_field_index("batch_id"), "batch_id", pa.array(["../../etc"] * 300)
    )
    pq.write_table(foreign, folder / "etc.parquet")
    games, skipped = stats(data)
    assert games == 300
    assert (
        f"already counted from {original.name}"
        in skipped[f"{original.stem} (conflict copy).parquet"]
    )
    assert "not a batch id" in skipped["etc.parquet"]
    code, _, err = in_process(["simulate", "--data", str(data), "--resume", "b1"])
    assert code == 0, err
    assert err.count("moved") == 2 and "repeats games" in err, err
    assert sorted(p.name for p in folder.glob("*.parquet")) == [original.name]
    assert len(list((folder / ".set-aside").iterdir())) == 2  # kept, never deleted
    assert stats(data) == (300, {})


def test_a_forged_verdict_does_not_make_a_damaged_file_count(data: Path) -> None:
    p = part(data)
    raw = bytearray(p.read_bytes())
    for k in range(len(raw) // 3, len(raw) // 3 + 64):  # inside the data pages
        raw[k] ^= 0x5A
    p.write_bytes(bytes(raw))
    st = p.stat()
    identity = [st.st_size, st.st_mtime_ns, st.st_ctime_ns]
    for forged in (
        {"version": 1, "files": {p.name: [*identity, None]}},
        {"version": 2, "files": {p.name: [*identity, None, ["b1", 0, 299, 300], "0" * 32]}},
    ):
        (p.parent / CACHE_NAME).write_text(json.dumps(forged))
        games, skipped = stats(data)
        assert games == 0 and "damaged data pages" in skipped[p.name], skipped


def test_a_file_of_a_newer_schema_is_named_and_left_out(data: Path) -> None:
    table = pq.read_table(part(data))
    newer = table.set_column(0, "schema_version", pa.array([99] * 300, pa.int16()))
    pq.write_table(newer, data / "games" / "b1" / "v99.parquet")
    pq.write_table(newer.append_column("future", pa.array([1] * 300)), data / "v99x.parquet")
    games, skipped = stats(data)
    assert games == 300
    assert "schema version 99 is newer" in skipped["v99.parquet"]
    assert "does not know (future)" in skipped["v99x.parquet"]


def relabel(path: Path, dest: Path, key: str) -> None:
    """Copy a table file to ``dest`` with its header's rules key set to ``key``."""
    blob = path.read_bytes()
    first, rest = blob.split(b"\n", 1)
    size = int(first.split()[2])
    header = json.loads(rest[:size])
    header["rules"] = key
    text = json.dumps(header, sort_keys=True).encode()
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(first.rsplit(b" ", 1)[0] + f" {len(text)}\n".encode() + text + rest[size:])


def table_counts(data: Path, rules: str) -> dict:
    res, _ = dsq_peak("tablebase", "stats", "--rules", rules, "--material", "T v r",
                      "--data", str(data), "--json")  # fmt: skip
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_a_relabelled_table_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sim.tablebase.store import rules_key

    data = tmp_path / "data"
    standard = table_counts(data, "standard")  # builds the standard tables
    (table,) = (data / "tablebases" / rules_key("standard")).glob("T_v_r.dsqtb")
    other = rules_key("datou")  # the tiger jumps otherwise: other values
    fake = data / "tablebases" / other / table.name
    relabel(table, fake, other)
    # a bot that needs the table says once that it cannot use it, then searches
    monkeypatch.setenv("DSQ_DATA", str(data))
    bot = "alphabeta:depth=2,tablebase=on"
    res, _ = dsq_peak("move", "--rules", "datou", "--bot", bot, "--fen", T_V_R)
    assert res.returncode == 0, res.stderr
    assert res.stderr.count("header checksum mismatch") == 1, res.stderr
    assert "dsq tablebase build replaces it" in res.stderr
    # stats refuse the relabelled file and rebuild the table: the counts of a clean build
    datou = table_counts(data, "datou")
    assert datou == table_counts(tmp_path / "clean", "datou")
    assert datou["red_to_move"] != standard["red_to_move"]  # 1,864 red wins, not 2,229
    # a table of the old format is refused with the same advice
    fake.write_bytes(fake.read_bytes().replace(b"DSQTB 2 ", b"DSQTB 1 ", 1))
    res, _ = dsq_peak("move", "--rules", "datou", "--bot", bot, "--fen", T_V_R)
    assert res.returncode == 0 and "format 1" in res.stderr, res.stderr
    assert "dsq tablebase build replaces it" in res.stderr


def test_interleaved_files_count_and_a_single_repeated_game_is_caught(data: Path) -> None:
    original = part(data)
    table = pq.read_table(original)
    index = table.column("game_index").to_pylist()
    folder = original.parent
    original.unlink()  # the same games, gathered into files of non-contiguous indices
    pq.write_table(table.filter(pa.array([i % 2 == 0 for i in index])), folder / "even.parquet")
    pq.write_table(table.filter(pa.array([i % 2 == 1 for i in index])), folder / "odd.parquet")
    pq.write_table(table.slice(7, 1), folder / "one.parquet")  # game 7 once more
    games, skipped = stats(data)
    assert games == 300
    assert set(skipped) == {"one.parquet"} and "from odd.parquet" in skipped["one.parquet"]


def test_a_kept_check_or_lock_file_that_is_special_is_not_read(tmp_path: Path) -> None:
    """A kept rules check linked to /dev/zero reads as no check, and a batch lock file that
    is a FIFO is not waited on: both reads are bounded and never follow links."""
    entry = EngineEntry("zero", (sys.executable, "-c", "pass"))
    path = check_path(tmp_path, entry, "standard")
    path.parent.mkdir(parents=True)
    path.symlink_to("/dev/zero")
    assert load_check(tmp_path, entry, "standard") is None
    path.unlink()
    path.write_text(json.dumps({"ok": True}))
    assert load_check(tmp_path, entry, "standard") == {"ok": True}
    fifo = tmp_path / "lock"
    os.mkfifo(fifo)
    assert _holder(fifo) == ""
    big = tmp_path / "big-lock"
    big.write_bytes(b"x" * 10_000)
    assert _holder(big) == ""
