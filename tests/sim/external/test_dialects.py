"""Engines as they come, over real subprocesses (tests/support/dialect_engine.py): plain
UCI without dsq's extras, moves in upper case and colours written the other way round
(registry keys ``move_case``, ``fen_case``, ``fen_side``), move lists dsq cannot read, FEN
readers that get positions wrong, engines that ignore ``go depth``; the rules check's
progress and kept verdict, ``--force-engines`` and ``--engine-log``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.cli import main
from sim.external import pool
from sim.external.enginelog import EngineLog
from sim.storage.reading import open_dataset
from tests.support.engines import dialect_engine, write_registry

SMALL = ["--games", "2", "--plies", "6", "--perft-depth", "1"]
LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [<>!] ")
JUNGLE = ("--upper", "--red-lower", "--wb", "--moves", "colon")  # as jungine's glm-5 branch
SETTINGS = 'move_case = "upper"\nfen_case = "red_lower"\nfen_side = "wb"\nstartpos = false'


@pytest.fixture(autouse=True)
def _close_engines() -> Iterator[None]:
    yield
    pool.close_all()


def dsq(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def logs(folder: Path) -> dict[str, list[str]]:
    """Each log file's lines, by file name."""
    return {p.name: p.read_text().splitlines() for p in sorted(folder.glob("*.log"))}


def test_registry_settings_are_checked_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for key, value in (("move_case", "shouty"), ("fen_case", "swapped")):
        bad = write_registry(tmp_path / "bad.toml", dialect_engine("x", keys=f'{key} = "{value}"'))
        code, _, err = dsq(capsys, "engines", "--engines", str(bad))
        assert code == 2 and err.count("\n") == 1, err
        assert str(bad) in err and f"{key} is one of" in err and repr(value) in err


