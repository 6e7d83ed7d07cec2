"""``dsq stats`` end to end over real parquet files: real processes for the console path
(text output, bad input, the light imports), the other cases in this process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main
from sim.stats.synthetic import rows_table, synthetic_table
from sim.storage.schema import REASONS
from sim.storage.writing import write_games_chunk
from tests.support import ROOT
from tests.support.procs import dsq_here


def dsq_inproc(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``dsq stats`` in this process (same code path as the console script, no start-up)."""
    code = main(["stats", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def stats(*args: str) -> subprocess.CompletedProcess[str]:
    """``dsq stats ARGS`` in this process (the real process's start-up and exit are covered
    by the tests that call :func:`dsq`)."""
    return dsq_here("stats", *args)


def dsq(*args: str) -> subprocess.CompletedProcess[str]:
    """``dsq stats ARGS`` in a real process."""
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", "stats", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _yeshou_games():  # noqa: ANN202 - a pyarrow Table
    return synthetic_table(
        3000, rules="yeshou", seed=2, batch_id="yes", bots=("greedy", "random"),
        first_player_elo=40,
    )  # fmt: skip


def _void() -> int:
    """The yeshou games of 20 plies or fewer: void under its scoring rule (void_rounds)."""
    return sum(1 for p in _yeshou_games().column("plies").to_pylist() if p <= 20)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("stats-data")
    write_games_chunk(
        d,
        "std",
        synthetic_table(3000, rules="standard", seed=1, batch_id="std", bots=("greedy", "random")),
    )
    write_games_chunk(d, "yes", _yeshou_games())
    (d / "games" / "junk.parquet").write_bytes(b"not parquet at all")
    return d


def test_text_output(data: Path) -> None:
    r = dsq("--data", str(data))
    assert r.returncode == 0, r.stderr
    void = _void()
    assert void > 0 and r.stdout.startswith(f"{6000 - void:,} games in ")
    assert f"\n{void} more void, left out: ended within their rule set's void_rounds" in r.stdout
    assert "first-player score" in r.stdout and "95% CI" in r.stdout
    assert "end reason" in r.stdout and "ply_cap" in r.stdout
    assert "skipped" in r.stderr and "junk.parquet" in r.stderr


def test_json_output(data: Path) -> None:
    r = stats(
        "--data",
        str(data),
        "--json",
        "--by",
        "matchup",
        "--ratings",
        "--details",
        "--compare",
        "standard,yeshou",
        "--min-plies",
        "20",
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    g = out["general"]
    assert g["red"]["count"] + g["blue"]["count"] + g["draw"]["count"] == g["games"]
    assert g["games"] < 6000  # games under 20 plies left out
    assert out["selection"]["min_plies"] == 20
    assert {row["bot"] for row in out["by"]["rows"]} == {"greedy", "random"}
    assert out["by"]["rows"][0]["ptnml"] is None or len(out["by"]["rows"][0]["ptnml"]) == 5
    assert [p["rules"] for p in out["compare"]["per_rules"]] == ["standard", "yeshou"]
    assert out["compare"]["pairs"][0]["first_move_diff_p"] < 0.05
    assert g["first_move"]["identifiable"] and g["first_move"]["p_value"] is not None
    assert len(out["ratings"]["table"]) == 2
    assert len(out["details"]["capture_squares"]) == 63
    assert sum(b["games"] for b in out["length_histogram"]) == g["games"]
    assert len(out["reasons"]) == len(REASONS)  # one row per reason of the vocabulary


@pytest.mark.parametrize("by", ["rules", "batch", "bot", "matchup"])
def test_by_tables(data: Path, by: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = dsq_inproc(capsys, "--data", str(data), "--by", by)
    assert code == 0, err
    assert f"by {by}:" in out
    if by == "rules":
        assert "standard" in out and "yeshou" in out


def test_filters_and_canonical_rules(data: Path) -> None:
    r = stats(
        "--data", str(data), "--rules", " yeshou ", "--bot", "greedy", "--colour", "red", "--json",
        "--with-void",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["general"]["games"] == 1500
    assert out["selection"]["rules"] == ["yeshou"]


def test_ratings_and_compare_text(data: Path) -> None:
    r = stats(
        "--data", str(data), "--ratings", "--anchor", "random", "--compare", "standard,yeshou"
    )
    assert r.returncode == 0, r.stderr
    assert "Bradley-Terry" in r.stdout and "anchor random = 0" in r.stdout
    assert "standard - yeshou" in r.stdout and "Kruskal-Wallis" in r.stdout


def test_compare_prints_the_comparison_not_the_pooled_overview(data: Path) -> None:
    r = stats("--data", str(data), "--compare", "standard,yeshou")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("rule sets compared: standard, yeshou (")
    assert "standard - yeshou" in r.stdout
    for overview in ("first-player score", "end reason", "red wins (first player)"):
        assert overview not in r.stdout
    plain = stats("--data", str(data))
    assert "first-player score" in plain.stdout  # without --compare, the overview


def test_no_games(tmp_path: Path) -> None:
    # An empty selection is one error line, exit 2 (as in games export, openings, tune).
    r = stats("--data", str(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"dsq stats: error: no games in {tmp_path}\n"
    r = stats("--data", str(tmp_path), "--json")
    assert r.returncode == 2 and r.stdout == "" and "no games" in r.stderr


def test_no_games_for_selection(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = dsq_inproc(capsys, "--data", str(data), "--rules", "datou")
    assert code == 2 and out == "" and "no games" in err and "rules in this data: " in err


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--rules", "nosuchpreset"], "nosuchpreset"),
        (["--min-plies", "abc"], "--min-plies"),
        (["--min-plies", "-3"], "--min-plies"),
        (["--colour", "red"], "bot"),
        (["--compare", "standard"], "--compare"),
        (["--compare", "standard,bogus+x=1"], "bogus"),
        (["--bins", "0"], "--bins"),
        (["--confidence", "2"], "--confidence"),
        (["--anchor", "random"], "--ratings"),
        (["--ratings", "--anchor", "nobody"], "nobody"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    data: Path, args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = dsq_inproc(capsys, "--data", str(data), *args)
    assert code == 2, (out, err)
    lines = [line for line in err.splitlines() if "skipped" not in line]
    assert len(lines) == 1 and needle in lines[0] and lines[0].startswith("dsq stats: error:")


def test_bad_input_in_a_real_process(data: Path) -> None:
    r = dsq("--data", str(data), "--rules", "nosuchpreset")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "nosuchpreset" in r.stderr


def test_missing_data_dir(tmp_path: Path) -> None:
    r = stats("--data", str(tmp_path / "nope"))
    assert r.returncode == 2 and "does not exist" in r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_hand_made_rows(tmp_path: Path) -> None:
    rows = [dict(winner="red", game_index=i, pair_id=i) for i in range(7)] + [
        dict(winner="blue", game_index=7 + i, pair_id=7 + i) for i in range(3)
    ]
    write_games_chunk(tmp_path, "h", rows_table(rows))
    r = stats("--data", str(tmp_path), "--json")
    red = json.loads(r.stdout)["general"]["red"]
    assert (round(red["low"], 3), round(red["high"], 3)) == (0.397, 0.892)  # Wilson 7 of 10


def test_stats_imports_neither_numba_nor_streamlit(data: Path) -> None:
    """The stats path (sim.stats, sim.report) stays light: no JIT compiler, no web app."""
    code = (
        "import sys; from sim.cli import main; "
        f"main(['stats', '--data', {str(data)!r}, '--by', 'matchup', '--ratings', '--details']); "
        "heavy = sorted({'numba', 'streamlit'} & set(sys.modules)); "
        "sys.exit(f'imported {heavy}' if heavy else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_games_against_people_are_counted_only_when_asked(tmp_path: Path, capsys) -> None:
    from sim.records.human import human_game_row, save_human_game

    write_games_chunk(
        tmp_path, "bots", synthetic_table(200, rules="standard", seed=3, batch_id="bots")
    )
    from engine import Position

    # A complete game played by rote: each ply takes the legal move at a rotating index.
    pos, moves = Position("standard"), []
    while pos.result is None:
        legal = pos.legal_moves()
        moves.append(legal[len(moves) % len(legal)])
        pos.play(moves[-1])
    save_human_game(tmp_path, human_game_row("standard", "human", "greedy", moves))
    games = {}
    for extra in ([], ["--humans"], ["--bot", "human"]):
        code, out, _ = dsq_inproc(capsys, "--data", str(tmp_path), "--json", *extra)
        assert code == 0
        games[tuple(extra)] = json.loads(out)["general"]["games"]
    assert games[()] == 200
    assert games[("--humans",)] == 201
    assert games[("--bot", "human")] == 1


def test_the_selection_names_bots_by_their_short_spec(data: Path) -> None:
    r = stats("--data", str(data), "--bot", "greedy", "--bot", "alphabeta:depth=2,noise=0")
    first = r.stdout.splitlines()[0]
    assert "bots: greedy, alphabeta:depth=2)" in first
    assert "tt_mb" not in r.stdout


def test_first_move_of_an_unswapped_match_is_not_tested(tmp_path: Path) -> None:
    t = synthetic_table(
        500, rules="datou", batch_id="u", bots=("greedy", "random"), elo={"greedy": 400},
        swap=False, moves=False,
    )  # fmt: skip
    write_games_chunk(tmp_path, "u", t)
    r = stats("--data", str(tmp_path), "--rules", "datou")
    assert r.returncode == 0, r.stderr
    (line,) = [x for x in r.stdout.splitlines() if x.startswith("first-move advantage")]
    assert "cannot be separated from the bots' strengths" in line and "p =" not in line
    assert "favoured" not in r.stdout and "p < 0.001" not in r.stdout
    assert "first-player score" in r.stdout  # the raw figure stays
    g = json.loads(stats("--data", str(tmp_path), "--json").stdout)["general"]
    assert g["first_player"]["score"] > 0.8  # the bots' difference, not the first move's
    assert g["first_move"]["verdict"] == "not_identifiable" and g["first_move"]["p_value"] is None
