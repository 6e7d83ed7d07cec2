"""Tables built once for the tablebase tests (session-wide, read-only): every two-piece
material under a few rule sets, and some three-piece ones."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sim.tablebase.build import build_tables
from sim.tablebase.material import all_materials, parse_material
from sim.tablebase.store import tables_root

# van Rijn and Vis's rules (ICGA Journal, 2014)
VAN_RIJN = "standard+elephant_captures_rat+rat_cross_capture+no_capture_plies=0"
# every option the others leave alone: the enemy rat only blocks, the lion jumps across
# ranks only, the dog beats the wolf, a trapped animal keeps its strength
MIXED = "datou+jump_block=enemy+dog_over_wolf+trapped_can_capture+lion_jump=horizontal"
STANDARD = "standard"
# three-piece tables (with their colour-swapped twins) built for each rule set
THREE = {STANDARD: ["LR v t", "LR v e", "E v cr"], MIXED: ["LR v t", "WD v d"]}


@pytest.fixture(scope="session")
def tb_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose tables folder holds every two-piece table of VAN_RIJN, MIXED
    and STANDARD, and the THREE three-piece tables (and their colour-swapped twins) of
    MIXED and STANDARD."""
    data = tmp_path_factory.mktemp("tb") / "data"
    root = tables_root(data)
    two = all_materials(2)
    build_tables(VAN_RIJN, two, root)
    for rules, names in THREE.items():
        three = [parse_material(m) for m in names]
        build_tables(rules, two + three + [m.swapped() for m in three], root)
    return data


@pytest.fixture
def tb_copy(tb_data: Path, tmp_path: Path) -> Path:
    """A private copy of ``tb_data`` for tests that write or damage tables."""
    dest = tmp_path / "data"
    shutil.copytree(tb_data, dest)
    return dest
