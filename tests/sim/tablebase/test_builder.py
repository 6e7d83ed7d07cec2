"""The builder: symmetries, verification of every table built in the tests, the build plan,
and the material index."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.board import NSQ
from sim.tablebase import outcomes as V
from sim.tablebase.analysis import fen_of, square_heatmap, verify_table
from sim.tablebase.build import build_tables, plan, solve, swap_table
from sim.tablebase.material import (
    MaterialError,
    all_materials,
    index_of,
    materials_up_to,
    parse_material,
    squares_of,
)
from sim.tablebase.probe import probe
from sim.tablebase.store import SUFFIX, cache_for, rules_key, tables_root
from tests.sim.tablebase.conftest import MIXED, STANDARD, THREE
from tests.support import reference_board as RB
from tests.support import tablebase_reference as REF


def test_material_names_and_counts() -> None:
    m = parse_material("RL v e")
    assert m.name == "LR v e" and m.file_stem == "LR_v_e"
    assert parse_material("LR_v_e") == parse_material("LRve") == m
    assert m.swapped().name == "E v lr"
    assert [s.name for s in m.sub_materials()] == ["R v e", "L v e"]
    assert parse_material("R v r").positions_per_side == 61 * 60
    assert parse_material("L v e").positions_per_side == 49 * 48
    assert len(all_materials(2)) == 64 and len(all_materials(3)) == 448
    assert len(all_materials(4)) == 28 * 28 + 2 * 8 * 56
    assert [len(materials_up_to(n)) for n in (2, 3)] == [64, 512]
    for bad in ("", "LR", "LR v", "lr v e", "LR v E", "LL v e", "LR v x", "LRWD v e", "L v v"):
        with pytest.raises(MaterialError):
            parse_material(bad)
    with pytest.raises(MaterialError):
        materials_up_to(5)


def test_index_round_trip_and_fen() -> None:
    m = parse_material("LR v e")
    rng = np.random.default_rng(3)
    for idx in rng.integers(0, m.size, 200):
        squares, side = squares_of(m, int(idx))
        if len(set(squares.tolist())) < m.pieces:
            continue
        assert index_of(m, squares, side) == idx
        fen = fen_of(m, int(idx))
        assert fen.split()[1] == "rb"[side]
    with pytest.raises(MaterialError):
        index_of(m, np.array([3, 10, 20]), 0)  # a lion on a den


def test_colour_symmetry_solved_separately(tmp_path: Path) -> None:
    # solve both colourings on their own: the half-turn with colours exchanged keeps values
    for name in ("L v r", "T v w", "R v e"):
        m = parse_material(name)
        mine, _ = solve(STANDARD, m, {})
        theirs, _ = solve(STANDARD, m.swapped(), {})
        assert np.array_equal(swap_table(m.swapped(), mine), theirs), name
    m = parse_material("LR v e")
    build_tables(MIXED, [m], tmp_path / "a")  # each folder solves its own closure
    build_tables(MIXED, [m.swapped()], tmp_path / "b")
    key = rules_key(MIXED)
    mine = cache_for(tmp_path / "a").get(key, m)
    theirs = cache_for(tmp_path / "b").get(key, m.swapped())
    assert np.array_equal(swap_table(m.swapped(), mine.values), theirs.values)


def random_fen(rng: random.Random, material: str) -> str:
    """A random position of ``material`` (reference placement rules), either side to move."""
    red, _, blue = material.partition(" v ")
    squares = {p: REF._squares_for(p) for p in red + blue}
    while True:
        placed = {p: rng.choice(squares[p]) for p in red + blue}
        if len(set(placed.values())) == len(placed):
            break
    board = [""] * NSQ
    for p, sq in placed.items():
        board[sq] = p
    return RB.to_fen(RB.Pos(board, rng.choice("rb"), 0, 1))


def test_colour_and_mirror_symmetry_by_probing(tb_data: Path) -> None:
    root = tables_root(tb_data)
    rng = random.Random(5)
    for rules in (STANDARD, MIXED):
        for material in ["L v r", "R v r", "T v e", "W v d", "C v p", *THREE[rules]]:
            for _ in range(10):
                fen = random_fen(rng, material)
                value = probe(rules, fen, root)
                assert value is not None, fen
                assert probe(rules, RB.rotate_fen(fen), root) == value, fen
                assert probe(rules, _mirror(fen), root) == value, fen


def _mirror(fen: str) -> str:
    """The FEN with files a..g reversed (the board is symmetric left to right)."""
    pos = RB.parse_fen(fen)
    board = [""] * NSQ
    for sq, piece in enumerate(pos.board):
        if piece:
            board[(sq // 7) * 7 + 6 - sq % 7] = piece
    return RB.to_fen(RB.Pos(board, pos.side, pos.clock, pos.fullmove))


def test_every_table_built_in_the_tests_verifies(tb_data: Path) -> None:
    root = tables_root(tb_data)
    checked = 0
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        rules = folder.name
        for path in sorted(folder.glob(f"*{SUFFIX}")):
            result = verify_table(rules, path.name[: -len(SUFFIX)], root)
            assert result.wrong == 0, (rules, path.name, result.first_wrong)
            assert result.checked == 2 * result.material.positions_per_side
            checked += result.checked
    assert checked > 1_000_000


def test_verify_finds_a_wrong_value(tb_copy: Path) -> None:
    root = tables_root(tb_copy)
    m = parse_material("L v r")
    cache = cache_for(root)
    table = cache.get("standard+no_capture_plies=0", m)
    values = table.values.copy()
    idx = int(np.flatnonzero(values == V.win_code(1))[0])
    values[idx] = V.win_code(3)
    from sim.tablebase.build import counts
    from sim.tablebase.store import write_table

    write_table(cache.path(table.key, m), table.key, m, values, counts(m, values))
    result = verify_table(STANDARD, m, root)
    assert result.wrong >= 1 and result.first_wrong == fen_of(m, idx)


def test_build_plan_order_and_twins(tmp_path: Path) -> None:
    todo = plan(["LR v e"])
    assert [m.name for m in todo] == ["L v e", "R v e", "LR v e"]
    report = build_tables(STANDARD, ["R v c", "C v r", "LR v e"], tmp_path)
    how = {b.material.name: b.how for b in report}
    assert {how["R v c"], how["C v r"]} == {"solved", "swapped"}  # one from its twin
    assert how["LR v e"] == "solved"
    again = build_tables(STANDARD, ["LR v e"], tmp_path)
    assert {b.how for b in again} == {"present"}


def test_heatmap_counts_every_position(tb_data: Path) -> None:
    m = parse_material("L v r")
    shares = square_heatmap(STANDARD, m, 0, 0, tables_root(tb_data))
    assert shares.shape == (NSQ, 4)
    assert int(shares[:, 0].sum()) == m.positions_per_side
    assert np.array_equal(shares[:, 0], shares[:, 1:].sum(axis=1))
    assert shares[3, 0] == 0 and shares[59, 0] == 0  # never on a den
    assert shares[22, 0] == 0  # the lion never stands in the water


def test_several_processes_build_the_same_tables(tmp_path: Path) -> None:
    wanted = ["LR v e", "E v lr", "R v cr", "WD v d"]
    build_tables(STANDARD, wanted, tmp_path / "one")
    report = build_tables(STANDARD, wanted, tmp_path / "two", jobs=2)
    assert {b.how for b in report} == {"solved", "swapped"}
    key = rules_key(STANDARD)
    for name in wanted:
        m = parse_material(name)
        one = cache_for(tmp_path / "one").get(key, m).values
        two = cache_for(tmp_path / "two").get(key, m).values
        assert np.array_equal(one, two), name
