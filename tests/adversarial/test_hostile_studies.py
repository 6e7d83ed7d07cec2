"""Hostile study files against ``dsq study``: every one refused by its checked reader in
one line, exit 2, never a traceback, never memory grown before a size is checked, never a
foreign file's content shown.

The files are written by the tests: a study file with one hostile edit each (wrong types,
empty lists, sizes that multiply, opening suites that name other files). The damaged
records of a played study are in ``test_hostile_study_records.py``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.files import unreadable_files
from tests.support.procs import dsq_peak, in_process, one_line_error
from tests.support.study_files import BASE, RULES, edited

SECRET = "password=hunter2 topsecret"  # the first line of a foreign file
BOTS = 'bots = ["random", "greedy"]'
GAMES = "[games]\nper_cell = 2"
TARGET = "[games]\ntarget = 0.1\ncap = 100\nstep = 50"
FAMILIES = BASE.replace('[ladder]\nbots = ["random", "greedy"]\n', "") + (
    '[[families]]\nname = "f"\nrungs = ["random", "greedy"]\n'
)
GRID = '[rules]\nbase = "standard"\n[rules.grid]\nrule_17_5 = [true]'

# (case, study file text, extra arguments, words the error must hold)
STUDY_FILES: list[tuple[str, str, tuple[str, ...], str]] = [
    ("scheduler = 1", BASE + "[run]\nscheduler = 1\n", (), "run.scheduler"),
    ("scheduler a list", BASE + '[run]\nscheduler = ["h:1"]\n', (), "run.scheduler"),
    ("scheduler 0", BASE + "[run]\nscheduler = 0\n", (), "run.scheduler"),
    ("scheduler an empty list", BASE + "[run]\nscheduler = []\n", (), "run.scheduler"),
    ("workers text", BASE + '[run]\nworkers = "2"\n', (), "run.workers"),
    ("run a list", edited("seed = 3", "seed = 3\nrun = [1]"), (), "run: must be a table"),
    ("rules = 3", edited(RULES, "rules = 3"), (), "rules: must be a table"),
    ("rules.specs = 3", edited('specs = ["standard"]', "specs = 3"), (), "rules.specs"),
    ("empty rule list", edited('specs = ["standard"]', "specs = []"), (), "no rule set"),
    ("a rule set a number", edited('specs = ["standard"]', "specs = [3]"), (), "rules.specs[0]"),
    ("bots = 3", edited(BOTS, "bots = 3"), (), "ladder.bots"),
    ("empty bot list", edited(BOTS, "bots = []"), (), "ladder.bots"),
    ("a bot a number", edited(BOTS, "bots = [1]"), (), "ladder.bots[0]"),
    (
        "ladder a list",
        edited("seed = 3", "seed = 3\nladder = [1]").replace("[ladder]\n" + BOTS, ""),
        (),
        "ladder: must be",
    ),
    ("pairings a number", edited(BOTS, BOTS + "\npairings = 2"), (), "ladder.pairings"),
    ("name a number", edited('name = "h"', "name = 1"), (), "name"),
    ("title a table", edited('name = "h"', 'name = "h"\ntitle = {a = 1}'), (), "title: must be"),
    ("title a number", edited('name = "h"', 'name = "h"\ntitle = 3'), (), "title: must be"),
    ("title empty", edited('name = "h"', 'name = "h"\ntitle = ""'), (), "title: must be"),
    ("title a page", edited('name = "h"', f'name = "h"\ntitle = "{"t" * 201}"'), (), "title"),
    ("seed a fraction", edited("seed = 3", "seed = 1.5"), (), "seed"),
    ("seed too large", edited("seed = 3", "seed = 1099511627776"), (), "seed"),
    ("seed as text", edited("seed = 3", 'seed = "3"'), (), "seed"),
    ("ply_cap 0", edited("ply_cap = 200", "ply_cap = 0"), (), "ply_cap"),
    (
        "opening plies at the cap",
        edited("ply_cap = 200", "ply_cap = 5\nopening_plies = 5"),
        (),
        "opening_plies",
    ),
    (
        "games a number",
        edited("seed = 3", "seed = 3\ngames = 3").replace(GAMES, ""),
        (),
        "games: must be a table",
    ),
    ("per_cell as text", edited("per_cell = 2", 'per_cell = "2"'), (), "games.per_cell"),
    ("target as text", edited(GAMES, TARGET.replace("0.1", '"x"')), (), "games.target"),
    ("step 0", edited(GAMES, TARGET.replace("step = 50", "step = 0")), (), "games.step"),
    ("cap below step", edited(GAMES, TARGET.replace("cap = 100", "cap = 10")), (), "games.step"),
    (
        "grid values not a list",
        edited(RULES, GRID.replace("[true]", "true")),
        (),
        "rules.grid.rule_17_5",
    ),
    ("grid values empty", edited(RULES, GRID.replace("[true]", "[]")), (), "rules.grid.rule_17_5"),
    (
        "grid without a base",
        edited(RULES, GRID.replace('base = "standard"\n', "")),
        (),
        "rules.base",
    ),
    ("grid a list", edited(RULES, '[rules]\nbase = "standard"\ngrid = [1]'), (), "rules.grid"),
    (
        "design unknown",
        edited(RULES, GRID.replace("[rules.grid]", 'design = "x"\n[rules.grid]')),
        (),
        "rules.design",
    ),
    (
        "half with three levels",
        edited(
            RULES,
            '[rules]\nbase = "standard"\ndesign = "half"\n'
            '[rules.grid]\nlion_jump = ["horizontal", "none"]',
        ),
        (),
        "'half' needs",
    ),
    (
        "interactions as text",
        edited(RULES, RULES + '\ninteractions = "yes"'),
        (),
        "rules.interactions",
    ),
    ("quick rules = 3", BASE + "[quick]\nper_cell = 2\nrules = 3\n", ("--quick",), "quick.rules"),
    ("quick bots = 3", BASE + "[quick]\nper_cell = 2\nbots = 3\n", ("--quick",), "ladder.bots"),
    (
        "quick keeps no rule set",
        BASE + '[quick]\nper_cell = 2\nrules = ["datou"]\n',
        ("--quick",),
        "quick.rules",
    ),
    ("quick without per_cell", BASE + "[quick]\n", ("--quick",), "quick.per_cell"),
    ("families = 3", FAMILIES.replace("[[families]]", "families = 3\n[x]"), (), "families"),
    (
        "family rungs = 3",
        FAMILIES.replace('rungs = ["random", "greedy"]', "rungs = 3"),
        (),
        "families[0].rungs",
    ),
    ("family pairings unknown", FAMILIES + 'pairings = "x"\n', (), "families[0].pairings"),
    ("axes seeds as text", FAMILIES + '[axes]\nseeds = ["a"]\n', (), "axes.seeds[0]"),
    ("axes seed negative", FAMILIES + "[axes]\nseeds = [-1]\n", (), "axes.seeds[0]"),
    (
        "axes protocol garbage",
        FAMILIES + '[axes]\nopenings = ["random:x"]\n',
        (),
        "axes.openings[0]",
    ),
    ("block rules = 3", FAMILIES + "[[block]]\nrules = 3\n", (), "block[0].rules"),
    ("block rung out of range", FAMILIES + "[[block]]\nrungs = [99]\n", (), "block[0].rungs[0]"),
    ("block per_cell as text", FAMILIES + '[[block]]\nper_cell = "9"\n', (), "block[0].per_cell"),
    (
        "blocks of too many cells",
        FAMILIES
        + "[axes]\nseeds = ["
        + ", ".join(map(str, range(150)))
        + "]\nopenings = ["
        + ", ".join(f'"random:{k}"' for k in range(150))
        + "]\n[[block]]\nseeds = ["
        + ", ".join(map(str, range(150)))
        + "]\nopenings = ["
        + ", ".join(f'"random:{k}"' for k in range(150))
        + "]\n",
        (),
        "would make 45,000 cells",
    ),
    ("evals a number", BASE + "[evals]\nstandard = 3\n", (), "evals.standard"),
    ("openings a number", edited("seed = 3", "seed = 3\nopenings = 3"), (), "openings"),
    (
        "openings_order unknown",
        edited("seed = 3", 'seed = 3\nopenings = "o.txt"\nopenings_order = "x"'),
        (),
        "openings_order",
    ),
]


@pytest.mark.parametrize(
    ("text", "extra", "words"),
    [pytest.param(t, e, w, id=case) for case, t, e, w in STUDY_FILES],
)
def test_a_hostile_study_file_is_one_line(
    tmp_path: Path, text: str, extra: tuple[str, ...], words: str
) -> None:
    f = tmp_path / "s.toml"
    f.write_text(text, encoding="utf-8")
    (tmp_path / "o.txt").write_text("startpos\n", encoding="utf-8")
    for command in ("plan", "run"):
        args = ["study", command, str(f), *extra, "--data", str(tmp_path / "d")]
        if command == "plan":
            args += ["--calibrate", "0"]
        code, out, err = in_process(args)
        assert code == 2 and out == "", (code, err)
        (line,) = err.strip().splitlines()
        assert line.startswith(f"dsq study {command}: error: s.toml: ") and words in line, line


def test_a_grid_of_27_million_cells_is_refused_before_any_is_built(tmp_path: Path) -> None:
    """A 3.4 KB file whose grid makes 27 M rule sets: refused with the number of cells, its
    memory that of reading the file (under a 1.5 GB cap it once grew to gigabytes)."""
    values = ", ".join(str(v) for v in range(1, 301))
    f = tmp_path / "grid.toml"
    f.write_text(
        f'name = "g"\n[rules]\nbase = "standard"\n[rules.grid]\nno_capture_plies = [{values}]\n'
        f'move_time = [{values}]\ngame_time = [{values}]\n[ladder]\nbots = ["random"]\n'
        "[games]\nper_cell = 2\n",
        encoding="utf-8",
    )
    assert f.stat().st_size < 5000
    res, peak = dsq_peak("study", "run", str(f), "--data", str(tmp_path / "d"),
                         address_space=3 << 29, timeout=120)  # fmt: skip
    line = one_line_error(res, "study run")
    assert "rules.grid: would make 27,180,300 cells, more than the 20,000" in line
    assert peak < 400, peak
    assert not (tmp_path / "d" / "studies").exists()


def _foreign(tmp_path: Path) -> dict[str, str | None]:
    """Files a study's ``openings`` may name that are not opening suites, with the words
    the error must hold (None: any), and never their content."""
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\nsecond line\n", encoding="utf-8")
    board_like = tmp_path / "board.txt"
    board_like.write_text("7/7/7 " + SECRET + " x\n", encoding="utf-8")
    start = "L5T/1D3C1/R1P1W1E/7/7/7/e1w1p1r/1c3d1/t5l"  # a board that parses
    suite_like = {  # lines that begin as a suite's would, with the secret where a field is
        "moves.txt": (f"startpos {SECRET}", "move 1: not a move"),
        "second_move.txt": (f"startpos a3a4 {SECRET}", "move 2: not a move"),
        "side.txt": (f"{start} {SECRET} 0 1", "bad FEN: after the board come"),
        "clock.txt": (f"{start} r {SECRET}", "bad FEN: after the board come"),
        "tail.txt": (f"{start} r 0 1 {SECRET}", "only 'moves' and moves"),
        "fen_moves.txt": (f"{start} r 0 1 moves {SECRET}", "move 1: not a move"),
    }
    for name, (line, _) in suite_like.items():
        (tmp_path / name).write_text(line + "\n", encoding="utf-8")
    cases: dict[str, str | None] = {
        str(tmp_path / name): words for name, (_, words) in suite_like.items()
    }
    cases |= {
        str(secret): "not a position",
        str(board_like): "bad FEN",
        "/etc/passwd": "not a position",
        "/proc/self/environ": "not a regular file",
        "/proc/self/status": "not a regular file",
        "/sys/kernel/mm/transparent_hugepage/enabled": "not a regular file",
        "/dev/null": "not a regular file",
    }
    cases.update(unreadable_files(tmp_path / "un"))
    if os.path.exists("/etc/shadow"):
        cases["/etc/shadow"] = None  # not a position (as root), or cannot be read
    return cases


def test_openings_naming_another_file_never_show_its_content(tmp_path: Path) -> None:
    """``openings`` naming a secret, /etc/passwd, /etc/shadow, /proc/self/environ, a
    device, a FIFO, a folder, a huge or binary file: one line each, which names the file
    but shows none of its content."""
    (tmp_path / "un").mkdir()
    cases = _foreign(tmp_path)
    firsts = {}
    for path in cases:
        try:  # never waiting on the FIFO
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                head = os.read(fd, 200)
            finally:
                os.close(fd)
        except OSError:
            head = b""
        firsts[path] = head.split(b"\n")[0].split(b"\x00")[0].decode("latin-1")
    for path, words in cases.items():
        f = tmp_path / "s.toml"
        f.write_text(edited("seed = 3", f"seed = 3\nopenings = {json.dumps(path)}"))
        code, _, err = in_process(["study", "run", str(f), "--data", str(tmp_path / "d")])
        assert code == 2, (path, err)
        (line,) = err.strip().splitlines()
        assert line.startswith("dsq study run: error: s.toml: openings: "), line
        assert words is None or words in line, (path, line)
        for part in (SECRET, "hunter2", firsts[path][:12]):
            if len(part) >= 6 and part not in path:
                assert part not in line, (path, line)


def test_a_suite_checked_under_too_many_rule_sets_is_refused_before_it_is_read(
    tmp_path: Path,
) -> None:
    """10,000 suite lines under 22 rule sets: 220,000 checks, refused with their number."""
    (tmp_path / "o.txt").write_text("startpos\n" * 10_000)
    values = ", ".join(str(v) for v in range(10, 230, 10))  # 200 is the base: 22 rule sets
    text = edited(RULES, f'[rules]\nbase = "standard"\ndesign = "one_at_a_time"\n'
                  f"[rules.grid]\nno_capture_plies = [{values}]")  # fmt: skip
    f = tmp_path / "s.toml"
    f.write_text(text.replace("seed = 3", 'seed = 3\nopenings = "o.txt"'))
    code, _, err = in_process(["study", "run", str(f), "--data", str(tmp_path / "d")])
    assert code == 2 and "220,000 checks, more than 200,000" in err, err


def test_the_suites_of_all_protocols_are_counted_together(tmp_path: Path) -> None:
    """Protocols naming suites: each file is read and checked once however many protocols
    name it, and the checks of all the suites together stay within 200,000 (199 protocols
    naming one suite of 9,000 lines under 22 rule sets once parsed it 199 times, hours of
    work from a 5 KB file). A second suite that takes the total over is refused before it
    is parsed."""
    from sim.study.suite import SuiteChecks, read_openings

    (tmp_path / "a.txt").write_text("startpos\n" * 100)
    (tmp_path / "b.txt").write_text("startpos\n" * 9_000)
    values = ", ".join(str(v) for v in range(10, 230, 10))  # 200 is the base: 22 rule sets
    f = tmp_path / "s.toml"
    f.write_text(FAMILIES.replace(RULES, f'[rules]\nbase = "standard"\ndesign = '
                                  f'"one_at_a_time"\n[rules.grid]\nno_capture_plies = [{values}]')
                 + '[axes]\nopenings = ["suite:a.txt", "suite:a.txt+random:2", '
                 '"suite:b.txt"]\n')  # fmt: skip
    code, _, err = in_process(["study", "plan", str(f), "--data", str(tmp_path / "d")])
    assert code == 2 and err.count("\n") == 1, err
    assert (
        "b.txt: 9,000 lines checked under 22 rule sets: 200,200 checks (2,200 of the "
        "suites before), more than 200,000" in err
    ), err
    seen = SuiteChecks()
    for plies in (0, 2, 5):
        text, _ = read_openings(str(f), {"openings": "a.txt"}, ["standard", "datou"], plies,
                                200, seen)  # fmt: skip
        assert text.count("\n") == 100
    assert seen.checks == 200 and list(seen.read) == [str(tmp_path / "a.txt")]
