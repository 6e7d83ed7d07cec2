"""Every shell example of the README and of ``docs/*.md`` runs as a person types it, from
the project folder without ``$DSQ_DATA``: the shell (bash) expands its words, ``~`` being a
temporary home whose ``~/dsq-data`` is a copy of the bundled sample, and ``dsq`` runs them
in this process (the process boundary is tested elsewhere), one document's examples in
order. Each exits 0 and prints what the document says it prints (exit code 0 and the
output's shape: a count, JSON, a table, a move...), the numbers given in its comments
included; after each one the project's ``data/`` is as git has it.

An example that would play long writes its count as ``${GAMES:-N}`` (N games unless the
shell variable ``GAMES`` says otherwise, as docs/layout.md says): here ``GAMES`` is
:data:`GAMES`. A few examples need what a test machine does not have, or run for hours:
:data:`NOT_RUN` lists each with where it is tested.
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
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
GAMES = "4"  # what ${GAMES:-N} plays here

# Examples not run here, with why and where they are tested. Every key must be in a document.
EXTERNAL = "an external engine (jungine) the tests do not have: tests/sim/external/ play and "
EXTERNAL += "check dsq serve and misbehaving engines through the same commands"
NOT_RUN: dict[str, str] = {
    "pip install -e .": "installs the project",
    'pip install -q -e ".[test]"': "installs the project",
    "bash tests/ensure-chromium.sh": "installs Chromium",
    "python -m pytest": "the suite itself",
    "dsq dashboard": "a server that runs until stopped: tests/sim/commands/"
    "test_dashboard_command.py and the browser tests run it",
    "dsq dashboard --data ~/dsq-data": "as dsq dashboard",
    "dsq dashboard --data ~/dsq-data --host 0.0.0.0 --no-browser": "as dsq dashboard; "
    "tests/e2e/test_dashboard_access.py runs it beyond loopback with its token",
    "dask scheduler --host 127.0.0.1 --port 8786 --dashboard-address 127.0.0.1:8787 &": "a "
    "Dask cluster: tests/adversarial/test_workers.py starts these very lines",
    "PYTHONPATH=$PWD dask worker tcp://127.0.0.1:8786 --host 127.0.0.1 --dashboard-address "
    "127.0.0.1:0 --nthreads 1 --nworkers 2 &": "as dask scheduler",
    "dsq simulate --rules datou --red random --blue random --games 100000 --scheduler "
    "tcp://127.0.0.1:8786 --data ~/dsq-data": "needs the Dask cluster: tests/sim/batch/"
    "test_simulate.py runs dsq simulate --scheduler on a real local cluster",
    "dsq engines check jungine --rules standard --data ~/dsq-data": EXTERNAL,
    "dsq simulate --rules standard+trapped_can_capture --red alphabeta:depth=60,time_ms=50 "
    "--blue engine:jungine,movetime=50 --games 100 --swap --opening-plies 4 --workers 2 "
    "--data ~/dsq-data": EXTERNAL,
    "dsq engines check jungine --data ~/dsq-data": EXTERNAL,
    "dsq bestmove --bot engine:jungine,depth=8 --json --data ~/dsq-data --fen "
    '"1l3t1/2pc3/2dw2e/7/r6/3W3/EC3PR/7/T3D1L r 20 11"': EXTERNAL,
    "dsq play --red human --blue engine:jungine,tc=5+0.1 --data ~/dsq-data": EXTERNAL,
    # Perft 6 and 7 and 60,000 random games after a 20 s warm-up measurement:
    # tests/sim/bench/test_figures.py runs dsq bench smaller.
    "dsq bench": "a minute of measurements: tests/sim/bench/test_figures.py runs it smaller",
    # The atlas: tens of thousands of games on a cluster, or hours on two cores.
    "dsq study plan docs/studies/atlas.toml --data ~/dsq-data": "reads the atlas's games "
    "(hours to play): tests/sim/study/test_study_plan.py plans studies",
    "dsq study run docs/studies/atlas.toml --data ~/dsq-data --scheduler tcp://HOST:8786": "a "
    "cluster and hours of games",
    "dsq study report docs/studies/atlas.toml --data ~/dsq-data --markdown": "the atlas's games",
    "dsq study run docs/studies/atlas-local.toml --data ~/dsq-data --workers 2": "hours of games",
    "dsq study report docs/studies/atlas-local.toml --data ~/dsq-data --markdown": "as above",
    # The presets study: 2,100 games of depth-4 alpha-beta (about half an hour on 2 cores).
    "python benchmarks/study_presets.py --data /tmp/dsq-study/data --workers 2": "half an hour "
    "of games: tests/test_study_presets.py checks the page against its data",
    "for seed in 101 102 103 104 105 106 107; do": "as the presets study",
    "dsq stats --data /tmp/dsq-study/data --by rules --compare standard,yeshou,datou": "the "
    "presets study's games",
}
STDIN = {
    "dsq play --red human --blue mcts:playouts=2000 --rules yeshou": "moves\nquit\n",
    "dsq play --red human --blue alphabeta:depth=3": "moves\nquit\n",
    "dsq serve --bot alphabeta:depth=6 --rules datou": "uci\nisready\nposition startpos "
    "moves a3a4\ngo depth 2\nquit\n",
}
MOVE = re.compile(r"[a-g][1-9][a-g][1-9]")
REDIRECT = re.compile(r"\s+([<>])\s*(\S+)$")


def examples(path: Path) -> list[tuple[str, str]]:
    """``(command, comment)`` of every command line in the ``sh`` blocks of ``path``, with
    continuation lines joined, the trailing ``# comment`` split off and ``a && b`` split; a
    ``for ... done`` loop is one command, named by its first line."""
    text = path.read_text(encoding="utf-8")
    out: list[tuple[str, str]] = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        joined = re.sub(r"\\\n\s*", "", block)
        loop = False
        for line in joined.splitlines():
            command, _, comment = line.partition(" # ")
            if loop:
                loop = command.strip() != "done"
                continue
            if command.strip().startswith("for "):
                loop = True
                out.append((command.strip(), ""))
                continue
            for part in command.split("&&"):
                if part.strip():
                    out.append((" ".join(part.split()), comment.strip()))
    return out


EXAMPLES = {path.relative_to(ROOT).as_posix(): examples(path) for path in DOCS}
EXAMPLES = {doc: found for doc, found in EXAMPLES.items() if found}


def test_the_examples_are_real_commands() -> None:
    """Every example is a command: no placeholder but the ``BATCH_ID`` of a resume, every
    file it names exists, and each one not run here is still in its document."""
    commands = [c for found in EXAMPLES.values() for c, _ in found]
    assert len(EXAMPLES["README.md"]) >= 20 and len(EXAMPLES) >= 8
    for key in NOT_RUN:
        assert key in commands, f"NOT_RUN names a command no document has: {key}"
    for c in commands:
        assert '"..."' not in c and " ... " not in c, f"a placeholder in an example: {c}"
        assert c in NOT_RUN or c.startswith("dsq "), f"neither dsq nor listed in NOT_RUN: {c}"
        for word in shlex.split(REDIRECT.sub("", c)) if c.startswith("dsq ") else []:
            if word.startswith("docs/"):
                assert (ROOT / word).is_file(), word


# The compiled kernels stay in this machine's cache (engine.jit): the temporary home stands
# in for the person's data folder, not for a machine that never compiled them (else the
# examples, and the pool workers they start, would compile every kernel again).
CACHE_HOME = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")


def new_home(parent: Path) -> Path:
    """A home folder whose ``~/dsq-data`` is a copy of the bundled sample, so that every
    example that names it finds batches, games and rules to work on."""
    home = parent / "home"
    shutil.copytree(
        ROOT / "data", home / "dsq-data", ignore=shutil.ignore_patterns(".dashboard", ".lock")
    )
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


def shell_words(commands: list[str], env: dict[str, str]) -> list[list[str]]:
    """Each command's words as bash expands them (quotes, ``~``, ``${GAMES:-N}``), in one
    bash process for them all; nothing is run but ``printf``."""
    script = "".join(f"printf '%s\\0' {c}; printf '\\1\\0'\n" for c in commands)
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    words: list[list[str]] = [[]]
    for word in done.stdout.split("\0")[:-1]:
        if word == "\1":
            words.append([])
        else:
            words[-1].append(word)
    assert len(words) == len(commands) + 1, done.stderr
    return words[:-1]


@pytest.mark.parametrize("doc", list(EXAMPLES))
def test_the_examples_of_a_document_run(
    doc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The document's examples, in order, in a fresh home: each exits 0 with its output."""
    home = new_home(tmp_path)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "GAMES": GAMES}
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", CACHE_HOME)
    monkeypatch.delenv("DSQ_DATA", raising=False)
    monkeypatch.delenv("DSQ_ENGINES", raising=False)
    run = [(c, comment) for c, comment in EXAMPLES[doc] if c not in NOT_RUN]
    redirects = [REDIRECT.search(c) for c, _ in run]
    texts = [REDIRECT.sub("", c) for c, _ in run]
    data = home / "dsq-data"
    before = sample_status()
    for (command, comment), words, redirect in zip(
        run, shell_words(texts, env), redirects, strict=True
    ):
        stdin = STDIN.get(command, "")
        if redirect and redirect.group(1) == "<":
            stdin = Path(shell_words([redirect.group(2)], env)[0][0]).read_text("utf-8")
        if "BATCH_ID" in words:  # the one placeholder: a batch of the data folder
            words[words.index("BATCH_ID")] = list_batches(data)[0]["batch_id"]
        code, out, err = in_process(words[1:], stdin)
        assert code == 0, (command, err)
        assert "Traceback" not in err
        if redirect and redirect.group(1) == ">":
            target = shell_words([redirect.group(2)], env)[0][0]
            Path(target).write_text(out, encoding="utf-8")
            out = Path(target).read_text(encoding="utf-8")
        check_output(words[1:], out, comment)
        assert sample_status() == before, f"{command} changed the bundled sample data/"


