"""Study files with robustness axes: families, opening protocols, seed sets and blocks make
the cells they say; the same seeds across rule sets; bots pinned in the plan, a changed
pin refused and continued with --recorded-bots; bad axes are one error naming the key."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.errors import DsqError
from sim.bots.pinning import pin_bot
from sim.study.run import run_study, study_path
from sim.study.spec import load_study
from tests.support.procs import dsq_here

AXES = """
name = "axes"
seed = 5
ply_cap = 200
[rules]
specs = ["standard", "datou"]
[[families]]
name = "simple"
rungs = ["random", "greedy"]
[[families]]
name = "ab"
rungs = ["alphabeta:depth=1", "alphabeta:depth=2,eval=classic"]
[axes]
openings = ["random:4", "random:8"]
seeds = [5, 99]
[[block]]
seeds = [0, 1]
per_cell = 6
[[block]]
rules = ["standard"]
families = ["simple"]
rungs = [-1]
openings = ["random:8"]
[games]
per_cell = 4
"""


def _write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def test_blocks_make_the_cells_they_name(tmp_path: Path) -> None:
    st = load_study(_write(tmp_path, AXES))
    # block 0: 2 rules x 4 rungs x 1 opening (the first) x 2 seed sets; block 1: 1 cell
    assert len(st.cells) == 2 * 4 * 2 + 1
    last = st.cells[-1]
    assert (last.rules, last.family, last.red, last.opening, last.seed_set) == (
        "standard", "simple", "greedy", "random:8", 0)  # fmt: skip
    assert st.games_for(st.cells[0]).most() == 6 and st.games_for(last).most() == 4
    assert {c.opening for c in st.cells[:-1]} == {"random:4"}
    assert st.protocol(last).plies == 8 and st.protocol(st.cells[0]).plies == 4


def test_rule_sets_share_seeds_and_seed_sets_differ(tmp_path: Path) -> None:
    st = load_study(_write(tmp_path, AXES))
    key = {(c.rules, c.family, c.rung, c.seed_set): c for c in st.cells if c.opening == "random:4"}
    a = key[("standard", "ab", 1, 0)]
    b = key[("datou", "ab", 1, 0)]
    c = key[("standard", "ab", 1, 1)]
    assert st.batch_seed(a, 0) == st.batch_seed(b, 0)
    assert st.batch_seed(a, 0) != st.batch_seed(c, 0)


def test_the_plan_pins_every_bot_by_content(tmp_path: Path) -> None:
    st = load_study(_write(tmp_path, AXES))
    cell = next(c for c in st.cells if c.rules == "datou" and c.red.startswith("alphabeta:depth=1"))
    red, blue = st.pinned(cell)
    assert red == pin_bot(cell.red, "datou") and "eval=datou@" in red
    spec = st.batch_spec(cell, 0)
    assert spec.red == red and spec.opening_plies == 4 and spec.games == 6
    assert all("eval=auto" not in v for v in st.plan()["pins"].values())


def test_the_evals_table_says_what_auto_stands_for(tmp_path: Path) -> None:
    today = pin_bot("alphabeta:depth=1", "standard").split("eval=")[1]
    text = AXES + f'[evals]\nstandard = "{today}"\n'
    st = load_study(_write(tmp_path, text))
    cell = next(c for c in st.cells if c.rules == "standard" and "depth=1" in c.red)
    assert st.pinned(cell)[0].endswith(f"eval={today}")
    bad = AXES + '[evals]\nstandard = "standard@000000000000"\n'
    with pytest.raises(DsqError, match="standard@000000000000"):
        load_study(_write(tmp_path, bad, "bad.toml"))


def test_a_changed_pin_is_refused_then_continued_when_asked(tmp_path: Path) -> None:
    text = """
name = "pins"
seed = 1
ply_cap = 60
[rules]
specs = ["standard"]
[ladder]
bots = ["alphabeta:depth=1"]
[games]
per_cell = 2
"""
    f = _write(tmp_path, text)
    data = tmp_path / "data"
    run_study(load_study(f), data, stream=io.StringIO(), quiet=True)
    record = study_path(data, "pins")
    doc = json.loads(record.read_text())
    key = next(iter(doc["plan"]["pins"]))
    doc["plan"]["pins"][key] = doc["plan"]["pins"][key].replace("eval=standard@", "eval=old@")
    record.write_text(json.dumps(doc))
    with pytest.raises(DsqError, match="--recorded-bots") as exc:
        run_study(load_study(f), data, stream=io.StringIO(), quiet=True)
    assert "pins." in str(exc.value) and "eval=old@" in str(exc.value)
    # a study recorded before bots were pinned compares as it did then
    doc["plan"].pop("pins")
    record.write_text(json.dumps(doc))
    out = run_study(load_study(f), data, stream=io.StringIO(), quiet=True)
    assert out["games"] == 0


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        ('[[families]]\nname = "x"\nrungs = []\n', "families[0].rungs"),
        ('[[families]]\nname = "x"\nrungs = [3]\n', "families[0].rungs[0]"),
        ('[axes]\nopenings = ["wild:3"]\n', "axes.openings[0]"),
        ('[axes]\nseeds = ["a"]\n', "axes.seeds[0]"),
        ("[[block]]\nseeds = [4]\n", "block[0].seeds[0]"),
        ('[[block]]\nfamilies = ["nope"]\n', "block[0].families[0]"),
        ('[[block]]\nrules = ["yeshou"]\n', "block[0].rules[0]"),
        ("[[block]]\nrungs = [7]\n", "block[0].rungs[0]"),
        ('[[block]]\nper_cell = "many"\n', "block[0].per_cell"),
        ("[run]\nscheduler = 1\n", "run.scheduler"),
    ],
)
def test_bad_axes_name_the_key(tmp_path: Path, edit: str, key: str) -> None:
    base = 'name = "b"\n[rules]\nspecs = ["standard"]\n[games]\nper_cell = 2\n'
    if not edit.startswith("[[families]]"):
        base += '[ladder]\nbots = ["random"]\n'
    with pytest.raises(DsqError, match="s.toml: " + re.escape(key)):
        load_study(_write(tmp_path, base + edit))


def test_too_many_cells_are_refused_before_any_is_built(tmp_path: Path) -> None:
    seeds = ", ".join(str(i) for i in range(200))
    rungs = ", ".join(f'"alphabeta:depth={d}"' for d in range(1, 61))
    text = f"""
name = "huge"
[rules]
base = "standard"
design = "full"
[rules.grid]
no_capture_plies = [10, 20, 30]
lion_jump = ["none", "horizontal"]
[[families]]
name = "f"
rungs = [{rungs}]
[axes]
seeds = [{seeds}]
[[block]]
seeds = [{seeds}]
[games]
per_cell = 2
"""
    with pytest.raises(DsqError, match=r"would make 144,000 cells"):
        load_study(_write(tmp_path, text))


def test_deterministic_bots_get_seeded_variety_or_a_note(tmp_path: Path) -> None:
    text = """
name = "same"
[rules]
specs = ["standard"]
[ladder]
bots = ["alphabeta:depth=1"]
[games]
per_cell = 4
"""
    assert load_study(_write(tmp_path, text)).opening_plies == 8
    fixed = _write(tmp_path, text.replace('name = "same"', 'name = "same"\nopening_plies = 0'))
    out = dsq_here("study", "run", str(fixed), "--data", str(tmp_path / "data"), "--quiet")
    assert out.returncode == 0, out.stderr
    assert "at most 1 distinct games" in out.stderr and "Traceback" not in out.stderr
