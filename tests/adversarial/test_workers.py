"""Work stops with its driver, on every backend: a ``kill -9`` of a ``--workers 2`` driver
leaves no pool worker (nor resource tracker) computing; on Dask the scheduler drops the
dead driver's chunks. The README's cluster commands bind every listening socket to the
address given, and ``--quiet`` keeps Dask's own warnings off the terminal."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.storage.reading import open_dataset
from tests.support import ROOT
from tests.support.procs import WAIT, alive, children, env, popen_dsq, wait_for


def parquet_files(data: Path) -> list[Path]:
    return sorted(data.rglob("*.parquet"))


def test_sigkill_of_a_pool_driver_leaves_no_worker_running(tmp_path: Path) -> None:
    proc = popen_dsq(
        "simulate", "--rules", "standard", "--games", "2000000", "--workers", "2",
        "--data", str(tmp_path), "--quiet", "--flush-seconds", "0.2",
    )  # fmt: skip
    try:
        wait_for(lambda: parquet_files(tmp_path), "the first file")
        kids = children(proc.pid)  # two workers and multiprocessing's resource tracker
        assert len(kids) == 3, kids
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    wait_for(lambda: not any(alive(k) for k in kids), "the workers to die")


# -- Dask: a cluster started with the README's own commands ------------------------------


def readme_cluster_commands() -> list[str]:
    """The ``dask scheduler`` and ``dask worker`` lines of the README (continuations joined)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [ln.strip().rstrip("&").strip() for ln in text.splitlines()]
    return [ln for ln in lines if re.match(r"^(PYTHONPATH=\S+ )?dask (scheduler|worker)\b", ln)]


def accepts(port: int) -> bool:
    """Whether something listens on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children(p))
    return out


def listening(pids: list[int]) -> list[tuple[str, int]]:
    """(local address, port) of every listening TCP socket the processes hold."""
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd) if fd.is_symlink() else ""
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    out = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            f = line.split()
            if f[3] == "0A" and f[9] in inodes:  # 0A: LISTEN
                addr, port = f[1].split(":")
                out.append((addr, int(port, 16)))
    return out


LOOPBACK = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1, ::1


@pytest.fixture(scope="module")
def readme_cluster() -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """The README's scheduler and workers, on free ports; yields (address, processes)."""
    pytest.importorskip("distributed")
    commands = readme_cluster_commands()
    assert [c.split("dask ")[1].split()[0] for c in commands] == ["scheduler", "worker"]
    sched, dash = free_port(), free_port()
    procs = []
    for cmd in commands:
        cmd = cmd.replace("8786", str(sched)).replace("8787", str(dash))
        cmd = re.sub(r"^PYTHONPATH=\S+ ", "", cmd)
        procs.append(
            subprocess.Popen(
                cmd.split(),
                cwd=ROOT,
                env=env(),
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
        )
        if " scheduler " in f" {cmd} ":  # the workers connect to it: wait until it listens
            wait_for(lambda: accepts(sched), "the scheduler to listen")
    address = f"tcp://127.0.0.1:{sched}"
    try:
        from distributed import Client

        with Client(address, timeout=f"{WAIT:.0f}s") as client:
            client.wait_for_workers(2, timeout=WAIT)
        yield address, procs
    finally:
        for p in reversed(procs):
            os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def test_readme_cluster_listens_only_on_the_address_given(readme_cluster) -> None:
    _, procs = readme_cluster
    sockets = listening([pid for p in procs for pid in descendants(p.pid)])
    assert len(sockets) >= 4  # scheduler, its dashboard, and each worker with its dashboard
    assert all(addr in LOOPBACK for addr, _ in sockets), sockets


def test_quiet_hides_dask_warnings_when_a_worker_dies(readme_cluster, tmp_path: Path) -> None:
    from distributed import Client

    address, _ = readme_cluster
    proc = popen_dsq(
        "simulate", "--rules", "standard", "--games", "3000", "--seed", "4", "--ply-cap", "300",
        "--data", str(tmp_path), "--batch-id", "dq", "--scheduler", address, "--quiet",
        "--chunk-games", "20", "--flush-games", "100", "--flush-seconds", "0.2",
    )  # fmt: skip
    wait_for(lambda: parquet_files(tmp_path), "the first file")
    with Client(address) as client:
        os.kill(next(iter(client.run(os.getpid).values())), signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and out == "" and err == "", err
    with open_dataset(tmp_path) as ds:
        idx = [r[0] for r in ds.con.execute("SELECT game_index FROM games ORDER BY 1").fetchall()]
    assert idx == list(range(3000))


def test_a_killed_driver_leaves_no_task_on_the_cluster(readme_cluster, tmp_path: Path) -> None:
    from distributed import Client

    address, _ = readme_cluster
    proc = popen_dsq(
        "simulate", "--rules", "standard", "--games", "2000000", "--data", str(tmp_path),
        "--scheduler", address, "--quiet", "--flush-seconds", "0.2",
    )  # fmt: skip
    with Client(address) as client:

        def tasks() -> int:
            return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))

        try:
            wait_for(lambda: parquet_files(tmp_path), "the first file")
            assert tasks() > 0
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
        wait_for(lambda: tasks() == 0, "the scheduler to drop the chunks")
