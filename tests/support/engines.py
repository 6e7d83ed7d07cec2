"""Engine registries for tests: dsq's own bots served by ``dsq engine``, the misbehaving
engine of ``tests/support/bad_engine.py`` and the plain-UCI engine of another dialect of
``tests/support/dialect_engine.py``.

Every entry runs ``{python} -m ...`` in the project folder, so the engines import this
checkout's code (not an installed copy).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.support import ROOT


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(_toml_str(i) for i in items) + "]"


def dsq_engine(name: str, bot: str, rules: str = "standard", claims: str | None = None,
               marker: str | None = None) -> str:  # fmt: skip
    """The registry table of ``dsq engine --bot BOT --rules RULES`` (``claims``: the rules
    its entry claims, default RULES; ``marker``: a seed that tags its processes)."""
    argv = ["{python}", "-m", "sim.cli", "engine", "--bot", bot, "--rules", rules]
    if marker is not None:
        argv += ["--seed", marker]
    return (
        f"[engines.{name}]\ncommand = {_toml_list(argv)}\ncwd = {_toml_str(str(ROOT))}\n"
        f'rules = "{claims or rules}"\nstart_timeout = 600\n'
    )


def bad_engine(name: str, fault: str, after: int = 0, sleep_ms: int = 2000, tag: str = "",
               options: str = "", timeout: float | None = None,
               scores: str = "") -> str:  # fmt: skip
    """The registry table of the misbehaving engine with ``fault`` after ``after`` searches
    (``tag``: carried on its command line and its children's; ``options``: the TOML lines
    of its ``[options]`` table; ``scores``: its ``--scores``, the ``info score`` of each
    search in turn)."""
    argv = ["{python}", "-m", "tests.support.bad_engine", fault, "--after", str(after),
            "--sleep", str(sleep_ms)]  # fmt: skip
    if tag:
        argv += ["--tag", tag]
    if scores:
        argv += ["--scores", scores]
    if timeout is None:
        timeout = 1 if fault in ("handshake", "mute") else 10
    table = (
        f"[engines.{name}]\ncommand = {_toml_list(argv)}\ncwd = {_toml_str(str(ROOT))}\n"
        f'rules = "standard"\nstart_timeout = {timeout}\n'
    )
    return table + (f"[engines.{name}.options]\n{options}\n" if options else "")


def dialect_engine(name: str, *flags: str, keys: str = "") -> str:
    """The registry table of ``tests/support/dialect_engine.py`` with ``flags`` (its command
    line) and ``keys`` (more TOML lines of the table, e.g. ``move_case = "upper"``)."""
    argv = ["{python}", "-m", "tests.support.dialect_engine", *flags]
    return (
        f"[engines.{name}]\ncommand = {_toml_list(argv)}\ncwd = {_toml_str(str(ROOT))}\n"
        f'rules = "standard"\nstart_timeout = 600\n{keys}\n'
    )


def write_registry(path: Path, *tables: str) -> Path:
    """Write registry tables to ``path`` and return it."""
    path.write_text("\n".join(tables), encoding="utf-8")
    return path


def processes_with(marker: str) -> list[int]:
    """Pids of running processes whose command line holds ``marker`` as an argument."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in args and state not in ("Z", "X"):
            pids.append(int(entry.name))
    return pids
