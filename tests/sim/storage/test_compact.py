"""``dsq compact``: merged files equal the sources row for row; each game counts exactly once
before, during (stopped at every step, in process and by SIGKILL) and after; an interrupted
compaction is finished or rolled back; the batch lock; files not dsq's own left alone."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.stats.synthetic import rows_table
from sim.storage import compacting
from sim.storage.paths import games_dir
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record
from sim.storage.schema import SCHEMA_VERSION
from sim.storage.verify import verify_games_file
from sim.storage.writing import write_games_chunk
from tests.support import ROOT
from tests.support.procs import AWAIT_RELEASE, dsq, env, in_process, one_line_error

BATCH = "cb"
GAMES = 100  # in 5 files of 20


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A batch of 100 random games in 5 files, made by the real simulator."""
    d = tmp_path_factory.mktemp("compact") / "data"
    res = dsq(
        "simulate", "--data", str(d), "--games", str(GAMES), "--chunk-games", "20",
        "--flush-games", "20", "--seed", "7", "--batch-id", BATCH, "--quiet",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert len(parts(d)) == 5
    return d


@pytest.fixture
def data(made: Path, tmp_path: Path) -> Path:
    """A private copy of the batch."""
    dest = tmp_path / "data"
    shutil.copytree(made, dest)
    return dest


def parts(d: Path) -> list[str]:
    """The batch's parquet files (sorted names)."""
    return sorted(p.name for p in games_dir(d, BATCH).glob("*.parquet"))


def games_table(d: Path) -> pa.Table:
    """Every game the reader counts, every column, in game order."""
    with open_dataset(d) as ds:
        return ds.con.sql("SELECT * FROM games ORDER BY batch_id, game_index").to_arrow_table()


def rounded(x: object) -> object:
    """``x`` with every float to 10 significant digits: DuckDB sums floats in the order
    it reads the files, so a standard deviation may differ in its last bits."""
    if isinstance(x, dict):
        return {k: rounded(v) for k, v in x.items()}
    if isinstance(x, list):
        return [rounded(v) for v in x]
    return float(f"{x:.10g}") if isinstance(x, float) else x


def stats_figures(d: Path) -> object:
    """``dsq stats --json`` without the list of skipped files (which names the repeats)."""
    code, out, err = in_process(["stats", "--data", str(d), "--json"])
    assert code == 0, err
    figures = json.loads(out)
    figures.pop("skipped")
    return rounded(figures)


def assert_once(d: Path, original: pa.Table, stats: object = None) -> None:
    """The reader counts exactly the original games, once each, every column equal."""
    now = games_table(d)
    assert now.num_rows == original.num_rows
    assert now.equals(original)
    if stats is not None:
        assert stats_figures(d) == stats


@pytest.mark.parametrize("target", [40, 100])
def test_merge_equals_the_sources_and_counts_once_at_every_step(data: Path, target: int) -> None:
    original, stats = games_table(data), stats_figures(data)
    record = read_batch_record(data, BATCH)
    steps: list[str] = []

    def check(step: str) -> None:
        steps.append(step)
        assert_once(data, original, stats)

    plan = compacting.plan_batch(data, BATCH, target)
    # 40: the first source sorts before the target's name; 100: after it (both orders)
    first_before = [m.removal_order()[0] < m.target for m in plan.merges]
    assert first_before == ([True, True] if target == 40 else [False])
    compacting.STEP_HOOK = check
    try:
        res = compacting.compact_batch(data, BATCH, target)
    finally:
        compacting.STEP_HOOK = None
    merges = 2 if target == 40 else 1
    assert steps.count("journal") == steps.count("done") == merges
    assert res.files_before == 5 and res.files_after == (3 if target == 40 else 1)
    assert res.games == GAMES and res.merged == merges
    for name in parts(data):
        p = games_dir(data, BATCH) / name
        assert verify_games_file(p) is None
        idx = pq.read_table(p, columns=["game_index"]).column(0).to_pylist()
        assert idx == sorted(idx)
    assert not (games_dir(data, BATCH) / compacting.JOURNAL_NAME).exists()
    assert read_batch_record(data, BATCH) == record
    assert_once(data, original, stats)


def test_files_of_older_schema_versions_merge_row_for_row(tmp_path: Path) -> None:
    old = sorted((ROOT / "data" / "games" / "sample-ab2-1").glob("*.parquet"))[0]  # version 1
    folder = tmp_path / "games" / "sample-ab2-1"
    folder.mkdir(parents=True)
    shutil.copy(old, folder / old.name)
    rows = [
        dict(batch_id="sample-ab2-1", game_index=100, reason="forfeit", winner="blue",
             forfeit_note="crash: exit code 3", move_ms=[12, 0, 4000000000]),
        dict(batch_id="sample-ab2-1", game_index=101),
    ]  # fmt: skip
    write_games_chunk(tmp_path, "sample-ab2-1", rows_table(rows))
    original = games_table(tmp_path)
    assert original.num_rows == 102
    res = compacting.compact_batch(tmp_path, "sample-ab2-1")
    assert (res.files_before, res.files_after, res.games) == (2, 1, 102)
    assert_once(tmp_path, original)
    merged = pq.read_table(next(folder.glob("*.parquet")))
    assert merged.column("schema_version").to_pylist() == [1] * 100 + [SCHEMA_VERSION] * 2


class Stop(Exception):
    """Raised by a step hook: the compaction stops there, as a crash would."""


@pytest.mark.parametrize("stop", ["journal", "target", "removed 1", "removed 2", "done"])
def test_stopped_at_a_step_then_finished(data: Path, stop: str) -> None:
    original = games_table(data)

    def halt(step: str) -> None:
        if step == stop:
            raise Stop

    compacting.STEP_HOOK = halt
    with pytest.raises(Stop):
        compacting.compact_batch(data, BATCH, 40)
    compacting.STEP_HOOK = None
    assert_once(data, original)
    res = compacting.compact_batch(data, BATCH, 40)
    if stop != "done":
        assert res.notes and ("finished" in res.notes[0] or "rolled back" in res.notes[0])
    assert_once(data, original)
    assert len(parts(data)) == 3


KILLER = """
import os, signal, sys
from sim.storage import compacting, writing
stop, main_args = sys.argv[1], sys.argv[2:]
def hook(step):
    if step == stop:
        os.kill(os.getpid(), signal.SIGKILL)
compacting.STEP_HOOK = hook
if stop == "writing":  # the target written under its temporary name, not yet renamed
    real = writing.write_games_file
    def write_then_die(path, table):
        real(path, table)
        os.kill(os.getpid(), signal.SIGKILL)
    writing.write_games_file = write_then_die
from sim.cli import main
sys.exit(main(main_args))
"""


@pytest.mark.parametrize("target", [40, 100])
@pytest.mark.parametrize("stop", ["journal", "writing", "target", "removed 1", "removed 2", "done"])
def test_sigkill_at_a_step_then_resumed(data: Path, stop: str, target: int) -> None:
    original, stats = games_table(data), stats_figures(data)
    folder = games_dir(data, BATCH)
    args = ["compact", "--data", str(data), "--target-games", str(target)]
    res = subprocess.run(
        [sys.executable, "-c", KILLER, stop, *args], cwd=ROOT, env=env(), capture_output=True
    )
    assert res.returncode == -signal.SIGKILL, res.stderr
    assert (folder / compacting.JOURNAL_NAME).exists() == (stop != "done")
    temps = [n for n in os.listdir(folder) if ".tmp-" in n]
    assert bool(temps) == (stop == "writing")
    assert_once(data, original, stats)
    code, again, err = in_process([*args, "--json"])  # the resume; the kill was a process's
    assert code == 0, err
    out = json.loads(again)["batches"][0]
    assert out["files_after"] == (3 if target == 40 else 1) and out["games"] == GAMES
    assert not [n for n in os.listdir(folder) if ".tmp-" in n or n == compacting.JOURNAL_NAME]
    assert_once(data, original, stats)


def test_a_running_batch_or_a_second_compact_is_refused(data: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom sim.storage.locks import BatchLock\n"
         f"BatchLock({str(data)!r}, {BATCH!r}).acquire()\n" + AWAIT_RELEASE],
        cwd=ROOT, env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        before = parts(data)
        line = one_line_error(dsq("compact", "--data", str(data)), "compact")
        assert "running in another process" in line
        assert parts(data) == before
    finally:
        holder.communicate("go\n", timeout=60)


def test_files_not_dsqs_own_are_left_alone(data: Path) -> None:
    folder = games_dir(data, BATCH)
    first = folder / parts(data)[0]
    copy = folder / "conflict copy.parquet"  # repeats the first file's games
    shutil.copyfile(first, copy)
    copied = copy.read_bytes()
    (folder / "junk.parquet").write_bytes(b"not parquet")
    aside = folder / ".set-aside"
    aside.mkdir()
    shutil.copyfile(first, aside / first.name)
    original = games_table(data)
    assert original.num_rows == GAMES
    code, out, err = in_process(["compact", "--data", str(data), "--json"])
    assert code == 0, err
    left = {x["file"]: x["reason"] for x in json.loads(out)["batches"][0]["left_alone"]}
    assert set(left) == {"conflict copy.parquet", "junk.parquet", f".set-aside/{first.name}"}
    assert "repeats games" in left["conflict copy.parquet"]
    assert copy.read_bytes() == copied and (aside / first.name).read_bytes() == copied
    assert (folder / "junk.parquet").read_bytes() == b"not parquet"
    assert len(parts(data)) == 3  # the merged file and the two left alone
    assert_once(data, original)


def test_an_own_named_repeat_blocks_the_batch(data: Path) -> None:
    folder = games_dir(data, BATCH)
    first = parts(data)[0]
    twin = first.rsplit("-", 1)[0] + "-00000000.parquet"
    shutil.copyfile(folder / first, folder / twin)
    original, before = games_table(data), parts(data)
    code, out, err = in_process(["compact", "--data", str(data)])
    assert code == 0, err
    assert "not compacted" in out and "named like dsq's own files" in out
    assert parts(data) == before
    assert_once(data, original)


def test_the_records_committing_list_is_folded(data: Path) -> None:
    path = data / "batches" / f"{BATCH}.json"
    rec = json.loads(path.read_text())
    last = parts(data)[-1]
    counts = dict(rec["counts"])
    entry = {"file": last, "games_done": rec["games_done"], "counts": counts}
    rec["committing"] = [entry]
    rec["games_done"] -= 20  # as written before that file was in place
    path.write_text(json.dumps(rec))
    before = read_batch_record(data, BATCH)
    assert before["games_done"] == GAMES
    code, out, err = in_process(["compact", "--data", str(data)])
    assert code == 0, err
    after = read_batch_record(data, BATCH)
    assert after["games_done"] == GAMES and after["counts"] == before["counts"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--batch", "../x"],
        ["--batch", "nope"],
        ["--target-games", "1"],
        ["--target-games", "x"],
        ["--batch", ""],
    ],
)
def test_bad_input_is_one_line_exit_2(data: Path, argv: list[str]) -> None:
    full = ["compact", "--data", str(data), *argv]
    code, out, err = in_process(full)  # an exception would raise here
    one_line_error(subprocess.CompletedProcess(full, code, out, err), "compact")


def test_the_bundled_sample_is_refused_unless_named() -> None:
    e = {k: v for k, v in env().items() if k != "DSQ_DATA"}
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", "compact"], cwd=ROOT, env=e, capture_output=True,
        text=True,
    )  # fmt: skip
    one_line_error(res, "compact")
