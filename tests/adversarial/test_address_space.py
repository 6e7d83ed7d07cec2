"""``dsq stats`` under an address-space limit (``ulimit -v``, set by ``setrlimit`` in the
real subprocess): thread pools and allocators sized to the limit, so a 2 GB limit (common
on shared servers) works on a folder with a changed file, and a limit too low for dsq is
one line naming it, exit 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sim.batch import make_spec, run_batches
from tests.support.procs import dsq, limit, one_line_error

GAMES = 300


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("address-space")
    specs = [make_spec("standard", "random", "greedy", GAMES, seed=s, ply_cap=120) for s in (1, 2)]
    run_batches(specs, folder, ids=["as-a", "as-b"])
    return folder


def change_a_file(data: Path, n: int) -> None:
    """Give one games file a new modification time: it is verified again (in threads)."""
    path = sorted((data / "games" / "as-a").glob("*.parquet"))[0]
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + n * 1_000_000_000))


@pytest.mark.parametrize("kib", [2_000_000, 1_000_000])
def test_stats_under_an_address_space_limit(data: Path, kib: int) -> None:
    change_a_file(data, kib // 1000)
    res = dsq("stats", "--json", "--data", str(data), preexec=limit("as", kib * 1024))
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout)["general"]["games"] == 2 * GAMES


def test_a_limit_too_low_is_named(data: Path) -> None:
    change_a_file(data, 7)
    res = dsq("stats", "--data", str(data), preexec=limit("as", 400_000 * 1024))
    line = one_line_error(res, "stats")
    assert "address-space limit (ulimit -v 400000) is too low" in line, line
    assert "at least 0.8 GiB" in line, line
