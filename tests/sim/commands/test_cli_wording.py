"""What the terminal says: ``dsq --version``, error lines that name the sub-command, the
default rules every help states, the legend of ``dsq rules``, thousands separators in
progress lines, the engine registry's and an engine's start-up errors, and how an
interrupted ``dsq simulate`` says to resume."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from sim.batch.progress import BatchProgress
from tests.support import ROOT
from tests.support.procs import in_process


def test_version() -> None:
    code, out, _ = in_process(["--version"])
    assert code == 0 and out.strip() == f"dsq {engine.__version__}"


@pytest.mark.parametrize(
    ("argv", "prefix"),
    [
        (["tablebase", "stats", "--material", "nonsense"], "dsq tablebase stats: error:"),
        (["tablebase", "verify", "--material", "nonsense"], "dsq tablebase verify: error:"),
        (["games", "export", "--rules", "chess"], "dsq games export: error:"),
        (["engines", "show", "nope"], "dsq engines show: error:"),
    ],
)
def test_an_error_names_the_sub_command(argv: list[str], prefix: str, tmp_path: Path) -> None:
    code, out, err = in_process([*argv, "--data", str(tmp_path)])
    assert code == 2 and out == "" and err.startswith(prefix), err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("sub", ["build", "stats", "probe", "verify"])
def test_every_tablebase_sub_command_defaults_to_standard(sub: str) -> None:
    """One behaviour for all of them: --rules is standard when left out, and the help says
    so (``list`` without --rules lists every rule set's tables)."""
    from sim.cli import build_parser

    parser = build_parser("tablebase")
    words = {"build": ["--pieces", "2"], "probe": [], "stats": ["--material", "R v r"]}
    args = parser.parse_args(["tablebase", sub, *words.get(sub, ["--material", "R v r"])])
    assert args.rules == "standard"
    code, out, _ = in_process(["tablebase", sub, "--help"])
    assert code == 0 and "(default: standard)" in " ".join(out.split())


@pytest.mark.parametrize("name", ["serve", "engine"])
def test_serve_and_its_alias_state_their_default_rules(name: str) -> None:
    code, out, _ = in_process([name, "--help"])
    assert code == 0 and "default: standard" in " ".join(out.split())


def test_the_help_names_docs_rules_md_never_rules_md() -> None:
    from sim.cli import COMMAND_MODULES

    for name in [m.rsplit(".", 1)[1] for m in COMMAND_MODULES]:
        code, out, _ = in_process([name, "--help"])
        assert code == 0 and "RULES.md" not in out, name
    code, out, _ = in_process(["rules"])
    assert code == 0 and "RULES.md" not in out


def test_the_legend_of_dsq_rules_only_where_a_row_is_starred() -> None:
    _, standard, _ = in_process(["rules", "standard"])
    assert "* differs" not in standard and not re.search(r"^\* ", standard, re.M)
    _, yeshou, _ = in_process(["rules", "yeshou"])
    assert re.search(r"^  \* rule_7_3", yeshou, re.M) and yeshou.rstrip().endswith(
        "* differs from standard"
    )


def test_progress_lines_have_thousands_separators() -> None:
    out = io.StringIO()
    p = BatchProgress(out, mode="plain", interval=0)
    p.start("b", 250_000, 12_345, {"red": 6_000, "blue": 5_345, "draw": 1_000})
    line = out.getvalue()
    assert "12,345/250,000" in line and "red 6,000 blue 5,345 draw 1,000" in line


def test_a_missing_registry_file_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DSQ_ENGINES", raising=False)
    code, _, err = in_process(
        ["simulate", "--red", "engine:x", "--games", "1", "--data", str(tmp_path)]
    )
    assert code == 2
    assert f"the engine registry {tmp_path / 'engines.toml'} does not exist" in err


def test_an_engine_that_cannot_start_names_its_program(tmp_path: Path) -> None:
    registry = tmp_path / "engines.toml"
    registry.write_text('[engines.x]\ncommand = ["/nonexistent/engine-program"]\n')
    argv = ["engines", "check", "x", "--rules", "standard", "--engines", str(registry)]
    code, _, err = in_process([*argv, "--data", str(tmp_path), "--quiet"])
    assert code == 2 and err.startswith("dsq engines check: error:"), err
    assert "cannot start '/nonexistent/engine-program'" in err


def test_an_interrupted_simulate_says_how_to_resume(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) during a batch: the line names the batch and the command that plays
    the rest, and that command does."""
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "sim.cli", "simulate", "--games", "100000000"]
    cmd += ["--red", "greedy", "--batch-id", "long", "--data", str(data), "--max-seconds", "300"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stderr is not None
    for line in proc.stderr:  # the first progress line: the batch is playing
        if line.startswith("long standard: "):
            break
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    assert proc.wait(timeout=120) == 130
    assert f"dsq simulate --resume long --data {data}" in rest, rest
