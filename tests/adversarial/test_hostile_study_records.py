"""Damaged study records against ``dsq study``: the record ``DATA/studies/NAME.json`` of a
study really played, damaged one field at a time (or made a link, huge, not JSON), is
refused by its checked reader in one line, exit 2, never a traceback; the intact record,
and a record of the most cells a study may have, read back."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.files import with_field
from tests.support.procs import in_process
from tests.support.study_files import BASE, RULES, edited


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A study of two cells really played (2 games each): its file and its data folder."""
    root = tmp_path_factory.mktemp("played")
    f = root / "h.toml"
    f.write_text(BASE, encoding="utf-8")
    code, _, err = in_process(["study", "run", str(f), "--data", str(root / "d"), "--quiet"])
    assert code == 0, err
    return f, root / "d"


INF = float("inf")
# (case, field of the record, its new value, the words the error must hold)
RECORDS: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("the record a list", (), [], "the record: must be an object, not a list"),
    ("the record an int", (), 3, "the record: must be an object"),
    ("the plan a list", ("plan",), [], "plan: must be an object"),
    ("the plan missing", ("plan",), None, "plan: must be an object, not null"),
    ("plan cells an int", ("plan", "cells"), 3, "plan.cells: must be a list"),
    ("plan cell a number", ("plan", "cells", 0), 1.5, "plan.cells[0]: must be a list"),
    ("plan cell of objects", ("plan", "cells", 0), [{}], "plan.cells[0][0]"),
    ("plan seed infinite", ("plan", "seed"), INF, "plan.seed: must be a whole number"),
    ("plan seed as text", ("plan", "seed"), "3", "plan.seed"),
    ("plan games as text", ("plan", "games"), "x", "plan.games: must be an object"),
    ("plan pins a list", ("plan", "pins"), [], "plan.pins"),
    ("plan unknown key", ("plan", "extra"), 1, "plan.extra: unknown key"),
    ("the study missing", ("study",), None, "study: must be an object"),
    ("study cells an int", ("study", "cells"), 3, "study.cells: must be a list"),
    ("study cells empty", ("study", "cells"), [], "study.cells: no cell"),
    ("cell index as text", ("study", "cells", 0, "index"), "0", "study.cells[0].index"),
    ("cell index another", ("study", "cells", 1, "index"), 7, "study.cells[1].index"),
    ("cell rules a number", ("study", "cells", 0, "rules"), 3, "study.cells[0].rules"),
    ("cell seed set out of range", ("study", "cells", 0, "seed_set"), 5, "seed_set"),
    ("cell per_cell 1", ("study", "cells", 0, "per_cell"), 1, "study.cells[0].per_cell"),
    ("cell opening unknown", ("study", "cells", 0, "opening"), "random:3", "opening"),
    ("cell options a list", ("study", "cells", 0, "options"), [], "study.cells[0].options"),
    (
        "games target as text",
        ("study", "games"),
        {"target": "x", "cap": 100, "step": 50},
        "study.games.target",
    ),
    (
        "games step 0",
        ("study", "games"),
        {"target": 0.1, "cap": 100, "step": 0},
        "study.games.step",
    ),
    ("games per_cell negative", ("study", "games", "per_cell"), -2, "study.games.per_cell"),
    ("games empty", ("study", "games"), {}, "study.games: gives neither"),
    ("bots empty", ("study", "bots"), [], "study.bots: no bot"),
    ("bots an int", ("study", "bots"), 3, "study.bots: must be a list"),
    ("pairings unknown", ("study", "pairings"), "x", "study.pairings"),
    ("ply_cap 0", ("study", "ply_cap"), 0, "study.ply_cap"),
    ("families an int", ("study", "families"), 3, "study.families"),
    (
        "protocol plies negative",
        ("study", "protocols"),
        [{"label": "random:1", "plies": -1}],
        "study.protocols[0].plies",
    ),
    ("grid an int", ("study", "grid"), 3, "study.grid"),
    ("pins of numbers", ("study", "pins"), {"a": 1}, "study.pins.a"),
    ("name a number", ("study", "name"), 3, "study.name"),
]


