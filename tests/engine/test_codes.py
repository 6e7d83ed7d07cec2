"""The shared vocabulary (engine.codes): stored strings, kernel constants, the history
record, and rule clauses labelled where the kernels implement them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from engine import Position, codes, core
from engine.codes import Animal, Hist, Jump, JumpBlock, Reason, Side, Status
from engine.position import encode_move
from engine.rules import JUMP_BLOCK_VALUES, JUMP_VALUES, parse_rules
from sim.storage import schema

ENGINE = Path(codes.__file__).parent


def test_stored_strings() -> None:
    assert codes.WINNERS == ("red", "blue", "draw")
    # Stored strings never change; new reasons come after these.
    assert codes.REASONS == (
        "den", "capture_all", "no_moves", "no_capture", "ply_cap", "tablebase", "forfeit",
        "time", "resign", "adjudicated_resign", "adjudicated_draw", "agreed_draw", "abandoned",
    )  # fmt: skip
    assert codes.SCORE_ADJUDICATIONS == {"adjudicated_resign", "adjudicated_draw"}
    assert not codes.SCORE_ADJUDICATIONS & (codes.RULE_ENDS | codes.PLAYER_STOPS)
    assert codes.ANIMAL_NAMES == (
        "rat",
        "cat",
        "dog",
        "wolf",
        "leopard",
        "tiger",
        "lion",
        "elephant",
    )
    assert "".join(a.letter for a in Animal) == "RCDWPTLE"
    assert codes.SIDE_NAMES == ("red", "blue")
    assert (JUMP_VALUES, JUMP_BLOCK_VALUES) == (("none", "horizontal", "both"), ("any", "enemy"))
    assert (schema.WINNERS, schema.REASONS, schema.ANIMALS) == (
        codes.WINNERS,
        codes.REASONS,
        codes.ANIMAL_NAMES,
    )
    assert [s.winner for s in Status] == ["", "red", "blue", "draw"]
    assert [Status.won_by(side) for side in Side] == [Status.RED_WON, Status.BLUE_WON]
    assert codes.Winner is Status


def test_kernel_constants_are_plain_ints_from_the_enums() -> None:
    pairs = [
        (core.ONGOING, Status.ONGOING),
        (core.RED_WON, Status.RED_WON),
        (core.BLUE_WON, Status.BLUE_WON),
        (core.DRAWN, Status.DRAWN),
        (core.NO_REASON, Reason.NONE),
        (core.DEN, Reason.DEN),
        (core.CAPTURE_ALL, Reason.CAPTURE_ALL),
        (core.NO_MOVES, Reason.NO_MOVES),
        (core.NO_CAPTURE, Reason.NO_CAPTURE),
        (core.PLY_CAP, Reason.PLY_CAP),
        (codes.JUMP_NONE, Jump.NONE),
        (codes.JUMP_HORIZONTAL, Jump.HORIZONTAL),
        (codes.JUMP_BOTH, Jump.BOTH),
        (codes.BLOCK_ANY, JumpBlock.ANY),
        (codes.BLOCK_ENEMY, JumpBlock.ENEMY),
        (core.H_FROM, Hist.FROM),
        (core.H_TO, Hist.TO),
        (core.H_PIECE, Hist.PIECE),
        (core.H_CAPTURED, Hist.CAPTURED),
        (core.H_CLOCK, Hist.CLOCK),
        (core.H_STATUS, Hist.STATUS),
        (codes.RAT, Animal.RAT),
        (codes.ELEPHANT, Animal.ELEPHANT),
    ]
    for const, member in pairs:
        assert type(const) is int and const == member
    assert core.HIST_SIZE == len(Hist) == 6
    assert core.REASON_NAMES == ("", *codes.REASONS)
    assert codes.STATUS_BITS == 2


def test_rules_array_reads_the_jump_codes() -> None:
    ra = parse_rules("yeshou+tiger_jump=horizontal+lion_jump=none").as_array()
    from engine.rules import R_JUMP_BLOCK, R_LION_JUMP, R_TIGER_JUMP

    assert ra[R_JUMP_BLOCK] == codes.BLOCK_ENEMY
    assert ra[R_TIGER_JUMP] == codes.JUMP_HORIZONTAL
    assert ra[R_LION_JUMP] == codes.JUMP_NONE


def test_history_record_slots_and_status_packing() -> None:
    pos = Position("standard")
    pos.play_moves("a3a4 a7a6")
    st = pos.st
    base = core.HEADER + core.HIST_SIZE
    assert st[base + core.H_FROM] * 64 + st[base + core.H_TO] == encode_move("a7a6")
    assert st[base + core.H_PIECE] == 8 + Animal.RAT
    assert st[base + core.H_CAPTURED] == 0
    assert st[base + core.H_CLOCK] == 1
    # Every status and reason, and reasons yet to come, come back after make and unmake.
    mv = encode_move("a4a5")
    for status in Status:
        for reason in [*Reason, len(Reason), 1000]:
            st[core.S_STATUS], st[core.S_REASON] = status, reason
            before = st.copy()
            core.make_move(st, pos.rules_array, mv)
            core.unmake_move(st)
            assert np.array_equal(st[: core.HEADER], before[: core.HEADER])


def test_result_uses_the_vocabulary() -> None:
    assert Position("standard", "l6/7/7/7/7/7/7/7/7 r 0 1").result == ("blue", "capture_all")
    assert Position("standard", "l6/7/7/7/7/7/7/7/R6 r 250 1").result == ("draw", "no_capture")


CLAUSES = (
    [(f"Captures {i}", "moves.py") for i in range(1, 6)]
    + [(f"Movement {i}", "moves.py") for i in range(1, 10)]
    + [(f"End {i}", "game.py") for i in range(1, 5)]
    + [("7-3 rule", "repetition.py"), ("7-3 rule", "moves.py"), ("17-5 rule", "repetition.py")]
)


@pytest.mark.parametrize(("label", "module"), CLAUSES)
def test_rule_clauses_are_labelled_on_code_lines(label: str, module: str) -> None:
    lines = (ENGINE / module).read_text().splitlines()
    pattern = re.compile(rf"#\s{re.escape(label)}(:|$)")
    hits = [line for line in lines if pattern.search(line)]
    assert hits, f"no '# {label}' comment in engine/{module}"
    assert all(not line.lstrip().startswith('"') for line in hits)


def test_core_keeps_its_names() -> None:
    names = (
        "make_move unmake_move settle legal_moves pseudo_moves is_chased can_capture new_state "
        "history_capacity perft divide side_of animal_of P_SQ S_SIDE S_CLOCK S_FULLMOVE S_NPLY "
        "S_COUNT S_STATUS S_REASON HEADER HIST_SIZE MAX_MOVES ONGOING RED_WON BLUE_WON DRAWN "
        "DEN CAPTURE_ALL NO_MOVES NO_CAPTURE PLY_CAP REASON_NAMES filter_7_3 filter_17_5"
    ).split()
    assert [n for n in names if not hasattr(core, n)] == []
