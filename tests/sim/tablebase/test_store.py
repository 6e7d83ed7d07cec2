"""Table files: where they live, which rule sets share them, and damaged or foreign files
refused with a clear message (and replaced by build)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.tablebase.build import build_tables
from sim.tablebase.material import parse_material
from sim.tablebase.store import (
    TableError,
    cache_for,
    load_table,
    rules_key,
    table_path,
    tables_root,
)
from tests.sim.tablebase.conftest import STANDARD


def test_rules_key_ignores_clock_and_anti_chasing() -> None:
    base = rules_key("standard")
    assert base == "standard+no_capture_plies=0"
    for spec in ("standard+no_capture_plies=50", "standard+rule_7_3+rule_17_5"):
        assert rules_key(spec) == base
    assert rules_key("yeshou") == rules_key("yeshou+rule_7_3=false+rule_17_5=false")
    assert rules_key("standard+dog_over_wolf") != base
    assert rules_key("standard+trapped_can_capture") != base


def test_layout_under_the_data_folder(tmp_path: Path) -> None:
    root = tables_root(tmp_path)
    assert root == tmp_path / "tablebases"
    assert table_path(root, "datou", "LR v e") == (
        root / "standard+tiger_jump=horizontal+no_capture_plies=0" / "LR_v_e.dsqtb"
    )


def _damage(path: Path, offset: int, data: bytes) -> None:
    raw = bytearray(path.read_bytes())
    raw[offset : offset + len(data)] = data
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize(
    "how, message",
    [
        (lambda p: _damage(p, p.stat().st_size - 5, b"\xff\x00\xff"), "damaged"),
        (lambda p: p.write_bytes(p.read_bytes()[:-10]), "damaged"),
        (lambda p: p.write_bytes(b"PAR1 not a table at all"), "damaged"),
        (lambda p: p.write_bytes(b""), "damaged"),
        (lambda p: _damage(p, 6, b"9"), "format 9"),
    ],
)
def test_damaged_file_refused_then_replaced(tb_copy: Path, how, message: str) -> None:
    root = tables_root(tb_copy)
    m = parse_material("L v r")
    key = rules_key(STANDARD)
    path = table_path(root, STANDARD, m)
    how(path)
    with pytest.raises(TableError, match=message) as err:
        load_table(path, key, m)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(TableError):
        cache_for(root).get(key, m)
    report = build_tables(STANDARD, [m], root)
    assert [b.how for b in report if b.material == m] == ["replaced"]
    assert load_table(path, key, m).values.size == m.size


def test_foreign_file_refused(tb_copy: Path) -> None:
    root = tables_root(tb_copy)
    key = rules_key(STANDARD)
    source = table_path(root, STANDARD, "L v r")
    target = table_path(root, STANDARD, "T v r")
    target.write_bytes(source.read_bytes())  # the lion's table under the tiger's name
    with pytest.raises(TableError, match="holds 'L v r'"):
        load_table(target, key, parse_material("T v r"))
    with pytest.raises(TableError, match="no table"):
        load_table(root / key / "X_v_y.dsqtb", key, parse_material("T v r"))


def test_no_temporary_files_left(tb_data: Path) -> None:
    leftovers = [p for p in tables_root(tb_data).rglob("*") if ".tmp-" in p.name]
    assert leftovers == []