def _damage(data: Path, tmp_path: Path, field: tuple[Any, ...], value: Any) -> Path:
    """A copy of the played data folder whose study record has ``field`` set to ``value``."""
    d = tmp_path / "d"
    shutil.copytree(data, d)
    record = d / "studies" / "h.json"
    doc = with_field(json.loads(record.read_text()), field, value)
    record.write_text(json.dumps(doc))  # Infinity as JSON writes it
    return d


@pytest.mark.parametrize(
    ("field", "value", "words"), [pytest.param(f, v, w, id=c) for c, f, v, w in RECORDS]
)
def test_a_damaged_study_record_is_one_line(
    played: tuple[Path, Path], tmp_path: Path, field: tuple[Any, ...], value: Any, words: str
) -> None:
    """``dsq study run FILE`` (which compares the recorded plan) and ``dsq study report
    NAME`` (which reads the recorded study): one line naming the record and the field."""
    f, data = played
    d = _damage(data, tmp_path, field, value)
    for command, arg in (("run", str(f)), ("report", "h")):
        quiet = ["--quiet"] if command == "run" else []
        code, out, err = in_process(["study", command, arg, "--data", str(d), *quiet])
        assert code == 2 and out == "", (command, code, err)
        (line,) = err.strip().splitlines()
        assert line.startswith(f"dsq study {command}: error: {d / 'studies' / 'h.json'}: "
                               "unreadable study record: "), line  # fmt: skip
        assert words in line, line


def test_a_record_that_is_a_link_huge_or_not_json_is_one_line(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    f, data = played
    d = _damage(data, tmp_path, ("plan", "seed"), 3)
    record = d / "studies" / "h.json"
    for make, words in (
        (lambda: record.write_text("{"), "Expecting"),
        (lambda: os.symlink("/dev/zero", record), "Too many levels of symbolic links"),
        (lambda: record.write_bytes(b"\0" * (50 << 20)), "larger than"),
    ):
        record.unlink()
        make()
        code, _, err = in_process(["study", "report", "h", "--data", str(d)])
        assert code == 2 and words in err and err.count("\n") == 1, err


def test_the_intact_record_still_reads_and_a_changed_file_still_names_the_cells(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    """The reader refuses damage, not a study: the record as written reads back, and a
    study whose cells changed is refused naming them (cells of an axes study hold numbers)."""
    f, data = played
    code, out, err = in_process(["study", "report", "h", "--data", str(data)])
    assert code == 0 and "h" in out, err
    d = _damage(data, tmp_path, ("plan", "cells", 0), ["standard", "random", "random", "", "",
                                                        1])  # fmt: skip
    code, _, err = in_process(["study", "run", str(f), "--data", str(d), "--quiet"])
    assert code == 2 and "changed: cells removed: standard random random 1 added:" in err, err


def test_a_study_of_the_most_cells_records_and_reads_its_record_back(tmp_path: Path) -> None:
    """A grid of 10,000 rule sets and two rungs: 20,000 cells, the most a study may have.
    Its record (about 9 MB) is written and read back in full: the reader's bound follows
    from the limit on cells (a 4 MiB bound once made such a study impossible to resume)."""
    from sim.study.record import MAX_RECORD_BYTES, read_study_record
    from sim.study.run import register_study, study_path
    from sim.study.spec import load_study

    plies = ", ".join(str(v) for v in range(10, 1010, 10) if v != 200)  # 99 besides the base
    seconds = ", ".join(str(v) for v in range(1, 100))
    f = tmp_path / "big.toml"
    f.write_text(edited(RULES, f'[rules]\nbase = "standard"\n[rules.grid]\nno_capture_plies = '
                        f"[{plies}]\nmove_time = [{seconds}]"))  # fmt: skip
    study = load_study(f)
    assert len(study.cells) == 20_000
    register_study(tmp_path / "d", study)
    path = study_path(tmp_path / "d", "h")
    assert 4 << 20 < path.stat().st_size < MAX_RECORD_BYTES
    assert len(read_study_record(path).study.cells) == 20_000
    register_study(tmp_path / "d", study)  # the same plan: accepted again
