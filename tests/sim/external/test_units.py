"""The pure parts: engine bot specs, time controls and clocks, the registry file, the
position command, the clause classifier."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine import Position, encode_move, parse_rules
from engine.errors import DsqError
from engine.fen import START_FEN
from sim.bots import parse_bot
from sim.bots.spec import short_spec
from sim.core.timecontrol import SideClock, parse_tc
from sim.external.clocks import GameClocks
from sim.external.positions import PositionText, dialect_fen
from sim.external.registry import EngineEntry, load_registry
from sim.external.why import capture_clause, move_clause


@pytest.mark.parametrize(
    ("spec", "canonical", "short"),
    [
        ("engine:j", "engine:j,movetime=1000,margin=1000", "engine:j,movetime=1000"),
        (" ENGINE: j , Hash=64, TC=40/60+0.60", "engine:j,tc=40/60+0.6,margin=1000,Hash=64",
         "engine:j,tc=40/60+0.6,Hash=64"),
        ("engine:j,depth=3,margin=5,b=2,A=1", "engine:j,depth=3,margin=5,A=1,b=2",
         "engine:j,depth=3,margin=5,A=1,b=2"),
        ("engine:j,nodes=0", "engine:j,movetime=1000,margin=1000", "engine:j,movetime=1000"),
    ],
)  # fmt: skip
def test_engine_specs(spec: str, canonical: str, short: str) -> None:
    parsed = parse_bot(spec)
    assert (parsed.canonical, parsed.short) == (canonical, short)
    assert parse_bot(parsed.canonical) == parsed
    assert short_spec(canonical) == short


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("engine", "names its engine first"),
        ("engine:depth=3", "names its engine first"),
        ("engine:a b", "engine names are"),
        ("engine:j,tc=1,movetime=5", "not both"),
        ("engine:j,tc=40/0", "above 0"),
        ("engine:j,tc=0/60", "must be >= 1"),
        ("engine:j,tc=fast", "bad time control"),
        ("engine:j,movetime=0", "movetime takes"),
        ("engine:j,Hash", "needs a value"),
        ("engine:j,Hash=1,Hash=2", "given twice"),
        ("engine:j,,Hash=1", "empty parameter"),
        ("engine:j,9lives=1", "neither a parameter"),
    ],
)
def test_bad_engine_specs(spec: str, fragment: str) -> None:
    with pytest.raises(DsqError, match=fragment):
        parse_bot(spec)


def test_time_controls_and_clocks() -> None:
    assert [parse_tc(t).text for t in ("40/60+0.6", "60+0.6", "60", "0.5", "1/2+0")] == [
        "40/60+0.6", "60+0.6", "60", "0.5", "1/2",
    ]  # fmt: skip
    clock = SideClock(tc=parse_tc("2/1+0.1"), margin_ms=50)
    assert clock.budget_ms() == 1000 and clock.moves_to_go() == 2
    clock.charge(400)
    assert clock.remaining_ms == 700 and clock.moves_to_go() == 1
    clock.charge(600)  # the second move of the period: the clock is refilled
    assert clock.remaining_ms == 200 + 1000 and clock.moves_to_go() == 2
    assert not clock.over_time(1250) and clock.over_time(1251)
    per_move = SideClock(movetime_ms=100, margin_ms=0)
    assert per_move.over_time(101) and per_move.text == "movetime=100"
    assert not SideClock().limited and not SideClock().over_time(10**9)


def test_game_clocks_go_arguments() -> None:
    red, blue = parse_bot("engine:a,tc=40/60+0.5,depth=9"), parse_bot("engine:b,movetime=70")
    clocks = GameClocks.for_specs([red, blue])
    assert clocks.text == "red 40/60+0.5, blue movetime=70"
    assert clocks.go_args(0, red.params) == "wtime 60000 winc 500 movestogo 40 depth 9"
    assert clocks.go_args(1, blue.params) == "movetime 70"
    assert clocks.wait_ms(1) == 70 + 1000
    both = GameClocks.for_specs([red, red])
    both.charge(0, 1000)
    assert both.go_args(1, {}) == "wtime 59500 btime 60000 winc 500 binc 500 movestogo 40"
    assert both.text == "40/60+0.5" and both.remaining(0) == 59500
    inproc = GameClocks.for_specs([parse_bot("alphabeta:time_ms=30"), parse_bot("greedy")])
    assert inproc.text == "red movetime=30, blue none" and inproc.remaining(0) is None
    assert GameClocks.for_specs([parse_bot("random"), parse_bot("greedy")]).text is None


def test_registry_file(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    path = tmp_path / "engines.toml"
    path.write_text(
        '[engines.a]\ncommand = "bin/a --fast \'x y\'"\nargs = ["-v"]\ncwd = "bin"\n'
        'handshake = "jcei"\nrules = "standard+trapped_can_capture"\nfen_side = "wb"\n'
        "fen_counters = false\nstart_timeout = 2\n[engines.a.options]\nHash = 64\nPonder = false\n"
        '[engines.b]\ncommand = ["{python}", "-m", "x"]\n',
        encoding="utf-8",
    )
    reg = load_registry(path)
    a, b = reg["a"], reg["b"]
    assert a.argv() == [str(tmp_path / "bin" / "a"), "--fast", "x y", "-v"]
    assert a.cwd == str(tmp_path / "bin") and a.handshake == "jcei"
    assert a.options == (("Hash", "64"), ("Ponder", "false"))
    assert a.rules == "standard+trapped_can_capture" and a.start_timeout == 2.0
    assert b.argv() == [sys.executable, "-m", "x"] and b.handshake == "uci" and b.rules is None
    assert EngineEntry.from_json(a.to_json()) == a


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[engines.a]\ncommand = 3\n", "command is required"),
        ("[engines.a]\n", "command is required"),
        ('[engines.a]\ncommand = "x"\nspeed = 1\n', "unknown key 'speed'"),
        ('[engines.a]\ncommand = "x"\nhandshake = "xboard"\n', "handshake is one of"),
        ('[engines.a]\ncommand = "x"\nrules = "chess"\n', "unknown rules preset"),
        ('[engines.a]\ncommand = "x"\nfen_side = "rw"\n', "fen_side is one of"),
        ('[engines.a]\ncommand = "x"\nstart_timeout = -1\n', "start_timeout"),
        ('[engines."a b"]\ncommand = "x"\n', "names are letters"),
        ('[engines.a]\ncommand = "x\n', "not valid TOML"),
        ('[other]\nx = 1\n', "unexpected"),
    ],
)  # fmt: skip
def test_bad_registry_files(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "engines.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DsqError, match=fragment):
        load_registry(path)


def test_position_commands_follow_the_game() -> None:
    entry = EngineEntry("x", ("x",), fen_side="wb", fen_counters=False)
    texts = PositionText(entry)
    pos = Position("standard")
    assert texts.command(pos.st) == "position startpos"
    pos.play_moves("a3a4 a7a6")
    assert texts.command(pos.st) == "position startpos moves a3a4 a7a6"
    later = Position("standard", pos.fen())
    later.play("a4a5")
    assert texts.command(later.st) == (
        "position fen l5t/1d3c1/2p1w1e/r6/7/E6/2W1P1R/1C3D1/T5L w moves a4a5"
    )
    assert dialect_fen("7/7/7/7/3L3/7/7/7/7 r 3 9", "wb") == "7/7/7/7/3L3/7/7/7/7 w 3 9"
    swapped = dialect_fen("3l3/7/7/7/3L3/7/7/7/7 b 3 9", fen_case="red_lower")
    assert swapped == "3L3/7/7/7/3l3/7/7/7/7 b 3 9"
    upper = PositionText(EngineEntry("x", ("x",), move_case="upper"), fen_always=True)
    assert upper.command(pos.st) == f"position fen {START_FEN} moves A3A4 A7A6"


def test_clauses_of_moves() -> None:
    std, tcc = parse_rules("standard"), parse_rules("standard+trapped_can_capture")
    trap = Position(std, "l5t/2dL3/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6 r 0 1")
    assert move_clause(trap.st, std, encode_move("d8c8")) == (
        False, "Captures 2: attacker in a trap")  # fmt: skip
    assert move_clause(trap.st, tcc, encode_move("d8c8")) == (
        True, "Captures 2: attacker in a trap")  # fmt: skip
    assert move_clause(trap.st, std, encode_move("d8d9")) == (True, "Movement 1: a step")
    start = Position(std)
    assert move_clause(start.st, std, encode_move("a1a9"))[1].startswith("Movement 1")
    assert move_clause(start.st, std, encode_move("a7a6"))[1] == "not a piece of the side to move"
    assert move_clause(start.st, std, encode_move("c3b3")) == (True, "Movement 1: a step")
    assert capture_clause(std, 8, 20, 9, 21) == (False, "Captures 4: rat and elephant")
    assert capture_clause(std, 1, 20, 16, 21) == (True, "Captures 4: rat and elephant")
    assert capture_clause(std, 1, 22, 16, 21) == (False, "Captures 1: water boundary")
