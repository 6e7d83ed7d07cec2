"""Every ``dsq`` example of the README runs as a person types it, from the project folder
without ``$DSQ_DATA``, and prints what the README says it prints: exit code 0 and the
output's shape (a count, JSON, a table, a move...), the numbers given in its comments
included. The examples that write name ``--data ~/dsq-data`` (here a copy of the bundled
sample in a temporary home), and after each one the project's ``data/`` is as git has it.

A few examples run for long or need a server: :data:`SCALED` lists each of them with the
smaller variant run instead (or None: not run here, with where it is tested).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from sim.storage.records import list_batches
from tests.support import ROOT
from tests.support.procs import in_process

README = ROOT / "README.md"

# README example -> what runs instead (None: not run here). Every key must be in the README.
SCALED: dict[str, str | None] = {
    # A server that runs until stopped: tests/sim/commands/test_dashboard_command.py and the
    # browser tests run it.
    "dsq dashboard": None,
    # Needs a Dask scheduler and workers: tests/sim/batch/test_simulate.py starts a real
    # local cluster and runs dsq simulate --scheduler on it.
    "dsq simulate --rules datou --red random --blue random --games 100000 --scheduler "
    "tcp://127.0.0.1:8786 --data ~/dsq-data": None,
    # 6,000 games on two workers: the same with 20 games per rule set.
    "dsq simulate --rules standard,yeshou,datou --red greedy --blue random --games 2000 "
    '--seed 7 --swap --opening-plies 4 --workers 2 --label "greedy vs random" --data '
    "~/dsq-data": "dsq simulate --rules standard,yeshou,datou --red greedy --blue random "
    '--games 20 --seed 7 --swap --opening-plies 4 --workers 2 --label "greedy vs random" '
    "--data ~/dsq-data",
    # An external engine (notune/jungine) the tests do not have: tests/sim/external/ play and
    # check dsq serve and a misbehaving engine through the same commands.
    "dsq engines check jungine --rules standard --data ~/dsq-data": None,
    "dsq simulate --rules standard+trapped_can_capture --red alphabeta:depth=60,time_ms=50 "
    "--blue engine:jungine,movetime=50 --games 100 --swap --opening-plies 4 --workers 2 "
    "--data ~/dsq-data": None,
    # Every material of up to 3 animals (about 15 s): those of 2 (the stats example then
    # builds the 3-animal one it needs, and the verify example checks it).
    "dsq tablebase build --rules standard --pieces 3 --data ~/dsq-data": "dsq tablebase build "
    "--rules standard --pieces 2 --data ~/dsq-data",
    # 10,000,000 games recorded without moves (about 8 minutes on one core): the same with
    # 100,000.
    "dsq simulate --games 10000000 --record outcomes --data ~/dsq-data": "dsq simulate "
    "--games 100000 --record outcomes --data ~/dsq-data",
    # Perft 6 and 7, 60,000 random games and 9 strong games after a 20 s warm-up
    # measurement (the recorded simulation on 2 workers and the strong games:
    # tests/sim/bench/test_figures.py).
    "dsq bench": "dsq bench --depth 3 --games 200 --no-warmup --workers 1 --strong-games 0",
}
STDIN = {
    "dsq play --red human --blue mcts:playouts=2000 --rules yeshou": "moves\nquit\n",
    "dsq serve --bot alphabeta:depth=6 --rules datou": "uci\nisready\nposition startpos "
    "moves a3a4\ngo depth 2\nquit\n",
}
MOVE = re.compile(r"[a-g][1-9][a-g][1-9]")


def readme_examples() -> list[tuple[str, str]]:
    """``(command, comment)`` of every ``dsq`` line in the README's ``sh`` blocks, with
    continuation lines joined and the trailing ``# comment`` split off."""
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        joined = re.sub(r"\\\n\s*", "", block)
        for line in joined.splitlines():
            text, _, comment = line.partition(" # ")
            for command in text.split("&&"):  # pip install -e . && dsq dashboard
                if command.strip().startswith("dsq "):
                    out.append((" ".join(command.split()), comment.strip()))
    return out


EXAMPLES = readme_examples()


def test_the_readme_examples_are_real_commands() -> None:
    commands = [c for c, _ in EXAMPLES]
    assert len(commands) >= 20
    for key in SCALED:
        assert key in commands, f"SCALED names a command the README no longer has: {key}"
    for c in commands:
        assert '"..."' not in c and " ... " not in c, f"a placeholder in the README: {c}"
        for word in shlex.split(c):
            if word.startswith("docs/"):
                assert (ROOT / word).is_file(), word


USER_DATA = "~/dsq-data"  # the folder the README's writing examples name
# The compiled kernels stay in this machine's cache (engine.jit): the temporary home stands
# in for the person's data folder, not for a machine that never compiled them (else the
# examples, and the pool workers they start, would compile every kernel again).
CACHE_HOME = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")


@pytest.fixture(scope="module")
def readme_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home folder whose ``~/dsq-data`` is a copy of the bundled sample, so that every
    example that names it finds batches, games and rules to work on, in any order."""
    home = tmp_path_factory.mktemp("home")
    dest = home / "dsq-data"
    shutil.copytree(ROOT / "data", dest, ignore=shutil.ignore_patterns(".dashboard", ".lock"))
    return home


def sample_status() -> str | None:
    """``git status`` of the project's ``data/`` (untracked files included, ignored caches
    left out), or None where the project is not a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    done = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=all", "--", "data"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout if done.returncode == 0 else None


