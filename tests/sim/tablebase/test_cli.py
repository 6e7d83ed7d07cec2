"""``dsq tablebase``: build, stats, probe, verify and list, in-process and as a real
subprocess (the JSON contracts and the one-line errors)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main
from tests.sim.tablebase.conftest import STANDARD, VAN_RIJN
from tests.support import ROOT


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_build_stats_verify_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    code, out, err = run(
        capsys,
        "tablebase",
        "build",
        "--rules",
        STANDARD,
        "--material",
        "LR v e",
        "--data",
        data,
        "--json",
    )
    assert code == 0, err
    summary = json.loads(out)
    assert summary["built"] == summary["solved"] == 3 and summary["positions"] > 270_000
    assert "3/3 tables" in err  # the progress lines
    code, out, _ = run(
        capsys,
        "tablebase",
        "build",
        "--rules",
        "standard+rule_7_3",
        "--material",
        "LR v e",
        "--data",
        data,
    )
    assert code == 0 and "0 tables built" in out and "3 already there" in out
    code, out, _ = run(
        capsys,
        "tablebase",
        "stats",
        "--rules",
        "standard+no_capture_plies=80",
        "--material",
        "LRve",
        "--data",
        data,
        "--json",
    )
    stats = json.loads(out)
    assert list(stats) == ["rules", "material", "red_to_move", "blue_to_move"]
    assert stats["rules"] == "standard+no_capture_plies=80" and stats["material"] == "LR v e"
    for side in ("red_to_move", "blue_to_move"):
        s = stats[side]
        assert list(s) == ["red", "blue", "draw", "positions", "longest_win"]
        assert s["red"] + s["blue"] + s["draw"] == s["positions"] == 49 * 48 * 59
        assert s["longest_win"] % 2 == 1
    code, out, _ = run(
        capsys, "tablebase", "stats", "--rules", STANDARD, "--material", "LR v e", "--data", data
    )
    assert code == 0 and "LR v e under standard" in out and "longest win" in out
    code, out, _ = run(
        capsys, "tablebase", "verify", "--rules", STANDARD, "--material", "LR v e", "--data", data
    )
    assert code == 0 and "277,536 positions checked" in out
    code, out, _ = run(capsys, "tablebase", "list", "--data", data, "--json")
    listed = json.loads(out)["rules"]["standard+no_capture_plies=0"]
    assert listed["tables"] == 3 and "LR v e" in listed["materials"]


def test_stats_builds_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "tablebase",
        "stats",
        "--rules",
        VAN_RIJN,
        "--material",
        "R v r",
        "--json",
        "--data",
        str(tmp_path),
    )
    assert code == 0
    assert json.loads(out)["red_to_move"] == {
        "red": 2055,
        "blue": 1605,
        "draw": 0,
        "positions": 3660,
        "longest_win": json.loads(out)["red_to_move"]["longest_win"],
    }


def test_probe_json_and_jsonl(
    tb_data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fen = "2L4/7/7/7/7/7/7/7/r6 r 0 1"
    code, out, _ = run(
        capsys,
        "tablebase",
        "probe",
        "--rules",
        STANDARD,
        "--fen",
        fen,
        "--json",
        "--data",
        str(tb_data),
    )
    assert code == 0
    assert json.loads(out) == {"fen": fen, "value": "win", "plies": 1, "best": ["c9d9"]}
    lines = [
        {"rules": STANDARD, "fen": fen},
        {"rules": "standard+rule_17_5", "fen": "7/7/7/7/7/7/7/7/L6 b 0 1"},
        {"rules": STANDARD, "fen": "start"},
        {"rules": STANDARD, "fen": "bad"},
        "not an object",
    ]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n\n{broken\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code, out, err = run(capsys, "tablebase", "probe", "--jsonl", "--data", str(tb_data))
    answers = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(answers) == 6
    assert answers[0]["best"] == ["c9d9"]
    assert answers[1] == {"fen": lines[1]["fen"], "value": "loss", "plies": 0, "best": []}
    assert "16 animals" in answers[2]["error"] and "line 3" in answers[2]["error"]
    assert all("error" in a for a in answers[3:])
    assert len(err.strip().splitlines()) == 4


@pytest.mark.parametrize(
    "argv, words",
    [
        (["build", "--rules", STANDARD, "--pieces", "5"], ["--pieces", "5"]),
        (["build", "--rules", STANDARD, "--material", "LRWDP v e"], ["6 animals"]),
        (["build", "--rules", "chinese", "--material", "L v e"], ["chinese"]),
        (["stats", "--rules", STANDARD, "--material", "L v L"], ["upper case"]),
        (["probe", "--rules", STANDARD, "--fen", "start"], ["16 animals"]),
        (["probe", "--rules", STANDARD, "--fen", "7/7 r 0 1"], ["9 ranks"]),
        (["probe", "--rules", STANDARD], ["--fen"]),
        (["verify", "--rules", STANDARD, "--material", "E v e"], ["no table"]),
        (["build", "--rules", STANDARD], ["--material", "--pieces"]),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    code, out, err = run(capsys, "tablebase", *argv, "--data", str(tmp_path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for w in words:
        assert w in err


def test_real_subprocess(tb_data: Path) -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "sim.cli",
            "tablebase",
            "stats",
            "--rules",
            VAN_RIJN,
            "--material",
            "R v r",
            "--json",
            "--data",
            str(tb_data),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["blue_to_move"]["blue"] == 2055
