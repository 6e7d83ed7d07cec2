"""Batches record their bots pinned (``eval=NAME@HEX``); batches recorded with ``eval=auto``
keep resuming, replaying and filtering as they did."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.batch import create_batch, make_spec, prepare_data_dir, resume_batch, run_batches
from sim.batch.recompute import recompute
from sim.batch.spec import BatchSpec, SpecError
from sim.bots.evalfile import eval_digest, evals_dir, find_eval
from sim.bots.evalformat import format_eval
from sim.bots.spec import canonical_bot
from sim.stats.query import Selection, bot_filter, query_rows
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record
from tests.support.procs import dsq, one_line_error

AB1 = "alphabeta:depth=1"


def pin(name: str) -> str:
    return eval_digest(find_eval(name, None))


def players(data: Path, batch_id: str) -> set[str]:
    """The red and blue players of a batch's stored games."""
    out: set[str] = set()
    for path in (data / "games" / batch_id).glob("*.parquet"):
        t = pq.read_table(path, columns=["red", "blue"])
        out |= set(t.column("red").to_pylist()) | set(t.column("blue").to_pylist())
    return out


def test_make_spec_records_the_rule_set_s_pinned_evaluation() -> None:
    for rules in ("standard", "yeshou"):
        spec = make_spec(rules, "alphabeta:depth=2", "greedy", 10, seed=1)
        assert spec.red.endswith(f",eval={rules}@{pin(rules)}")
        assert spec.blue == "greedy"
        assert make_spec(**spec.to_dict()) == spec  # a recorded spec makes itself again
    mixed = make_spec("datou", "mcts:playouts=5", "alphabeta:depth=1,eval=classic", 10, seed=1)
    assert mixed.red.endswith(f",eval=datou@{pin('datou')}")
    assert mixed.blue == canonical_bot("alphabeta:depth=1,eval=classic")


def test_make_spec_pins_a_data_folder_s_evaluation_when_given_the_folder(tmp_path: Path) -> None:
    ef = find_eval("standard", None)
    evals_dir(tmp_path).mkdir()
    mine = format_eval(ef).replace('name = "standard"', 'name = "mine"')
    (evals_dir(tmp_path) / "mine.toml").write_text(mine)
    spec = make_spec("standard", f"{AB1},eval=mine", "greedy", 2, seed=1)
    assert spec.red.endswith(",eval=mine")  # no data folder: as written
    spec = make_spec("standard", f"{AB1},eval=mine", "greedy", 2, seed=1, data_dir=tmp_path)
    assert spec.red.endswith(f",eval=mine@{pin('standard')}")


def test_a_pin_that_is_not_available_names_its_side() -> None:
    with pytest.raises(SpecError) as err:
        make_spec("standard", "greedy", f"{AB1},eval=standard@000000000000", 2, seed=1)
    assert err.value.field == "blue"
    assert str(err.value) == (
        "--blue: evaluation standard@000000000000 is not available: the shipped standard is "
        f"now standard@{pin('standard')}"
    )


def test_dsq_simulate_refuses_an_unavailable_pin_in_one_line(tmp_path: Path) -> None:
    res = dsq("simulate", "--red", f"{AB1},eval=yeshou@000000000000", "--blue", "greedy",
              "--rules", "yeshou", "--games", "2", "--data", str(tmp_path))  # fmt: skip
    line = one_line_error(res, "simulate")
    assert f"the shipped yeshou is now yeshou@{pin('yeshou')}" in line


def test_dsq_simulate_stores_no_unpinned_evaluation(tmp_path: Path) -> None:
    res = dsq("simulate", "--red", AB1, "--blue", "greedy", "--games", "2", "--seed", "3",
              "--batch-id", "p", "--data", str(tmp_path), "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    listed = dsq("batches", "--json", "--data", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    [rec] = json.loads(listed.stdout)
    red = canonical_bot(AB1).replace("eval=auto", f"eval=standard@{pin('standard')}")
    assert rec["spec"]["red"] == red
    assert "eval=auto" not in (tmp_path / "batches" / "p.json").read_text()
    assert players(tmp_path, "p") == {red, "greedy"}


def test_a_batch_recorded_with_auto_resumes_replays_and_filters_as_auto(tmp_path: Path) -> None:
    auto = canonical_bot(AB1)
    assert auto.endswith(",eval=auto")
    d = prepare_data_dir(tmp_path)
    old = BatchSpec(rules="standard", red=auto, blue="greedy", games=4, seed=5, record="outcomes")
    create_batch(d, old, batch_id="old")  # as a batch recorded before batches were pinned
    rec = resume_batch("old", d)
    assert rec["status"] == "done" and rec["spec"]["red"] == auto
    assert read_batch_record(d, "old")["spec"]["red"] == auto
    assert players(d, "old") == {auto, "greedy"}
    new = make_spec("standard", AB1, "greedy", 4, seed=5, record="outcomes")
    run_batches([new], d, batch_id="new")
    ds = open_dataset(d)
    try:
        rows = ds.con.execute(
            "SELECT batch_id, game_index, winner, reason, plies, seed FROM games "
            "ORDER BY batch_id, game_index"
        ).fetchall()
        keys = ("batch_id", "game_index", "winner", "reason", "plies", "seed")
        for row in rows:  # both replay from their seeds (the same evaluation today)
            assert recompute(d, dict(zip(keys, row, strict=True))).agrees
        by_bot, named = {}, {}
        for written in (AB1, auto, new.red, f"{AB1},eval=classic"):
            sel = Selection(bots=(bot_filter(written),))
            [(n,)] = query_rows(ds.con, sel, "SELECT count(*) FROM sel")
            by_bot[written] = n
            named[written] = (sel.names(auto), sel.names(new.red))  # the rule SQL follows
    finally:
        ds.close()
    assert by_bot == {AB1: 8, auto: 8, new.red: 4, f"{AB1},eval=classic": 0}
    assert named == {
        AB1: (True, True),
        auto: (True, True),
        new.red: (False, True),
        f"{AB1},eval=classic": (False, False),
    }
