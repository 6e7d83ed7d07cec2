"""The fast builder against the plain reference solver (tests/support/tablebase_reference),
position by position, and against the published figures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.board import piece_letter
from sim.tablebase import outcomes as V
from sim.tablebase.analysis import fen_of, table_stats
from sim.tablebase.material import PLACE, Material, all_materials, parse_material, squares_of
from sim.tablebase.store import cache_for, rules_key, tables_root
from tests.sim.tablebase.conftest import MIXED, STANDARD, VAN_RIJN
from tests.support import tablebase_reference as REF

ORDER = "ELTPWDCR"


def letters(m: Material) -> tuple[str, str]:
    red, _, blue = m.name.partition(" v ")
    return red, blue


def compare(data: Path, rules: str, material: Material) -> int:
    """Compare every position of ``material`` and of the materials it reaches by captures
    with the reference; return how many positions were compared."""
    ref = REF.solve(rules, *letters(material))
    cache = cache_for(tables_root(data))
    key = rules_key(rules)
    place = [PLACE[0].tolist(), PLACE[1].tolist()]
    compared = 0
    layouts: dict[str, tuple] = {}
    for (placement, side), expected in ref.items():
        name = "".join(p for p, _ in placement)
        if name not in layouts:
            red = "".join(p for p in name if p.isupper())
            m = parse_material(f"{red} v {''.join(p for p in name if p.islower())}")
            table = cache.get(key, m)
            assert table is not None, f"no table {m}"
            order = [name.index(piece_letter(int(c))) for c in m.codes]
            layouts[name] = (m, table.values, order, m.kinds.tolist(), m.strides.tolist())
        m, values, order, kinds, strides = layouts[name]
        idx = (0 if side == "r" else 1) * m.half
        for k, i in enumerate(order):
            idx += place[kinds[k]][placement[i][1]] * strides[k]
        got = V.decode(int(values[idx]))
        assert got == expected, (m.name, placement, side, got, expected)
        compared += 1
    return compared


def test_published_figures_van_rijn_and_vis(tb_data: Path) -> None:
    # van Rijn and Vis: R v r, Red to move: 3,660 positions, 2,055 won by Red, 1,605 by Blue
    s = table_stats(VAN_RIJN, "R v r", tables_root(tb_data))
    assert s["material"] == "R v r"
    assert s["red_to_move"] == {
        "red": 2055,
        "blue": 1605,
        "draw": 0,
        "positions": 3660,
        "longest_win": s["red_to_move"]["longest_win"],
    }
    # ... and two-piece endgames with equal material have no draws
    for letter in ORDER:
        s = table_stats(VAN_RIJN, f"{letter} v {letter.lower()}", tables_root(tb_data))
        assert s["red_to_move"]["draw"] == s["blue_to_move"]["draw"] == 0, letter


def test_every_two_piece_position_agrees_van_rijn(tb_data: Path) -> None:
    compared = sum(compare(tb_data, VAN_RIJN, m) for m in all_materials(2))
    assert compared == 2 * sum(m.positions_per_side for m in all_materials(2))


@pytest.mark.parametrize(
    "material", ["L v r", "T v r", "L v t", "W v d", "D v w", "E v r", "R v e", "C v c", "P v l"]
)
def test_two_piece_positions_agree_mixed_options(tb_data: Path, material: str) -> None:
    assert compare(tb_data, MIXED, parse_material(material)) > 0


@pytest.mark.slow
def test_every_two_piece_position_agrees_standard(tb_data: Path) -> None:
    assert sum(compare(tb_data, STANDARD, m) for m in all_materials(2)) > 0


@pytest.mark.parametrize(
    "rules, material",
    [(STANDARD, "LR v t"), (MIXED, "LR v t"), (STANDARD, "E v cr"), (MIXED, "WD v d")],
)
def test_three_piece_positions_agree_with_exhaustive_search(
    tb_data: Path, rules: str, material: str
) -> None:
    # a rat in the river blocks both jumpers, under standard its own side's lion too
    m = parse_material(material)
    values = cache_for(tables_root(tb_data)).get(rules_key(rules), m).values
    search = REF.BoundedSearch(rules)
    rng = np.random.default_rng(7)
    horizon = 7
    checked = {"win": 0, "loss": 0, "draw": 0}
    for idx in rng.permutation(m.size)[:20000]:
        code = int(values[idx])
        if code == V.INVALID:
            continue
        value, plies = V.decode(code)
        short = plies is not None and plies <= horizon
        kind = value if short else "draw"
        if checked[kind] >= 40:
            continue
        key = _reference_key(m, int(idx))
        expected = (value, plies) if short else ("draw", None)  # longer: not within reach
        assert search.value_within(key, horizon) == expected, (material, fen_of(m, int(idx)))
        checked[kind] += 1
    assert checked["win"] >= 20 and checked["loss"] >= 5, checked


def _reference_key(m: Material, idx: int) -> REF.Key:
    squares, side = squares_of(m, idx)
    placement = tuple(
        (piece_letter(int(c)), int(sq)) for c, sq in zip(m.codes, squares, strict=True)
    )
    return placement, "rb"[side]
