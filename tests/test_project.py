"""The README opens with the two commands, and CI runs exactly the test command."""

from __future__ import annotations

import re

from tests.support import ROOT


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README must open with a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert "dsq dashboard" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci


def test_top_level_layout_is_the_design_cards() -> None:
    allowed = {
        "pyproject.toml",
        "README.md",
        "engine",
        "sim",
        "dashboard",
        "data",
        "tests",
        ".ci",
        "benchmarks",
        "docs",
        ".git",
        ".gitignore",
    }
    import subprocess

    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:  # not a git checkout: look at the folder itself
        names = {p.name for p in ROOT.iterdir() if not p.name.endswith(".egg-info")}
    else:
        names = {line.split("/")[0] for line in tracked.stdout.splitlines()}
    assert names <= allowed, f"unexpected top-level entries: {sorted(names - allowed)}"
