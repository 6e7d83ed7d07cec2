"""Probing: values and best moves of positions, checked against the reference solver, and
the bad inputs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.errors import DsqError
from sim.tablebase.probe import NoTable, probe, probe_fen
from sim.tablebase.store import tables_root
from tests.sim.tablebase.conftest import MIXED, STANDARD
from tests.sim.tablebase.test_builder import random_fen
from tests.support import reference_board as RB
from tests.support import tablebase_reference as REF


def test_simple_positions(tb_data: Path) -> None:
    root = tables_root(tb_data)
    # a red lion beside Blue's den, Red to move: into the den at once
    den = probe_fen(STANDARD, "2L4/7/7/7/7/7/7/7/r6 r 0 1", root)
    assert (den.value, den.plies, den.best) == ("win", 1, ("c9d9",))
    # a blue elephant two steps from Red's den: the lion cannot guard both ways in
    guard = probe_fen(STANDARD, "7/7/7/7/7/7/7/2L4/5e1 r 0 1", root)
    assert (guard.value, guard.plies) == ("loss", 4)
    # the side to move has no animal: the game is over, lost in 0
    over = probe_fen(STANDARD, "7/7/7/7/7/7/7/7/L6 b 0 1", root)
    assert (over.value, over.plies, over.best) == ("loss", 0, ())
    # only the other side is empty: any move wins by capture_all
    won = probe_fen(STANDARD, "7/7/7/7/7/7/7/7/L6 r 0 1", root)
    assert (won.value, won.plies, won.best) == ("win", 1, ("a1a2", "a1b1"))
    # the clock is no part of a table: a FEN at the no-capture limit still has a value
    assert probe(STANDARD, "2L4/7/7/7/7/7/7/7/r6 r 250 1", root) == ("win", 1)


def test_values_and_best_moves_match_the_reference(tb_data: Path) -> None:
    root = tables_root(tb_data)
    rng = random.Random(11)
    ref = REF.solve(MIXED, "T", "r")
    rules = RB.parse_rules(MIXED)
    for _ in range(40):
        fen = random_fen(rng, "T v r")
        pos = RB.parse_fen(fen)
        placement = tuple(
            sorted(((p, sq) for sq, p in enumerate(pos.board) if p), key=lambda x: x[0].islower())
        )
        key = (placement, pos.side)
        value, plies = ref[key]
        answer = probe_fen(MIXED, fen, root)
        assert (answer.value, answer.plies) == (value, plies), fen
        best = []
        for (frm, to), child in REF.moves_of(placement, REF.board_of(placement), pos.side, rules):
            worth = ("win", 1) if child is None else _after(ref[child])
            if worth == (value, plies):
                best.append(RB.square_name(frm) + RB.square_name(to))
        assert list(answer.best) == sorted(best), fen


def _after(child: tuple[str, int | None]) -> tuple[str, int | None]:
    value, plies = child
    if value == "loss":
        return "win", (plies or 0) + 1
    if value == "win":
        return "loss", (plies or 0) + 1
    return "draw", None


def test_errors(tb_data: Path) -> None:
    root = tables_root(tb_data)
    with pytest.raises(NoTable, match="16 animals; tables hold at most 4"):
        probe_fen(STANDARD, "start", root)
    with pytest.raises(NoTable, match="no table PWD v l"):
        probe_fen(STANDARD, "l6/7/7/7/7/7/7/7/PWD4 r 0 1", root)
    with pytest.raises(DsqError):
        probe_fen(STANDARD, "not a fen", root)
    with pytest.raises(DsqError):
        probe_fen("nonsense", "7/7/7/7/7/7/7/7/L6 r 0 1", root)
    assert probe(STANDARD, "l6/7/7/7/7/7/7/7/PWD4 r 0 1", root) is None
    assert probe(STANDARD, "start", root) is None
