"""Shared test setup. Keep each addition small and say whose it is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


# Dashboard and storage tests: a small dataset made by the real simulator (session-wide,
# read-only) and a private copy for tests that write into or damage the data folder.
@pytest.fixture(scope="session")
def fixture_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared read-only fixture dataset (real simulator output)."""
    from tests.support.dataset import build_dataset

    return build_dataset(tmp_path_factory.mktemp("dash") / "data")


@pytest.fixture
def data_copy(fixture_data: Path, tmp_path: Path) -> Path:
    """A private copy for tests that write into the data folder."""
    dest = tmp_path / "data"
    shutil.copytree(fixture_data, dest)
    return dest


# Storage: the key that seals the verdict caches lives in a temporary folder during tests
# (never in the user's ~/.cache); subprocesses inherit it.
@pytest.fixture(scope="session", autouse=True)
def _seal_key_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    os.environ["DSQ_KEY_DIR"] = str(tmp_path_factory.mktemp("dsq-key"))


# Numba: the suite's controller compiles the kernels once, in two processes side by side,
# before the xdist workers start (tests/support/warm.py); without it every worker, and
# every subprocess a test starts before the cache is written, compiles the same kernels.
# Once warmed, the cache folder holds a mark and later runs on the same sources skip it.
def pytest_configure(config: pytest.Config) -> None:
    import os
    import subprocess
    import sys

    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    if not getattr(config.option, "numprocesses", None):
        return  # one process: it compiles as it goes, once
    from tests.support.warm import GROUPS, mark_warm, marker

    if marker().exists():
        return
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    procs = [
        subprocess.Popen([sys.executable, "-m", "tests.support.warm", name], cwd=root, env=env)
        for name in GROUPS
    ]
    codes = []
    for proc in procs:
        try:
            codes.append(proc.wait(timeout=900))
        except subprocess.TimeoutExpired:  # the tests then compile what they need
            proc.kill()
            codes.append(proc.wait())
    if codes == [0] * len(procs):
        mark_warm()


# One xdist worker more than the machine has cores: a test that waits (on a browser, a
# server, a subprocess starting) leaves its core to the extra worker instead of idle.
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    import os

    return (os.cpu_count() or 1) + 1


# Balance across the xdist workers: the costliest test files first (tests/support/schedule.py;
# pyproject's addopts keep xdist to this order with --no-loadscope-reorder).
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from tests.support.schedule import costliest_first, load_costs

    items[:] = costliest_first(items, load_costs())


# Ctrl-C and a closed terminal as they come: a suite started where SIGINT is ignored (a
# background job of a script) or SIGHUP is (nohup) would pass that on to every process it
# starts, and the tests of what an interrupt or a hang-up does would see none. Each process
# of the run (controller and xdist workers) takes them back, so the programs the tests
# start begin with both at their defaults.
@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