def test_a_jungle_dialect_engine_plays_with_its_settings_and_forfeits_without(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = str(write_registry(
        tmp_path / "engines.toml",
        dialect_engine("jung", *JUNGLE, keys=SETTINGS),
        dialect_engine("raw", "--upper", "--red-lower", keys="startpos = false"),
    ))  # fmt: skip
    data = str(tmp_path / "data")
    common = ["simulate", "--engines", registry, "--data", data, "--quiet", "--blue", "random",
              "--games", "2", "--seed", "1"]  # fmt: skip
    code, _, err = dsq(capsys, *common, "--red", "engine:jung,depth=1", "--batch-id", "jung")
    assert code == 0, err
    code, _, err = dsq(capsys, *common, "--red", "engine:raw,depth=1", "--batch-id", "raw",
                       "--force-engines")  # fmt: skip
    assert code == 0, err
    with open_dataset(data) as ds:
        rows = ds.con.sql("SELECT batch_id, reason, forfeit_note FROM games").fetchall()
    assert sorted(r[0] for r in rows) == ["jung", "jung", "raw", "raw"]
    assert all(r[1] != "forfeit" for r in rows if r[0] == "jung")
    # without fen_case it takes red's pieces for blue's and plays one of blue's (upper case)
    raw = [r for r in rows if r[0] == "raw"]
    assert all(r[1] == "forfeit" and r[2].startswith("illegal: ") for r in raw), raw


def test_plain_uci_check_shows_progress_and_bounds_each_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # no moves command, and a search that ignores go depth (3 s without a movetime)
    registry = str(write_registry(tmp_path / "e.toml", dialect_engine("plain", "--movetime-only")))
    log = tmp_path / "log"
    args = ["engines", "check", "plain", "--engines", registry, "--data", str(tmp_path), *SMALL]
    code, out, err = dsq(capsys, *args, "--engine-log", str(log))
    assert code == 0, out + err
    assert "chosen moves (go depth 1 movetime 200) compared in 12 positions" in out
    assert "rules check of plain: 12/12 positions" in err  # progress, on stderr
    lines = [line for text in logs(log).values() for line in text]
    assert lines and all(LINE.match(line) for line in lines)
    assert any(line.endswith("> go depth 1 movetime 200") for line in lines)
    assert any(line.endswith("< uciok") for line in lines)
    # odd games are sent as each position's FEN alone
    assert any(" > position fen " in line and " moves " not in line for line in lines)
    assert dsq(capsys, *args, "--quiet")[2] == ""


def test_an_unreadable_move_list_is_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = write_registry(tmp_path / "e.toml", dialect_engine("odd", "--moves", "unreadable"))
    args = ["engines", "check", "odd", "--engines", str(registry), "--data", str(tmp_path)]
    code, out, _ = dsq(capsys, *args, *SMALL, "--quiet")
    assert out.count("could not read the engine's move list") == 1, out
    assert "Movement" not in out and re.search(r"\('legal moves: [a-g]\d-[a-g]\d ", out)
    assert code == 0 and "chosen moves (go depth 1 movetime 200) compared in 12" in out


def test_a_broken_fen_reader_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = write_registry(
        tmp_path / "e.toml", dialect_engine("nofen", "--moves", "colon", "--fen-broken")
    )
    args = ["engines", "check", "nofen", "--engines", str(registry), "--data", str(tmp_path)]
    code, out, _ = dsq(capsys, *args, *SMALL, "--quiet")
    assert code == 1 and "result: FAIL" in out, out
    assert "legal moves compared in 12 positions" in out


def test_batches_keep_the_check_force_skips_it_and_workers_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = str(write_registry(
        tmp_path / "e.toml",
        dialect_engine("good", "--moves", "colon"),
        dialect_engine("nofen", "--moves", "colon", "--fen-broken"),
    ))  # fmt: skip
    data = str(tmp_path / "data")

    def simulate(engine: str, log: Path, *more: str) -> int:
        code, _, err = dsq(capsys, "simulate", "--engines", registry, "--data", data, "--red",
                           f"engine:{engine},depth=1", "--blue", "random", "--games", "4",
                           "--engine-log", str(log), *more)  # fmt: skip
        assert code == 0, err
        return code

    simulate("good", tmp_path / "l1", "--workers", "2", "--chunk-games", "1")
    first = logs(tmp_path / "l1")
    checking = [n for n, lines in first.items() if any(x.endswith("> moves") for x in lines)]
    assert len(checking) == 1  # the check's own process
    playing = [n for n in first if n not in checking]
    assert playing and all(n.startswith("good-") for n in first)
    assert all(LINE.match(x) for lines in first.values() for x in lines)
    assert all(any(" > go " in x for x in first[n]) for n in playing)
    simulate("good", tmp_path / "l2", "--quiet")  # the kept verdict: no check this time
    assert not any(x.endswith("> moves") for lines in logs(tmp_path / "l2").values() for x in lines)
    simulate("nofen", tmp_path / "l3", "--quiet", "--force-engines")  # no check at all
    third = logs(tmp_path / "l3")
    assert third and not any(x.endswith("> moves") for lines in third.values() for x in lines)


def test_an_engine_that_crashes_in_the_check_is_one_error_before_a_batch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = write_registry(
        tmp_path / "e.toml", dialect_engine("seg", "--moves", "colon", "--fen-newgame-crash")
    )
    code, _, err = dsq(capsys, "simulate", "--engines", str(registry), "--data", str(tmp_path),
                       "--red", "engine:seg,depth=1", "--blue", "random", "--games", "1",
                       "--quiet")  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    assert "the rules check of engine seg under standard stopped: engine seg crashed" in err
    assert "killed by signal 11" in err and "--force-engines" in err


def test_a_log_file_is_capped(tmp_path: Path) -> None:
    log = EngineLog(str(tmp_path), "e", 1, cap=300)
    for n in range(100):
        log.write(">", f"go depth {n}")
    log.write("<", "after the cap")
    lines = (tmp_path / "e-1.log").read_text().splitlines()
    assert lines[-1].endswith("! log capped at 300 bytes: later lines left out")
    assert sum(len(x) + 1 for x in lines[:-1]) <= 300 and len(lines) < 10


def test_an_unwritable_log_folder_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = write_registry(tmp_path / "e.toml", dialect_engine("plain"))
    (tmp_path / "file").write_text("x")
    code, _, err = dsq(capsys, "engines", "check", "plain", "--engines", str(registry),
                       "--engine-log", str(tmp_path / "file" / "sub"))  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and "--engine-log: cannot write into" in err


def test_a_tournament_logs_its_engines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    registry = str(write_registry(tmp_path / "e.toml", dialect_engine("good", "--moves", "colon")))
    code, _, err = dsq(capsys, "tournament", "--format", "round-robin", "--players",
                       "engine:good,depth=1", "random", "--games-per-pair", "2",
                       "--engines", registry, "--data", str(tmp_path / "data"), "--quiet",
                       "--engine-log", str(tmp_path / "log"))  # fmt: skip
    assert code == 0, err
    played = logs(tmp_path / "log")
    assert played and all(n.startswith("good-") for n in played)
    assert any(" > go " in x for lines in played.values() for x in lines)
