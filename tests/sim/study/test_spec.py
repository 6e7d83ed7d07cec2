"""Reading study files: the cells a file describes, and one error naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.study.spec import StudyError, load_study
from tests.support.files import unreadable_files
from tests.support.procs import dsq_here

BASE = """
name = "t"
[rules]
base = "standard"
[rules.grid]
rule_17_5 = [true]
no_capture_plies = [50]
[ladder]
bots = ["random", "greedy"]
[games]
per_cell = 10
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_full_grid_cells(tmp_path: Path) -> None:
    s = load_study(write(tmp_path, BASE))
    rules = sorted({c.rules for c in s.cells})
    assert rules == sorted(
        ["standard", "standard+rule_17_5", "standard+no_capture_plies=50",
         "standard+rule_17_5+no_capture_plies=50"]
    )  # fmt: skip
    assert len(s.cells) == 8 and {c.pairing for c in s.cells} == {"random", "greedy"}


def test_designs(tmp_path: Path) -> None:
    one = load_study(
        write(
            tmp_path,
            BASE.replace('base = "standard"', 'base = "standard"\ndesign = "one_at_a_time"'),
        )
    )
    assert len({c.rules for c in one.cells}) == 3
    half = load_study(
        write(tmp_path, BASE.replace('base = "standard"', 'base = "standard"\ndesign = "half"'))
    )
    assert {c.rules for c in half.cells} == {"standard", "standard+rule_17_5+no_capture_plies=50"}


def test_mixed_pairings_and_quick(tmp_path: Path) -> None:
    text = BASE.replace("[ladder]", '[ladder]\npairings = "both"') + "[quick]\nper_cell = 4\n"
    s = load_study(write(tmp_path, text), quick=True)
    assert s.name == "t-quick" and s.games.per_cell == 4
    assert {c.pairing for c in s.cells} == {"random", "greedy", "random vs greedy"}


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (("per_cell = 10", "per_cel = 10"), "games.per_cel"),
        (('"greedy"]', '"grredy"]'), "ladder.bots[1]"),
        (("rule_17_5 = [true]", "rule_17_6 = [true]"), "rules.grid.rule_17_6"),
        (("no_capture_plies = [50]", "no_capture_plies = [-5]"), "rules.grid.no_capture_plies[0]"),
        (
            ("[rules.grid]\nrule_17_5 = [true]\nno_capture_plies = [50]", "[rules.grid]"),
            "rules.grid",
        ),
        (('name = "t"', 'name = "t"\ncolour = 1'), "colour"),
    ],
)
def test_bad_input_names_file_and_key(tmp_path: Path, edit: tuple[str, str], key: str) -> None:
    with pytest.raises(StudyError) as err:
        load_study(write(tmp_path, BASE.replace(*edit)))
    assert str(err.value).startswith(f"s.toml: {key}:")


def test_cli_error_is_one_line(tmp_path: Path) -> None:
    f = write(tmp_path, BASE.replace('"greedy"]', '"alphabeta:depth=30"]').replace("10", "100000"))
    r = dsq_here("study", "run", str(f), "--data", str(tmp_path / "d"))  # in this process
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "games.per_cell: cell" in r.stderr and "budget" in r.stderr


def test_a_study_file_that_is_special_huge_or_not_text_is_one_error(tmp_path: Path) -> None:
    """A device, a FIFO, a folder, a file over 1 MiB or bytes that are not UTF-8: one
    StudyError each, never a read that waits or fills memory."""
    cases = unreadable_files(tmp_path)
    for path, why in cases.items():
        with pytest.raises(StudyError, match=why):
            load_study(path)