def _argv(command: str, data: Path) -> tuple[list[str], str]:
    """The arguments of a README command and its standard input (``< FILE``)."""
    words = shlex.split(command)
    stdin = STDIN.get(command, "")
    if "<" in words:
        k = words.index("<")
        stdin = (ROOT / words[k + 1]).read_text(encoding="utf-8")
        words = words[:k] + words[k + 2 :]
    if "BATCH_ID" in words:
        words[words.index("BATCH_ID")] = list_batches(data)[0]["batch_id"]
    words = [str(data) if w == USER_DATA else w for w in words]  # as the shell expands ~
    return words[1:], stdin


RUN_HERE = [(c, comment) for c, comment in EXAMPLES if SCALED.get(c, c) is not None]


@pytest.mark.parametrize(("command", "comment"), RUN_HERE, ids=[c for c, _ in RUN_HERE])
def test_a_readme_example_runs(
    command: str, comment: str, readme_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = SCALED.get(command, command)
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HOME", str(readme_home))
    monkeypatch.setenv("XDG_CACHE_HOME", CACHE_HOME)
    monkeypatch.delenv("DSQ_DATA", raising=False)
    monkeypatch.delenv("DSQ_ENGINES", raising=False)
    argv, stdin = _argv(run, readme_home / "dsq-data")
    before = sample_status()
    code, out, err = in_process(argv, stdin)
    assert code == 0, (command, err)
    assert "Traceback" not in err
    check_output(argv, out, comment)
    assert sample_status() == before, f"{command} changed the bundled sample data/"


def check_output(argv: list[str], out: str, comment: str) -> None:
    """The output has the shape the README describes for this command."""
    name, lines = argv[0], out.strip().splitlines()
    assert lines, f"dsq {name} printed nothing"
    if name == "perft":
        assert all(re.fullmatch(r"([a-g][1-9][a-g][1-9] )?\d+", x) for x in lines)
        if "--suite" in argv:
            suite = (ROOT / argv[argv.index("--suite") + 1]).read_text(encoding="utf-8")
            expected = re.findall(r"^#.*: (\d+)$", suite, re.M)
            assert lines == expected  # each case's count, as its comment says
        numbers = re.findall(r"\b\d{3,}\b", comment)
        if numbers:
            assert lines[-1] == numbers[-1]
    elif name in ("legal", "moves", "replay"):
        objs = [json.loads(x) for x in lines]
        key = "plies" if name == "replay" else "legal"
        assert all(key in o for o in objs)
        if "--jsonl" in argv:
            assert len(objs) == 4 and not any("error" in o for o in objs)
        if "--game" in argv:
            assert objs[0]["agrees"] is True and objs[0]["recorded"]["plies"] == objs[0]["plies"]
    elif name in ("bestmove", "move"):
        assert MOVE.fullmatch(lines[-1])
        if "--json" in argv:
            assert json.loads(lines[0])["move"] == lines[-1]
    elif name == "play":
        assert "result:" in out or "game stopped" in out
    elif name == "simulate":
        assert " done " in out and "by colour:" in out
        if "--sprt" in argv:
            assert "SPRT elo0=0,elo1=10" in out and "H1 accepted" in out
    elif name == "batches":
        assert lines[0].startswith("ID ") and "STATUS" in lines[0]
    elif name == "compact":
        heads = [x for x in lines if not x.startswith("  left alone: ")]
        assert heads and all(re.search(r": \d+ -> \d+ files, [\d,]+ games, ", x) for x in heads)
    elif name == "stats":
        if "--compare" in argv:
            assert lines[0].startswith("rule sets compared:")
        elif "--ratings" in argv:
            assert "Bradley-Terry" in out
        else:
            assert re.match(r"[\d,]+ games in ", lines[0])
    elif name == "bots":
        assert "alphabeta" in out and "mcts" in out
    elif name == "rules":
        assert "yeshou" in out
    elif name in ("serve", "engine"):
        assert "uciok" in lines and lines[-1].startswith("bestmove ")
        assert MOVE.fullmatch(lines[-1].split()[1])
    elif name == "study":
        assert ("games played in" in out) if argv[1] == "run" else out.startswith("study ")
    elif name == "tournament":
        if "--json" in argv:
            assert json.loads(out)["complete"] is True
        else:
            assert out.startswith("tournament ") and "cross table" in out
    elif name == "bench":
        assert lines[0].startswith("perft 3:") and "random games" in out


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('dsq moves --moves "a3a4 a7a6"', 'dsq legal --moves "a3a4 a7a6"'),
        ("dsq move --bot greedy --seed 3", "dsq bestmove --bot greedy --seed 3"),
        ("dsq engine --bot alphabeta:depth=1", "dsq serve --bot alphabeta:depth=1"),
    ],
)
def test_a_former_command_name_still_works(old: str, new: str) -> None:
    """``dsq moves``, ``dsq move`` and ``dsq engine`` (the former names of ``legal``,
    ``bestmove`` and ``serve``) print what the new names print."""
    stdin = "uci\nisready\nposition startpos moves a3a4\ngo depth 1\nquit\n"
    outs = []
    for command in (old, new):
        argv = shlex.split(command)[1:]
        code, out, err = in_process(argv, stdin if "--bot alphabeta" in command else "")
        assert code == 0, (command, err)
        check_output(argv, out, "")
        outs.append([x for x in out.splitlines() if not x.startswith("info ")])  # timings
    assert outs[0] == outs[1]
