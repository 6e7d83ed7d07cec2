"""The batch spec is declared once: the record check, ``make_spec`` and the typed record
derive from :class:`BatchSpec`, and records written before a field existed still read."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from sim.batch import make_spec
from sim.bots import parse_bot
from sim.core.batchspec import BatchSpec, SpecError, spec_fields
from sim.storage.batchrecord import BatchRecord
from sim.storage.recordcheck import SPEC_FIELDS, RecordError, check_record
from sim.storage.records import list_batches, read_record, unlisted_batches
from tests.support import ROOT

SPEC = make_spec("standard", "random", "greedy", 10, seed=3, swap=True, opening_plies=2)


def record(**spec: object) -> dict[str, object]:
    return {
        "batch_id": "b1",
        "spec": {**SPEC.to_dict(), **spec},
        "status": "done",
        "games_done": 10,
        "counts": {"red": 4, "blue": 4, "draw": 2},
    }


def test_the_record_check_covers_every_field_of_the_spec() -> None:
    assert list(SPEC_FIELDS) == [f.name for f in dataclasses.fields(BatchSpec)]
    for f in spec_fields():  # any field added to the spec is checked on every read
        with pytest.raises(RecordError, match=rf"spec\.{f.name}: expected"):
            check_record(record(**{f.name: ["not", "a", "value"]}))
    with pytest.raises(RecordError, match=r"spec\.adjudicate: expected one of none, tablebase"):
        check_record(record(adjudicate="always"))
    with pytest.raises(RecordError, match=r"spec\.games: .*even"):
        check_record(record(games=9))
    assert check_record(record())["spec"] == SPEC.to_dict()


def test_make_spec_checks_each_field_as_declared_naming_its_flag() -> None:
    bad = [
        ({"games": 0}, "--games must be between 1 and"),
        ({"ply_cap": 0}, "--ply-cap must be between 1 and 65535, got 0"),
        ({"opening_plies": 201}, "--opening-plies must be between 0 and 200"),
        ({"adjudicate": "x"}, "--adjudicate takes one of none, tablebase, not 'x'"),
        ({"swap": 1}, "--swap must be true or false"),
        ({"opening_plies": 5, "ply_cap": 5}, r"--opening-plies \(5\) must be below --ply-cap"),
    ]
    for kw, words in bad:
        args = {"games": 10, **kw}
        with pytest.raises(SpecError, match=words):
            make_spec("standard", "random", "random", seed=1, **args)
    with pytest.raises(TypeError, match="no_such_field"):
        make_spec("standard", "random", "random", 10, no_such_field="x")
    spec = make_spec(" Standard ", "greedy", "random", 10, seed=1)
    assert spec == BatchSpec("standard", "greedy", "random", 10, 1)
    assert make_spec(**spec.to_dict()) == spec  # a stored spec gives back the same spec


def test_the_bundled_sample_records_still_read(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "data" / "batches", tmp_path / "batches")
    stored = {p.stem: json.loads(p.read_text()) for p in (tmp_path / "batches").glob("*.json")}
    assert stored and all("adjudicate" not in r["spec"] for r in stored.values())
    records = list_batches(tmp_path)
    assert {r["batch_id"] for r in records} == set(stored)
    assert not [u for u in unlisted_batches(tmp_path) if u[0] in stored]
    for bid, raw in stored.items():
        rec = read_record(tmp_path, bid)
        assert rec.spec == BatchSpec.from_dict(raw["spec"]) and rec.spec.adjudicate == "none"
        out = rec.to_dict()
        assert all(out[k] == v for k, v in raw.items() if k != "spec")  # nothing lost
        assert all(out[k] is None for k in set(out) - set(raw))  # what it adds is empty


def test_a_typed_record_keeps_what_it_does_not_know() -> None:
    raw = {**record(), "future_key": [1, 2], "stopped_early": True}
    rec = BatchRecord.from_dict(raw)
    assert rec.spec == SPEC and rec.extra == {"future_key": [1, 2]} and rec.stopped_early
    out = rec.to_dict()
    assert out["future_key"] == [1, 2] and out["games_planned"] == 10 and out["group"] == "b1"
    assert "stop_check" not in out and BatchRecord.from_dict(out) == rec


def test_a_bot_spec_is_parsed_once_per_text() -> None:
    a = parse_bot("alphabeta:depth=2")
    assert parse_bot(" alphabeta:depth=2") is a
    with pytest.raises(TypeError):
        a.params["depth"] = 3  # type: ignore[index]