def check_output(argv: list[str], out: str, comment: str) -> None:
    """The output has the shape the document describes for this command."""
    name, lines = argv[0], out.strip().splitlines()
    if argv[:2] == ["openings", "build"]:  # to the --output file, a summary on stderr
        output = Path(argv[argv.index("--output") + 1])
        assert re.search(r"^startpos ", output.read_text(encoding="utf-8"), re.M)
        return
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
        assert all(spec in out for spec in argv[1:]) and "yeshou" in (
            out if len(argv) == 1 else "yeshou"
        )
    elif name == "openings":
        assert re.search(r"\b\d+ positions?\b", out)
    elif name == "games":
        if argv[1] == "import":
            assert out.startswith("imported ")
        elif "--format" in argv and argv[argv.index("--format") + 1] == "jsonl":
            assert all(json.loads(x)["batch_id"] for x in lines)
        elif "--format" in argv:
            assert lines[0].startswith("schema_version,batch_id,") and len(lines) > 1
        else:
            assert out.startswith("[") and "1." in out
    elif name == "tune":
        assert out.startswith("evaluation ") and "held-out loss" in out
    elif name in ("serve", "engine"):
        assert "uciok" in lines and lines[-1].startswith("bestmove ")
        assert MOVE.fullmatch(lines[-1].split()[1])
    elif name == "study":
        assert ("games played in" in out) if argv[1] == "run" else out.startswith("study ")
    elif name == "tournament":
        if "--json" in argv:
            assert json.loads(out)["complete"] is True
        elif "--list" in argv:
            assert lines[0].split() == ["ID", "FORMAT", "PLAYERS", "GAMES", "STATUS"]
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
