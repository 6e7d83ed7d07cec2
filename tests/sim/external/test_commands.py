"""The engine commands in-process: dsq engines (list, check), and --engines on simulate,
move and play, with their refusals as one line and exit code 2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.cli import main
from sim.external import pool
from sim.storage.reading import open_dataset
from tests.support.engines import bad_engine, dsq_engine, write_registry
from tests.support.files import unreadable_files

TRAP_FEN = "l5t/2dL3/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6 r 0 1"
TCC = "standard+trapped_can_capture"


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = write_registry(
        tmp_path_factory.mktemp("engines") / "engines.toml",
        dsq_engine("tcc", "greedy", rules=TCC),
        bad_engine("null", "null"),
    )
    yield str(path)
    pool.close_all()


def dsq(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_and_check(registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = dsq(capsys, "engines", "--engines", registry, "--json")
    assert code == 0 and [e["name"] for e in json.loads(out)] == ["tcc", "null"]
    small = ["--games", "1", "--plies", "4", "--perft-depth", "1", "--fen", TRAP_FEN]
    args = ["engines", "check", "tcc", "--engines", registry, "--data", str(tmp_path), *small]
    code, out, _ = dsq(capsys, *args, "--rules", "standard")
    assert code == 1
    assert "Captures 2: attacker in a trap: 1 moves (1 the engine allows" in out
    assert "e.g. d8c8 in " + TRAP_FEN in out and out.rstrip().endswith("s)")
    code, out, _ = dsq(capsys, *args, "--json")  # the rules the entry claims
    assert code == 0 and json.loads(out)["passed"] and json.loads(out)["rules"] == TCC
    assert len(list((tmp_path / "engines" / "checks").glob("tcc-*.json"))) == 2


def test_simulate_admits_engines_by_their_rules(
    registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["simulate", "--engines", registry, "--data", str(tmp_path), "--quiet", "--red",
              "engine:tcc,depth=1", "--blue", "random", "--games", "2", "--seed", "1"]  # fmt: skip
    code, _, err = dsq(capsys, *common, "--rules", "standard")
    assert code == 2 and err.count("\n") == 1
    assert f"engine tcc plays {TCC}, not standard" in err and "--force-engines" in err
    code, _, err = dsq(capsys, *common, "--rules", TCC, "--batch-id", "ok")
    assert code == 0, err
    with open_dataset(tmp_path) as ds:
        rows = ds.con.sql("SELECT red_engine.name, reason FROM games").fetchall()
    assert len(rows) == 2 and all(r[0] == "tcc" and r[1] != "forfeit" for r in rows)
    resume = ["simulate", "--resume", "ok", "--engines", registry, "--data", str(tmp_path)]
    assert dsq(capsys, *resume, "--quiet")[0] == 0  # the record's engine bots are admitted
    code, _, err = dsq(capsys, *common, "--rules", "standard", "--force-engines")
    assert code == 0, err


def test_move_and_play_with_engines(registry: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = dsq(capsys, "move", "--bot", "engine:tcc,depth=1", "--engines", registry,
                       "--rules", TCC, "--fen", TRAP_FEN, "--json")  # fmt: skip
    info = json.loads(out.splitlines()[0])
    assert code == 0 and info["move"] == out.splitlines()[-1] and info["bot"].startswith("engine:")
    code, out, _ = dsq(capsys, "play", "--red", "greedy", "--blue", "engine:null,movetime=200",
                       "--engines", registry, "--quiet")  # fmt: skip
    assert code == 0 and "result: red wins (forfeit: null_move: " in out


def test_play_keeps_the_engines_clocks(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    registry = str(write_registry(tmp_path / "engines.toml", dsq_engine("tcc", "greedy", rules=TCC),
                                  bad_engine("slow", "slow", sleep_ms=700)))  # fmt: skip
    code, out, _ = dsq(capsys, "play", "--red", "greedy", "--blue", "engine:tcc,tc=40/30+0.5",
                       "--engines", registry, "--rules", TCC, "--ply-cap", "6")  # fmt: skip
    blue = [x for x in out.splitlines() if x.startswith("ply ") and ": blue " in x]
    assert code == 0 and len(blue) == 3 and out.splitlines()[-2].startswith("result: draw")
    left = [float(x.split(", ")[-1].split()[0]) for x in blue]  # "(N ms, S s left)"
    # 30 s, each move charged its time and credited the 0.5 s increment
    assert all(29 < s <= 30 + 0.5 * (i + 1) for i, s in enumerate(left)), left
    # An answer later than the move time plus its margin loses on time, as in simulations.
    slow = "engine:slow,movetime=100,margin=100"
    code, out, _ = dsq(capsys, "play", "--red", "greedy", "--blue", slow, "--engines", registry,
                       "--quiet")  # fmt: skip
    assert code == 0 and "result: red wins (time: blue took " in out


def test_bad_registry_and_unknown_engine(
    registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = dsq(capsys, "move", "--bot", "engine:nope", "--engines", registry)
    assert code == 2 and "no engine 'nope'" in err and "(engines: null, tcc)" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("[engines.x]\ncommand = 1\n", encoding="utf-8")
    code, _, err = dsq(capsys, "engines", "--engines", str(bad))
    assert code == 2 and err.count("\n") == 1 and "command is required" in err


def test_a_registry_that_is_special_huge_or_not_text_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--engines naming a device, a FIFO, a folder, a file over 1 MiB or bytes that are
    not UTF-8: one line naming the file, exit 2, never a read that waits or fills memory."""
    cases = unreadable_files(tmp_path)
    for path, why in cases.items():
        code, out, err = dsq(capsys, "engines", "--engines", path)
        assert code == 2 and out == "", path
        assert err.count("\n") == 1 and path in err and why in err, err
